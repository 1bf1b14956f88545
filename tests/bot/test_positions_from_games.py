"""Positions out of games: `replay GAME|FILE --turn N --position OUT.json` writes the step as an `analyze`
position; `analyze` ranks it as the viewer's "analyse this position" does; `positions add` puts it in the
suite with its best move and why."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from typer.testing import CliRunner

from bot.cli import app
from server.embedded import EmbeddedServer
from server.settings import Settings

NODES = "3000"


def one_match(tmp_path: Path) -> tuple[Path, int]:
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(app, ["match", "greedy", "random", "--rounds", "1", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    [game_id] = json.loads(result.stdout.strip().splitlines()[-1])["records"]["game_ids"]
    return db, game_id


def test_a_records_step_as_a_position_ranks_as_the_viewer_ranks_it(tmp_path) -> None:
    db, game_id = one_match(tmp_path)
    out = tmp_path / "position.json"
    wrote = CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db), "--turn", "5", "--position", str(out)])
    assert wrote.exit_code == 0, wrote.output
    position = json.loads(out.read_text())
    assert set(position) == {"GameState", "CardLabels", "DeckCounts", "Comment"}
    assert sum(position["DeckCounts"].values()) == position["GameState"]["CardsInDeck"]
    args = ["analyze", str(out), "--json", "--strategy", "expectimax", "--nodes", NODES]
    analysed = CliRunner().invoke(app, args)
    assert analysed.exit_code == 0, analysed.output
    ranking = json.loads(analysed.stdout.strip().splitlines()[-1])["moves"]
    with EmbeddedServer(Settings(db_path=db), start_timeout_s=120) as viewer:
        base = viewer.base + f"/viewer/api/games/{game_id}/steps/5"
        served = httpx.get(base + "/position", timeout=60).json()
        shown = httpx.get(base + "/analysis", params={"strategy": "expectimax", "nodes": NODES}, timeout=120).json()
        over = httpx.get(viewer.base + f"/viewer/api/games/{game_id}/steps/999/position", timeout=60)
    assert served == position, "the viewer's position is the file replay --position wrote"
    assert [m["move"] for m in shown["moves"]] == [m["move"] for m in ranking]
    assert [m["value"] for m in shown["moves"]] == [m["value"] for m in ranking]
    assert over.status_code == 422


def test_a_replay_files_step_as_a_position(real_server, tmp_path) -> None:
    base, passwords = real_server(move_time_ms=5000)
    args = ["play", "--base-url", base, "--strategy", "greedy", "--recognizer", "oracle", "--opponent"]
    args += ["housebot-greedy", "--game-style", "1", "--record", str(tmp_path), "--password", passwords["tester"]]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml")}
    played = CliRunner().invoke(app, [*args, "--json"], env=env)
    assert played.exit_code == 0, played.output
    path = json.loads(played.stdout.splitlines()[0])["record_path"]
    out = tmp_path / "from-file.json"
    wrote = CliRunner().invoke(app, ["replay", path, "--turn", "2", "--position", str(out)])
    assert wrote.exit_code == 0, wrote.output
    position = json.loads(out.read_text())
    assert sum(position["DeckCounts"].values()) == position["GameState"]["CardsInDeck"]
    analysed = CliRunner().invoke(app, ["analyze", str(out), "--json", "--strategy", "greedy"])
    assert analysed.exit_code == 0 and "best" in json.loads(analysed.stdout.strip().splitlines()[-1])


def test_position_needs_a_turn_and_a_move_to_come(tmp_path) -> None:
    db, game_id = one_match(tmp_path)
    out = tmp_path / "p.json"
    no_turn = CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db), "--position", str(out)])
    assert no_turn.exit_code == 2 and not out.exists()
    last = CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db), "--turn", "0", "--position", str(out)])
    assert last.exit_code == 0
    steps = CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db)])
    final = steps.output.count("step ") - 1
    ended = CliRunner().invoke(
        app, ["replay", str(game_id), "--db", str(db), "--turn", str(final), "--position", str(tmp_path / "x.json")]
    )
    assert ended.exit_code == 2 and "no move to analyse" in ended.output


def test_positions_add_appends_the_position_with_its_best_move_and_why(tmp_path) -> None:
    db, game_id = one_match(tmp_path)
    out, suite = tmp_path / "p.json", tmp_path / "suite.jsonl"
    CliRunner().invoke(app, ["replay", str(game_id), "--db", str(db), "--turn", "3", "--position", str(out)])
    position = json.loads(out.read_text())
    card = position["GameState"]["MyHand"][0][0]
    best = json.dumps({"Give": card})
    added = CliRunner().invoke(
        app, ["positions", "add", str(out), "--best", best, "--why", "sheds a card", "--suite", str(suite)]
    )
    assert added.exit_code == 0, added.output
    [entry] = [json.loads(line) for line in suite.read_text().splitlines()]
    assert entry["Expected"] == {"Give": card} and entry["Comment"] == "sheds a card" and entry["Objective"] == "win"
    assert entry["GameState"] == position["GameState"]
    bad = CliRunner().invoke(
        app, ["positions", "add", str(out), "--best", '{"Give": 1234567}', "--why", "x", "--suite", str(suite)]
    )
    assert bad.exit_code == 2 and len(suite.read_text().splitlines()) == 1
