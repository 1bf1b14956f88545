"""`--strict` on `play` and `match`: a bot's faulty moves get what the arena gives them.

The default replaces a malformed or illegal move with a safe one (right for a tournament) and says how the
arena would have judged it; `--strict` sends it as it is (INVALID_MOVE), asks the bot again, and with no
valid move by the deadline the bot loses on time; the run exits 1 on any fault.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from server.storage.records import Records

ILLEGAL = 'def calculate_move(gamestate):\n    return {"Take": 12345}\n'
LEGAL = "def calculate_move(gamestate):\n    return {'Give': gamestate['MyHand'][0][0]}\n"


def bot_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return path


def _play(base: str, password: str, bot: Path, tmp_path: Path, *extra: str):
    args = ["play", "--base-url", base, "--bot", str(bot), "--opponent", "housebot-greedy", "--game-style", "1"]
    args += ["--record", str(tmp_path / "replays"), "--password", password, *extra]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml"), "COLUMNS": "400"}
    return CliRunner().invoke(app, args, env=env)


def test_play_strict_sends_the_illegal_move_and_the_bot_loses_on_time(real_server, tmp_path) -> None:
    base, passwords = real_server(move_time_ms=1500)
    result = _play(base, passwords["tester"], bot_file(tmp_path, "illegal", ILLEGAL), tmp_path, "--strict", "--json")
    assert result.exit_code == 1, result.output
    match, summary = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert match["status"] == "LOST_BY_TIMEOUT" and match["fallbacks"] == 0 and match["faults"] >= 1
    assert summary["faults"] == match["faults"]
    lines = [json.loads(line) for line in Path(match["record_path"]).read_text().splitlines()]
    sent = [line for line in lines if line["type"] == "move"]
    assert sent and all(m["move"] == {"Take": 12345} and m["result"] == "INVALID_MOVE" for m in sent)
    assert not any(m["applied"] for m in sent)


def test_play_default_replaces_the_move_and_says_what_the_arena_would_do(real_server, tmp_path) -> None:
    base, passwords = real_server(move_time_ms=1500)
    result = _play(base, passwords["tester"], bot_file(tmp_path, "illegal", ILLEGAL), tmp_path)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "The arena replaces none" in said and "INVALID_MOVE" in said and "--strict" in said


def test_play_strict_with_a_legal_bot_has_no_fault(real_server, tmp_path) -> None:
    base, passwords = real_server(move_time_ms=1500)
    result = _play(base, passwords["tester"], bot_file(tmp_path, "legal", LEGAL), tmp_path, "--strict", "--json")
    assert result.exit_code == 0, result.output
    match = json.loads(result.stdout.splitlines()[0])
    assert match["faults"] == 0 and match["status"] in ("WON", "LOST", "DRAWN")


def test_match_strict_exits_non_zero_and_the_bot_loses_every_round_on_time(tmp_path) -> None:
    bot = bot_file(tmp_path, "illegal", ILLEGAL)
    db = tmp_path / "records.sqlite3"
    args = ["match", str(bot), "greedy", "--rounds", "2", "--time-ms", "200", "--db", str(db), "--json"]
    result = CliRunner().invoke(app, [*args, "--strict"])
    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    illegal, greedy = answer["players"]
    assert illegal["wins"] == 0 and greedy["wins"] == 2 and illegal["lost_on_time"] == 2
    records = Records(db)
    try:
        for game_id in answer["records"]["game_ids"]:
            record = records.match_record(game_id)
            seat = record["Players"].index("illegal")
            assert record["EndReason"] == "timeout" and record["GameStatus"][seat] == "LOST_BY_TIMEOUT"
            refused = [move for move in record["Moves"] if not move["Applied"]]
            assert refused and all(move["Result"] == "INVALID_MOVE" for move in refused)
            assert all(move["Move"] == {"Take": 12345} for move in refused)
    finally:
        records.close()


def test_match_default_plays_safe_moves_and_says_how_the_arena_would_judge(tmp_path) -> None:
    bot = bot_file(tmp_path, "illegal", ILLEGAL)
    args = ["match", str(bot), "greedy", "--rounds", "2", "--no-record"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "a safe move replaced each" in said and "INVALID_MOVE" in said and "2 rounds here" in said
