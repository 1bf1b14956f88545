"""The client's small parts on their own: credentials, bot files, move checks, budgets, replay files, styles."""

from __future__ import annotations

import json
import logging
import threading
import time
from types import SimpleNamespace

import pytest

from bot.client.config import ConfigError, Credentials, redacting_filter, resolve_base_url, resolve_credentials
from bot.client.protocol_client import Answer
from bot.client.styles import StyleError, choose_style
from bot.players import deadline as deadline_module
from bot.players.deadline import Budget, GuardedBot, check_move, move_budget, safe_moves, safety_margin_s
from bot.players.user_bot import UserBotError, load_user_bot
from bot.replay.recording import MatchRecorder, ReplayError, labels_by_round, read_replay
from rummy import Give, Lay, MalformedMove, Take

STATE = {
    "MyHand": [[11, "/cards/a.png"], [12, "/cards/b.png"], [13, "/cards/c.png"]],
    "OppHand": [[21, "/cards/d.png"], [22, "/cards/e.png"]],
    "ResponseDeadline": 0,
}


# --- credentials ----------------------------------------------------------------------------------


def test_credentials_come_from_arguments_then_environment_then_config_file(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('bot_id = "file-bot"\npassword = "file-pw"\nbase_url = "http://example.invalid/prod"\n')
    env = {"RUMMY_VISION_CONFIG": str(config)}
    assert resolve_credentials(environ=env) == Credentials("file-bot", "file-pw")
    env_too = {**env, "RUMMY_VISION_BOT_ID": "env-bot", "RUMMY_VISION_BOT_PASSWORD": "env-pw"}
    assert resolve_credentials(environ=env_too) == Credentials("env-bot", "env-pw")
    assert resolve_credentials("arg-bot", "arg-pw", environ=env_too) == Credentials("arg-bot", "arg-pw")
    assert resolve_base_url(None, environ=env) == "http://example.invalid/prod/"
    assert resolve_base_url(None, environ={"RUMMY_VISION_CONFIG": str(tmp_path / "none.toml")}).endswith(":8080/prod/")


def test_missing_or_broken_credentials_say_what_to_do(tmp_path):
    nothing = {"RUMMY_VISION_CONFIG": str(tmp_path / "missing.toml")}
    with pytest.raises(ConfigError, match="no bot name: pass --bot-id"):
        resolve_credentials(environ=nothing)
    with pytest.raises(ConfigError, match="no password for bot 'me'"):
        resolve_credentials("me", environ=nothing)
    broken = tmp_path / "broken.toml"
    broken.write_text("bot_id = [unclosed")
    with pytest.raises(ConfigError, match="not readable TOML"):
        resolve_credentials(environ={"RUMMY_VISION_CONFIG": str(broken)})
    wrong_type = tmp_path / "wrong.toml"
    wrong_type.write_text("password = 12345\n")
    with pytest.raises(ConfigError, match="password must be a string"):
        resolve_credentials("me", environ={"RUMMY_VISION_CONFIG": str(wrong_type)})


def test_the_password_stays_out_of_reprs_and_logs(caplog):
    credentials = Credentials("me", "hunter2-secret")
    assert "hunter2" not in repr(credentials) and "hunter2" not in str(credentials)
    logger = logging.getLogger("bot.test-redaction")
    logger.addFilter(redacting_filter(credentials))
    with caplog.at_level(logging.INFO, logger="bot.test-redaction"):
        logger.info("oops, %s leaked", credentials.password)
    assert "hunter2" not in caplog.text and "********" in caplog.text


# --- user bot files -------------------------------------------------------------------------------


def test_module_globals_persist_within_a_match_and_start_fresh_each_match(tmp_path):
    path = tmp_path / "counter.py"
    path.write_text("calls = 0\n\ndef calculate_move(gamestate):\n    global calls\n    calls += 1\n    return calls\n")
    bot = load_user_bot(path)
    first_match = bot.new_match()
    assert [first_match({}), first_match({}), first_match({})] == [1, 2, 3]
    second_match = bot.new_match()
    assert second_match({}) == 1
    assert first_match({}) == 4  # the old match's module is separate


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def calculate_move(gamestate)\n    return 1\n", "syntax error at line 1"),
        ("def move(gamestate):\n    return 1\n", "does not define calculate_move"),
        ("import no_such_module_anywhere\n", "failed while loading: ModuleNotFoundError"),
        ("calculate_move = 3\n", "does not define calculate_move"),
    ],
)
def test_unusable_bot_files_are_refused_with_the_reason(tmp_path, source, message):
    path = tmp_path / "bot.py"
    path.write_text(source)
    with pytest.raises(UserBotError, match=message):
        load_user_bot(path)
    with pytest.raises(UserBotError, match="does not exist"):
        load_user_bot(tmp_path / "absent.py")


