"""Tournaments: the head-to-head table (CLI, --json, stored for the viewer), the rating list that lasts
across runs (`rummy-vision ratings`), and readable round labels."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bot.cli.main import app
from bot.matches.run_spec import round_labels
from rummy.stats import wilson_interval
from server.storage.runs import list_runs, run_detail


def _tournament(db: Path, *bots: str, rounds: int = 4, seed: str = "1") -> dict[str, Any]:
    answer = CliRunner().invoke(
        app, ["tournament", *bots, "--rounds", str(rounds), "--seed", seed, "--db", str(db), "--json"]
    )
    assert answer.exit_code == 0, answer.output
    return dict(json.loads(answer.stdout.strip().splitlines()[-1]))


def test_head_to_head_in_json_and_ratings_that_last(tmp_path: Path) -> None:
    db = tmp_path / "records.sqlite3"
    first = _tournament(db, "greedy", "random", "heuristic")
    pairs = first["head_to_head"]
    assert [(pair["a"], pair["b"]) for pair in pairs] == [
        ("greedy", "random"),
        ("greedy", "heuristic"),
        ("random", "heuristic"),
    ]
    for pair in pairs:
        assert pair["rounds"] == 4 and pair["wins_a"] + pair["wins_b"] == 4
        low, high = wilson_interval(pair["wins_a"], 4)
        assert pair["win_rate_ci95"] == [round(low, 4), round(high, 4)]
        assert low <= pair["win_rate_a"] <= high
        m_low, m_high = pair["mean_margin_ci95"]
        assert m_low <= pair["mean_margin_a"] <= m_high
    assert {r["name"]: r["rounds"] for r in first["ratings"]} == {"greedy": 8, "random": 8, "heuristic": 8}
    assert all(r["tournaments"] == 1 and r["ci95"][0] <= r["rating"] <= r["ci95"][1] for r in first["ratings"])

    second = _tournament(db, "greedy", "random", seed="2")
    lasting = {r["name"]: r for r in second["ratings"]}
    assert lasting["greedy"]["rounds"] == 12 and lasting["greedy"]["tournaments"] == 2
    assert lasting["heuristic"]["rounds"] == 8 and lasting["heuristic"]["tournaments"] == 1
    db_rounds = sqlite3.connect(db).execute("SELECT COUNT(*) FROM tournament_rounds").fetchone()[0]
    assert db_rounds == 16

    shown = CliRunner().invoke(app, ["ratings", "--db", str(db), "--json"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout)["ratings"] == second["ratings"]
    text = CliRunner().invoke(app, ["ratings", "--db", str(db)])
    assert text.exit_code == 0 and "greedy" in text.stdout and "95% CI" in text.stdout
    empty = CliRunner().invoke(app, ["ratings", "--db", str(tmp_path / "none.sqlite3")])
    assert empty.exit_code == 0 and "No tournament" in empty.stdout


def test_head_to_head_table_and_labels_stored_for_the_viewer(tmp_path: Path) -> None:
    db = tmp_path / "records.sqlite3"
    result = _tournament(db, "greedy", "random")
    connection = sqlite3.connect(db)
    connection.row_factory = sqlite3.Row
    run = run_detail(connection, list_runs(connection)[0]["RunId"])
    assert run is not None
    table = run["HeadToHead"]
    assert table["Columns"][0] == "pair" and len(table["Rows"]) == 1
    row = table["Rows"][0]
    pair = result["head_to_head"][0]
    assert row[0] == "greedy v random" and row[1:4] == ["4", str(pair["wins_a"]), str(pair["wins_b"])]
    labels = [game["Label"] for game in run["Games"]]
    assert labels == [
        "greedy v random, deal 1",
        "random v greedy, deal 1 (seats swapped)",
        "greedy v random, deal 2",
        "random v greedy, deal 2 (seats swapped)",
    ]


def test_cli_prints_the_head_to_head_table(tmp_path: Path) -> None:
    answer = CliRunner().invoke(
        app, ["tournament", "greedy", "random", "--rounds", "2", "--db", str(tmp_path / "r.sqlite3")]
    )
    assert answer.exit_code == 0, answer.output
    assert "Head to head" in answer.stdout and "greedy v random" in answer.stdout
    assert "Ratings over every tournament" in answer.stdout


def test_round_labels() -> None:
    assert round_labels([("7", ("a", "b")), ("x:y", ("b", "a")), ("s:3", ("a", "b"))]) == [
        "a v b, deal 7",
        "b v a, deal x:y",
        "a v b, deal 4",
    ]
