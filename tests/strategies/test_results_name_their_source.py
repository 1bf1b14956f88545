"""Results name what produced them: strategy, objective, budget, table file, weights, recognizer."""

from __future__ import annotations

import json

import pytest
from kernel_helpers import MINIATURES
from typer.testing import CliRunner

from bot.cli import app
from strategies.provenance import source_text, strategy_source
from strategies.search_strategies import SearchStrategy
from strategies.table import load_table
from strategies.table.margin.build import build_table


def test_a_search_with_a_table_names_the_file_its_layers_and_budget(tmp_path):
    path = tmp_path / "mini.rvt"
    build_table(path, MINIATURES[1], workers=1)
    strategy = SearchStrategy(leaves="table", table=load_table(path, MINIATURES[1]), nodes=500, objective="margin")
    source = strategy_source(strategy)
    assert source["table"]["file"] == str(path) and source["objective"] == "margin"
    assert source["budget"] == "500 nodes a move"
    assert f"table {path}" in source_text(source)


def test_perfect_under_margin_does_not_claim_its_moves_depend_on_the_clock(tmp_path):
    from strategies.table.perfect import PerfectStrategy

    path = tmp_path / "mini.rvt"
    build_table(path, MINIATURES[1], workers=1)
    margin = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], time_ms=1000))
    assert "exact" in margin["budget"] and "ms" not in margin["budget"]
    win = strategy_source(PerfectStrategy(objective="win", table=path, rules=MINIATURES[1], time_ms=1000))
    assert win["budget"].startswith("1000 ms a move")


def test_match_names_each_players_source_and_a_missing_table(tmp_path, monkeypatch):
    for variable in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    arguments = ["match", "expectimax:nodes=800", "greedy", "--rounds", "2", "--no-record"]
    result = CliRunner().invoke(app, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    players = json.loads(result.stdout.strip().splitlines()[-1])["players"]
    assert players[0]["source"] == {
        "strategy": "expectimax",
        "objective": "win",
        "budget": "800 nodes a move",
        "table": None,
        "recognizer": "oracle",
        "error_model": "true labels: every label is right",
    }
    assert players[1]["source"] == {
        "strategy": "greedy",
        "recognizer": "oracle",
        "error_model": "true labels: every label is right",
    }
    shown = CliRunner().invoke(app, arguments, env={"COLUMNS": "300"})
    assert "expectimax:nodes=800: expectimax, win objective, 800 nodes a move, no perfect-play table" in shown.output


def test_tournament_names_each_players_source(tmp_path, monkeypatch):
    for variable in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    arguments = ["tournament", "random", "heuristic:nodes=300", "--rounds", "2", "--db", str(tmp_path / "r.sqlite3")]
    result = CliRunner().invoke(app, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    standings = {entry["name"]: entry for entry in json.loads(result.stdout.strip().splitlines()[-1])["standings"]}
    assert standings["heuristic:nodes=300"]["source"]["budget"] == "300 nodes a move"
    assert standings["random"]["source"] == {"strategy": "random", "recognizer": "oracle"}


def test_perfect_says_it_reads_the_opponent_and_with_what_power(tmp_path):
    from strategies.table.perfect import PerfectStrategy

    path = tmp_path / "mini.rvt"
    build_table(path, MINIATURES[1], workers=1)
    default = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1]))
    assert default["read_opponent"] is True and "temper" not in default
    assert "weighs it by the opponent's moves" in source_text(default)
    tempered = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], temper=0.6))
    assert "(tempered, power 0.6)" in source_text(tempered)
    sharper = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], beta=80))
    assert "rational player's (beta 80)" in source_text(sharper)
    wider = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], read_draws=512))
    assert "read on 512 draws of a sampled belief" in source_text(wider) and "read_draws" not in default
    off = strategy_source(PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], read_opponent=False))
    assert "read_opponent" not in off and "opponent's moves" not in source_text(off)
    with pytest.raises(ValueError, match="temper must be above 0 and at most 1"):
        PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], temper=2)
    with pytest.raises(ValueError, match="beta must be above 0"):
        PerfectStrategy(objective="margin", table=path, rules=MINIATURES[1], beta=-1)
