"""Ctrl-C in `match` and `tournament`: the finished rounds are recorded, the standings so far printed
("interrupted after N of M rounds"), and the command exits 130.

In process, Ctrl-C is raised at a chosen round (no timing); one test sends a real SIGINT to a `match`
process once its bot file has played a few rounds' moves.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.matches import executors
from server.storage.records import Records
from server.storage.runs import list_runs

REPO = Path(__file__).resolve().parents[2]


def interrupt_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Ctrl-C while the `call`-th round is being played (1-based): the rounds before it finish."""
    original = executors.RoundTask.run
    calls = {"n": 0}

    def run(self: executors.RoundTask):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == call:
            raise KeyboardInterrupt
        return original(self)

    monkeypatch.setattr(executors.RoundTask, "run", run)


def stored_games(db: Path) -> int:
    records = Records(db)
    try:
        return len(records.list_matches())
    finally:
        records.close()


def test_match_keeps_the_finished_rounds_and_exits_130(monkeypatch, tmp_path) -> None:
    interrupt_at(monkeypatch, 4)
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(app, ["match", "greedy", "random", "--rounds", "10", "--db", str(db)])
    assert result.exit_code == 130, result.output
    said = " ".join(result.output.split())
    assert "interrupted after 3 of 10 rounds" in said and "greedy" in said and "Recorded 3 rounds" in said
    assert stored_games(db) == 3


def test_match_json_says_it_was_interrupted(monkeypatch, tmp_path) -> None:
    interrupt_at(monkeypatch, 3)
    db = tmp_path / "records.sqlite3"
    args = ["match", "greedy", "random", "--rounds", "6", "--db", str(db), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 130, result.output
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["rounds"] == 2 and answer["interrupted"] == {"rounds_played": 2, "rounds_planned": 6}
    assert len(answer["records"]["game_ids"]) == 2 and sum(p["wins"] for p in answer["players"]) == 2


def test_tournament_keeps_the_finished_rounds_and_exits_130(monkeypatch, tmp_path) -> None:
    interrupt_at(monkeypatch, 4)
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(app, ["tournament", "greedy", "random", "--rounds", "6", "--db", str(db)])
    assert result.exit_code == 130, result.output
    said = " ".join(result.output.split())
    assert "interrupted after 3 of 6 rounds" in said and "Stored as tournament" in said
    assert stored_games(db) == 3


def test_tournament_interrupted_before_any_round_records_nothing(monkeypatch, tmp_path) -> None:
    interrupt_at(monkeypatch, 1)
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(app, ["tournament", "greedy", "random", "--rounds", "2", "--db", str(db)])
    assert result.exit_code == 130 and "interrupted after 0 of 2 rounds" in " ".join(result.output.split())


COUNTING_BOT = """
import os

def calculate_move(gamestate):
    with open(os.environ["MOVES_FILE"], "a") as moves:
        moves.write("move\\n")
    return {"Give": gamestate["MyHand"][0][0]}
"""


def test_a_real_sigint_half_way_keeps_the_finished_rounds(tmp_path) -> None:
    bot = tmp_path / "counting.py"
    bot.write_text(COUNTING_BOT, encoding="utf-8")
    moves, db = tmp_path / "moves.txt", tmp_path / "records.sqlite3"
    env = {**os.environ, "MOVES_FILE": str(moves), "PYTHONPATH": str(REPO)}
    args = [sys.executable, "-c", "from bot.cli import app; app()", "match", str(bot), "random"]
    args += ["--rounds", "400", "--db", str(db), "--json"]
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (moves.exists() and len(moves.read_text().splitlines()) >= 40):  # a few rounds' moves
            assert process.poll() is None and time.monotonic() < deadline, (
                process.stderr.read() if process.stderr else ""
            )
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err[-2000:]
    answer = json.loads(out.strip().splitlines()[-1])
    played = answer["interrupted"]["rounds_played"]
    assert answer["interrupted"]["rounds_planned"] == 400 and 1 <= played < 400
    assert stored_games(db) == played == len(answer["records"]["game_ids"])
    assert f"interrupted after {played} of 400 rounds" in " ".join(err.split())
    records = Records(db)
    try:
        [run] = list_runs(records.db)
    finally:
        records.close()
    assert "interrupted after" in str(run), "the finished rounds are grouped under their run, titled so"
