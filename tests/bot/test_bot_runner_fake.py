"""The protocol loop against the loopback fake referee: full matches, bad bots, waiting and cancelling."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, RetryPolicy
from bot.client.runner import PlayError, PlayOptions, Runner
from bot.players.match_bots import StrategyBot, file_bot
from bot.replay.recording import read_replay
from rummy import UNKNOWN

CREDENTIALS = Credentials("tester", "secret")
FAST = RetryPolicy(first_wait_s=0.01, max_wait_s=0.1)


def run_games(base_url: str, bot, tmp_path: Path | None = None, **options) -> list:
    opts = PlayOptions(game_style_id=3, move_time_s=options.pop("move_time_s", 0.4), record_dir=tmp_path, **options)
    with ArenaClient(base_url, CREDENTIALS, policy=FAST) as client:
        return Runner(client, bot, opts).run()


def assert_clean(log, summaries, games: int = 1) -> None:
    assert len(summaries) == games
    for summary in summaries:
        assert summary.error is None
        assert summary.status in ("WON", "LOST", "DRAWN")
    assert log.late_moves == [], "a move arrived after its deadline"
    assert log.refused_moves == [], "the client sent a move the rules refuse"


def test_random_template_file_bot_plays_full_matches(fake_referee, random_template, tmp_path):
    # Minute-long moves: the test says no fallback is needed, and a loaded machine must not make one necessary.
    base, log = fake_referee(rounds=2, move_time_ms=60_000)
    summaries = run_games(base, file_bot(random_template), tmp_path, games=2, move_time_s=60)
    assert_clean(log, summaries, games=2)
    assert all(summary.fallbacks == 0 for summary in summaries)
    assert sum(summary.moves for summary in summaries) == len(log.accepted_moves)
    assert len(list(tmp_path.glob("*.jsonl"))) == 2


class KnowsNothing:
    """A recognizer that recognises no card: the tracker and strategies must still play legal moves."""

    name = "knows-nothing"

    def recognize(self, cards, catalog):
        return {card_id: UNKNOWN for card_id, _url in cards}


@pytest.mark.parametrize("name", ["greedy", "random"])
def test_strategy_bot_plays_a_full_match(fake_referee, name):
    base, log = fake_referee(move_time_ms=60_000)  # no late move on a loaded machine: the test is about legality
    summaries = run_games(base, StrategyBot(name, None, lambda gamestate: KnowsNothing()), move_time_s=60)
    assert_clean(log, summaries)
    assert summaries[0].moves == len(log.accepted_moves) > 0


# Move times per bad bot. The raiser and the garbage bot need a fallback whatever the move time, so they get
# a minute: a starved machine must not make a move late. The sleeper and the spinner overrun whatever
# deadline they are given (until half a second past it), so their fallbacks do not depend on the machine's
# speed either; 2 s moves (as FAULT_MOVE_TIME_MS in test_bot_faults.py) leave the client's own turn
# enough time on a loaded 2-core machine.
BAD_BOT_MOVE_TIME_MS = {"sleeper.py": 2000, "raiser.py": 60_000, "garbage.py": 60_000, "spinner.py": 2000}


@pytest.mark.parametrize("bot_file", ["sleeper.py", "raiser.py", "garbage.py", "spinner.py"])
def test_bad_bots_still_play_legal_moves_in_time(fake_referee, fixture_bots, tmp_path, bot_file):
    move_time_ms = BAD_BOT_MOVE_TIME_MS[bot_file]
    base, log = fake_referee(move_time_ms=move_time_ms)
    summaries = run_games(base, file_bot(fixture_bots / bot_file), tmp_path, move_time_s=move_time_ms / 1000)
    assert_clean(log, summaries)
    assert summaries[0].fallbacks > 0
    (replay,) = tmp_path.glob("*.jsonl")
    records = read_replay(replay)
    fallbacks = [r for r in records if r["type"] == "move" and r["source"] == "fallback"]
    assert fallbacks and all(r["reason"] for r in fallbacks), "every fallback says why"
    assert records[-1]["type"] == "end" and records[-1]["fallbacks"] == summaries[0].fallbacks


def test_waits_for_an_opponent_with_long_polls(fake_referee, random_template):
    # Minute-long moves: the test is about waiting with long polls, and a loaded machine must not make a move late.
    base, log = fake_referee(polls_until_match=3, move_time_ms=60_000)
    summaries = run_games(base, file_bot(random_template), move_time_s=60)
    assert_clean(log, summaries)
    waiting = ("GM-PollForGameState", "WAITING_FOR_GAME")
    expected = [("GM-OfferGame", "WAITING_FOR_GAME"), waiting, waiting, ("GM-PollForGameState", "SUCCESS")]
    assert log.calls[:4] == expected


def test_stop_cancels_a_waiting_offer(fake_referee, random_template):
    base, log = fake_referee(never_match=True)
    stop = threading.Event()
    opts = PlayOptions(game_style_id=3, wait_ms=50)
    with ArenaClient(base, CREDENTIALS, policy=FAST) as client:
        runner = Runner(client, file_bot(random_template), opts, stop=stop)
        threading.Timer(0.3, stop.set).start()
        assert runner.run() == []
    assert log.cancelled_offers == 1


def test_keyboard_interrupt_cancels_a_waiting_offer(fake_referee, random_template):
    base, log = fake_referee(never_match=True)
    polls = 0

    class Interrupting(ArenaClient):
        def poll(self, player_key, max_wait_ms=5000):
            nonlocal polls
            polls += 1
            if polls == 3:  # as if Ctrl-C arrived while the long poll waited
                raise KeyboardInterrupt
            return super().poll(player_key, max_wait_ms)

    with Interrupting(base, CREDENTIALS, policy=FAST) as client:
        runner = Runner(client, file_bot(random_template), PlayOptions(game_style_id=3, wait_ms=10))
        with pytest.raises(KeyboardInterrupt):
            runner.run()
    assert log.cancelled_offers == 1


def test_refusals_are_clear_errors(fake_referee, random_template):
    base, _log = fake_referee()
    bot = file_bot(random_template)
    with pytest.raises(PlayError, match="Check of OpponentId failed"):
        run_games(base, bot, opponent_id="nobody-like-this")
    with (
        ArenaClient(base, Credentials("tester", "wrong"), policy=FAST) as client,
        pytest.raises(PlayError, match="INVALID_LOGIN_OR_PASSWORD"),
    ):
        Runner(client, bot, PlayOptions(game_style_id=3)).run()


def test_password_never_reaches_records(fake_referee, fixture_bots, tmp_path):
    base, log = fake_referee()
    run_games(base, file_bot(fixture_bots / "garbage.py"), tmp_path)
    assert log.passwords_seen == {"secret"}
    for replay in tmp_path.glob("*.jsonl"):
        assert "secret" not in replay.read_text()
