"""Full matches against the real local referee (server/) over loopback, with every kind of bot."""

from __future__ import annotations

import pytest

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, RetryPolicy
from bot.client.runner import PlayOptions, Runner
from bot.players.match_bots import file_bot, strategy_bot
from bot.replay.recording import read_replay

FAST = RetryPolicy(first_wait_s=0.01, max_wait_s=0.1)
STYLE = 3  # one round; the server runs with a 500 ms move time


def play(
    base: str,
    password: str,
    bot,
    record_dir=None,
    games: int = 1,
    style: int = STYLE,
    move_time_s=0.5,
    opponent: str = "housebot-practise",
):
    options = PlayOptions(
        game_style_id=style,
        opponent_id=opponent,
        games=games,
        record_dir=record_dir,
        move_time_s=move_time_s,
    )
    with ArenaClient(base, Credentials("tester", password), policy=FAST) as client:
        return Runner(client, bot, options).run()


def assert_finished_in_time(summaries, games: int = 1) -> None:
    assert len(summaries) == games
    for summary in summaries:
        assert summary.error is None, summary.error
        # Never LOST_BY_TIMEOUT or ABORTED; the house bot itself may run out of time on a busy 2-core machine.
        assert summary.status in ("WON", "LOST", "DRAWN", "WON_BY_TIMEOUT"), summary
        assert summary.moves > 0


def test_user_file_bot_like_the_arena_template_plays_full_matches(real_server, random_template, tmp_path):
    # A long move time: the test says no fallback is needed, and a busy machine must not make one necessary.
    base, passwords = real_server(move_time_ms=60_000)
    summaries = play(base, passwords["tester"], file_bot(random_template), tmp_path, games=2, move_time_s=60)
    assert_finished_in_time(summaries, games=2)
    assert all(summary.fallbacks == 0 for summary in summaries)
    for summary in summaries:
        records = read_replay(summary.record_path)
        assert records[0]["opponent_id"] == "housebot-practise"
        assert records[-1] == {**records[-1], "type": "end", "status": summary.status}
        states = [r["gamestate"] for r in records if r["type"] == "gamestate"]
        assert states[-1]["GameStatus"] == summary.status
        applied = [r for r in records if r["type"] == "move" and r["applied"]]
        assert len(applied) == summary.moves
        assert all(r["t"] * 1000 <= r["response_deadline"] + 50 for r in applied), "answers came back in time"


PAIRS = [("greedy", "oracle"), ("random", "oracle"), ("greedy", "noisy:0.3")]


@pytest.mark.parametrize(("strategy", "recognizer"), PAIRS)
def test_strategy_bot_with_a_recognizer_plays_a_full_match(real_server, strategy, recognizer):
    # A long move time: on a busy machine a 500 ms move could need a fallback, and this test says none is needed.
    base, passwords = real_server(move_time_ms=60_000)
    summaries = play(base, passwords["tester"], strategy_bot(strategy, recognizer, base_url=base), move_time_s=60)
    assert_finished_in_time(summaries)
    assert summaries[0].fallbacks == 0


def test_a_multi_round_match_is_followed_to_its_end(real_server, fixture_bots):
    base, passwords = real_server(move_time_ms=60_000)  # a loaded machine must not end the match on time
    bot = strategy_bot("greedy", "oracle", base_url=base)
    (summary,) = play(base, passwords["tester"], bot, style=2, move_time_s=60)
    assert_finished_in_time([summary])
    if summary.status != "WON_BY_TIMEOUT":
        assert summary.my_score + summary.opp_score == 5
        assert summary.moves > 20  # five rounds of about ten moves each


# Move times per bad bot. The raiser and the garbage bot need a fallback whatever the move time, so they get
# a minute: a starved machine must not lose on time. The sleeper and the spinner overrun whatever deadline
# they are given (until half a second past it), so their fallbacks do not depend on the machine's speed
# either; 2 s moves (as FAULT_MOVE_TIME_MS in test_bot_faults.py) leave the client's own turn enough time
# on a loaded 2-core machine.
BAD_BOT_MOVE_TIME_MS = {"sleeper.py": 2000, "raiser.py": 60_000, "garbage.py": 60_000, "spinner.py": 2000}


@pytest.mark.parametrize("bot_file", ["sleeper.py", "raiser.py", "garbage.py", "spinner.py"])
def test_bad_bots_still_play_legal_moves_in_time(real_server, fixture_bots, tmp_path, bot_file):
    move_time_ms = BAD_BOT_MOVE_TIME_MS[bot_file]
    base, passwords = real_server(move_time_ms=move_time_ms)
    bot = file_bot(fixture_bots / bot_file)
    (summary,) = play(base, passwords["tester"], bot, tmp_path, move_time_s=move_time_ms / 1000)
    assert_finished_in_time([summary])
    assert summary.fallbacks > 0
    records = read_replay(summary.record_path)
    moves = [r for r in records if r["type"] == "move"]
    assert all(r["result"] == "SUCCESS" or r["result"] == "GAME_HAS_ENDED" for r in moves), "no move was refused"
    assert all(r["reason"] for r in moves if r["source"] == "fallback"), "every fallback says why"
    if bot_file in ("sleeper.py", "garbage.py"):
        assert any(r["source"] == "bot" for r in moves), "the bot's own good moves are still played"