# --- moves and budgets ----------------------------------------------------------------------------


def test_check_move_accepts_only_moves_the_referee_would_take():
    assert check_move({"Give": 11}, STATE) == Give(11)
    assert check_move('{"Take": 22}', STATE) == Take(22)
    assert check_move(Lay((11, 12, 13)), STATE) == Lay((11, 12, 13))
    for bad, reason in [
        (None, "returned None"),
        ({"Give": 21}, "not in MyHand"),
        ({"Take": 11}, "not in OppHand"),
        ({"Lay": [11, 12, 99]}, "not in MyHand"),
        ({"Lay": [11, 11, 12]}, "repeats"),
        ({"Give": "11"}, "integer card id"),
        ("nonsense", "not valid JSON"),
        ({"Give": 11, "Take": 21}, "exactly one key"),
    ]:
        with pytest.raises(MalformedMove, match=reason):
            check_move(bad, STATE)


def test_safe_moves_are_gives_then_takes_and_never_lays():
    moves = safe_moves(STATE)
    assert {move for move in moves[:3]} == {Give(11), Give(12), Give(13)}
    assert {move for move in moves[3:]} == {Take(21), Take(22)}
    assert all(check_move(move, STATE) == move for move in moves)


def test_the_margin_grows_with_slow_round_trips_but_leaves_the_bot_some_time():
    assert safety_margin_s([0.002] * 20) == pytest.approx(0.12)
    assert safety_margin_s([0.1] * 20) == pytest.approx(0.28)
    assert safety_margin_s([1.0] * 20, move_time_s=0.5) == pytest.approx(0.3)  # capped at 60% of the move time
    assert safety_margin_s([]) == pytest.approx(0.655)  # nothing measured yet: assume a slow network


def test_the_budget_takes_the_earlier_of_the_server_deadline_and_the_move_time(monkeypatch):
    # Fixed clocks: with real ones, a starved process between the reads here and in move_budget moved the
    # server deadline's place on the monotonic clock by more than the tolerance.
    now, epoch = 1000.0, 1_700_000_000.0
    monkeypatch.setattr(deadline_module, "time", SimpleNamespace(monotonic=lambda: now, time=lambda: epoch))
    in_two_s = {"ResponseDeadline": int(epoch * 1000) + 2000}
    budget = move_budget(in_two_s, received=now, round_trips=[0.002] * 10, move_time_s=0.5)
    assert budget.deadline == pytest.approx(now + 0.5, abs=0.01)  # a server clock ahead of ours is not trusted
    assert budget.send_by == pytest.approx(budget.deadline - 0.12, abs=0.01)
    budget = move_budget(in_two_s, received=now, round_trips=[0.002] * 10, move_time_s=None)
    assert budget.deadline == pytest.approx(now + 2.0, abs=0.05)


def test_the_guard_abandons_a_hanging_bot_and_reports_raises_and_garbage():
    def budget_of(seconds: float) -> Budget:
        now = time.monotonic()
        return Budget(send_by=now + seconds, received=now, deadline=now + seconds + 0.2, margin_s=0.2)

    release = threading.Event()
    hanging = GuardedBot(lambda gamestate: release.wait(120))
    started = time.monotonic()
    outcome = hanging.run(STATE, budget_of(0.1))
    # Generous: the bot hangs for 120 s; the guard gave up at its 0.1 s budget, long before.
    assert time.monotonic() - started < 60
    assert outcome.move is None and "overran" in outcome.problem
    assert "still busy" in hanging.run(STATE, budget_of(0.1)).problem  # not called twice at once
    release.set()
    budget = budget_of(60)  # quick bots: the budget is not what is tested here
    raising = GuardedBot(lambda gamestate: 1 / 0).run(STATE, budget)
    assert raising.move is None and "ZeroDivisionError" in raising.problem
    garbage = GuardedBot(lambda gamestate: {"Lay": [1]}).run(STATE, budget)
    assert garbage.move is None and "unusable move" in garbage.problem
    good = GuardedBot(lambda gamestate: {"Give": 12}).run(STATE, budget)
    assert good.move == Give(12) and good.problem == ""


