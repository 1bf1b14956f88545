"""The editor's log: what a bot file prints while choosing a move is kept with that move (a bounded amount,
the cut said), in `play`'s replay file and in the records of `match`, and shown per step by `replay`,
`review` and the viewer, as the arena's editor shows each move's log. The prints still reach stderr live.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from typer.testing import CliRunner

from bot.cli import app
from bot.players.user_bot_worker import MAX_MOVE_LOG
from bot.replay.recording import read_replay
from server.embedded import EmbeddedServer
from server.settings import Settings
from server.storage.records import Records

PRINTER = """
N = 0

def calculate_move(gamestate):
    global N
    N += 1
    print(f"thinking about move {N} with {len(gamestate['MyHand'])} cards")
    return {"Give": gamestate["MyHand"][0][0]}
"""

CHATTY = """
def calculate_move(gamestate):
    print("x" * 10000)
    return {"Give": gamestate["MyHand"][0][0]}
"""


def bot_file(tmp_path: Path, text: str, name: str = "printer") -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return path


def play_file(real_server, tmp_path: Path, bot: Path) -> Path:
    base, passwords = real_server(move_time_ms=5000)
    args = ["play", "--base-url", base, "--bot", str(bot), "--opponent", "housebot-greedy", "--game-style", "1"]
    args += ["--record", str(tmp_path / "replays"), "--password", passwords["tester"], "--json"]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml")}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    return Path(json.loads(result.stdout.splitlines()[0])["record_path"])


def test_play_keeps_each_moves_prints_in_the_file_and_replay_shows_them(real_server, tmp_path) -> None:
    path = play_file(real_server, tmp_path, bot_file(tmp_path, PRINTER))
    moves = [line for line in read_replay(path) if line["type"] == "move" and line["source"] == "bot"]
    assert moves
    for number, move in enumerate(moves, start=1):
        assert move["log"].startswith(f"thinking about move {number} with "), move
    shown = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    for number in range(1, len(moves) + 1):
        assert f"thinking about move {number} with" in shown.output
    assert "log for this move" in shown.output


def test_a_moves_log_is_bounded_and_says_what_was_cut(real_server, tmp_path) -> None:
    path = play_file(real_server, tmp_path, bot_file(tmp_path, CHATTY, "chatty"))
    [first, *_] = [line for line in read_replay(path) if line["type"] == "move"]
    assert first["log"].startswith("x" * MAX_MOVE_LOG)
    assert "characters cut" in first["log"] and len(first["log"]) < MAX_MOVE_LOG + 200


def test_the_viewer_shows_each_moves_log_of_a_file_sent_to_it(real_server, tmp_path) -> None:
    path = play_file(real_server, tmp_path, bot_file(tmp_path, PRINTER))
    db = tmp_path / "viewer.sqlite3"
    with EmbeddedServer(Settings(db_path=db), start_timeout_s=120) as viewer:
        admin = {"Authorization": "Bearer " + Path(f"{db}.admin-token").read_text()}
        sent = httpx.post(
            viewer.base + "/viewer/api/files",
            params={"name": path.name},
            content=path.read_bytes(),
            headers=admin,
            timeout=60,
        )
        assert sent.status_code == 201, sent.text
        steps = httpx.get(
            viewer.base + f"/viewer/api/files/{sent.json()['FileId']}/steps", headers=admin, timeout=60
        ).json()
    logs = [step["Log"] for step in steps["Steps"] if step.get("Log")]
    assert logs and all(log.startswith("thinking about move") for log in logs)
    assert [int(log.split()[3]) for log in logs] == list(range(1, len(logs) + 1))


def test_match_records_each_moves_log_for_replay_and_the_viewer(tmp_path) -> None:
    db = tmp_path / "records.sqlite3"
    bot = bot_file(tmp_path, PRINTER)
    result = CliRunner().invoke(app, ["match", str(bot), "greedy", "--rounds", "1", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    [game_id] = json.loads(result.stdout.strip().splitlines()[-1])["records"]["game_ids"]
    records = Records(db)
    try:
        record = records.match_record(game_id)
    finally:
        records.close()
    mine = [move for move in record["Moves"] if move["Bot"] == "printer"]
    assert mine and all(move["Log"].startswith("thinking about move") for move in mine)
    shown = CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "thinking about move 1 with" in shown.output
    with EmbeddedServer(Settings(db_path=db), start_timeout_s=120) as viewer:
        steps = httpx.get(viewer.base + f"/viewer/api/games/{game_id}/steps", timeout=60).json()["Steps"]
    logged = [step for step in steps if step.get("Log")]
    assert len(logged) == len(mine) and all(step["Player"] == "printer" for step in logged)


def test_review_lists_each_moves_log(tmp_path) -> None:
    db = tmp_path / "records.sqlite3"
    bot = bot_file(tmp_path, PRINTER)
    result = CliRunner().invoke(app, ["match", str(bot), "greedy", "--rounds", "1", "--db", str(db), "--json"])
    [game_id] = json.loads(result.stdout.strip().splitlines()[-1])["records"]["game_ids"]
    args = ["review", str(game_id), "--db", str(db), "--nodes", "50", "--objective", "margin", "--json"]
    reviewed = CliRunner().invoke(app, args)
    assert reviewed.exit_code == 0, reviewed.output
    logs = json.loads(reviewed.stdout)["Logs"]
    assert logs and all(entry["Player"] == "printer" and "thinking about move" in entry["Log"] for entry in logs)