# --- replay files ---------------------------------------------------------------------------------


def test_replay_files_round_trip_and_survive_a_torn_last_line(tmp_path):
    recorder = MatchRecorder.open(tmp_path, {"game_id": 5, "bot_id": "me/you", "opponent_id": "house bot"})
    recorder.gamestate("GM-OfferGame", "SUCCESS", {"IsMover": True})
    recorder.gamestate("GM-PollForGameState", "SUCCESS", {"IsMover": True})  # same state: not repeated
    recorder.move(move={"Give": 1}, source="bot", reason="", result="SUCCESS", applied=True)
    recorder.end(game_id=5, status="WON")
    recorder.close()
    assert recorder.path.name.endswith("-game5-me_you-vs-house_bot.jsonl")
    records = read_replay(recorder.path)
    assert [r["type"] for r in records] == ["header", "gamestate", "move", "end"]
    assert records[0]["version"] == 1 and all("t" in r for r in records)
    with recorder.path.open("a") as file:
        file.write('{"type": "move", "mo')  # the writer died mid-line
    assert len(read_replay(recorder.path)) == 4
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"type": "gamestate"}) + "\n")
    with pytest.raises(ReplayError, match="first line must be the header"):
        read_replay(broken)


def test_labels_of_the_opponents_turn_name_their_own_round_and_none_come_after_the_end(tmp_path):
    recorder = MatchRecorder.open(tmp_path, {"game_id": 6, "bot_id": "me", "opponent_id": "you"})
    recorder.gamestate("GM-OfferGame", "SUCCESS", {"IsMover": False, "RemainingRounds": 2})
    recorder.move(move={"Give": 1}, source="bot", reason="", result="SUCCESS", applied=True, labels={"1": "giralda"})
    recorder.gamestate("GM-MakeMove", "SUCCESS", {"IsMover": False, "RemainingRounds": 1})  # the next round
    recorder.labels(2, {7: "bryggen"})  # a background labelling of the first round's gamestate, done late
    recorder.labels(1, {})  # nothing named: no line
    recorder.labels(1, {1: "big ben"})  # the same id, a fresh card of the second round
    recorder.end(game_id=6, status="WON")
    recorder.labels(1, {3: "alamo"})  # after the match: dropped, so the end line stays the last
    recorder.close()
    recorder.note("closed")  # dropped too, not an error
    lines = read_replay(recorder.path)
    assert [line["type"] for line in lines] == ["header", "gamestate", "move", "gamestate", "labels", "labels", "end"]
    assert labels_by_round(lines) == {2: {1: "giralda", 7: "bryggen"}, 1: {1: "big ben"}}


# --- game styles ----------------------------------------------------------------------------------


def styles_answer(*styles: dict) -> Answer:
    return Answer("GM-GetListOfGameStyles", "SUCCESS", {"Result": "SUCCESS", "GameStyles": list(styles)}, 0.0)


def test_choosing_a_style_reads_its_move_time():
    paid = {"GameStyleId": 4, "GameType": 15, "Stake": 10, "GameTypeSpecificInfo": {"MoveTimeMs": 5000}}
    free = {"GameStyleId": 3, "GameType": 15, "Stake": 0, "GameTypeSpecificInfo": {"Rounds": 1, "MoveTimeMs": 500}}
    chosen = choose_style(styles_answer(paid, free), None)
    assert (chosen.style_id, chosen.move_time_s, chosen.rounds) == (3, 0.5, 1)
    assert choose_style(styles_answer(paid, free), 4).move_time_s == 5.0
    arena_like = {"GameStyleId": 9, "GameType": 1, "Stake": 0, "GameTypeSpecificInfo": {"Timeout ms": 2000}}
    assert choose_style(styles_answer(arena_like), 9).move_time_s == 2.0
    with pytest.raises(StyleError, match="game style 7 is not offered"):
        choose_style(styles_answer(free), 7)
    with pytest.raises(StyleError, match="several game types"):
        choose_style(styles_answer(free, arena_like), None)
