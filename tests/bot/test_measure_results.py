"""`rummy-vision measure NAME` prints its figures and stores them, with their provenance, as one JSON file."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.measure.record import file_name, read_result
from rummy.deals import make_deal, play_round
from strategies.registry import get_strategy

CHECKOUT = Path(__file__).resolve().parents[2]
PROVENANCE = ("command", "source", "seeds", "settings", "machine", "load", "started", "wall_seconds", "cpu_seconds")


def test_measure_strength_writes_a_result_that_agrees_with_the_rounds_it_played(tmp_path: Path) -> None:
    args = ["measure", "strength", "--player", "heuristic", "--opponents", "random,greedy"]
    args += ["--rounds", "4", "--workers", "1", "--seed", "3", "--out", str(tmp_path)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    path = tmp_path / "strength-heuristic.json"
    assert f"result written to {path}" in " ".join(done.output.split())
    result = read_result(path)
    for key in PROVENANCE:
        assert key in result, key
    # The command with every option spelled out, defaults included, so that it repeats the run.
    command = result["command"]
    assert command[:3] == ["rummy-vision", "measure", "strength"]
    assert command[command.index("--rounds") + 1] == "4" and command[command.index("--seed") + 1] == "3"
    assert "--save" in command and "--time-ms" not in command  # unset options are left out
    assert result["seeds"]["deals"] == "3..4"
    assert set(result["machine"]) >= {"platform", "cpu", "cores", "python", "numpy", "numba"}
    assert result["cpu_seconds"] >= 0 and result["wall_seconds"] >= 0
    assert isinstance(result["source"]["commit"], str) and len(result["source"]["commit"]) == 40
    pairs = {pair["opponent"]: pair for pair in result["figures"]["pairs"]}
    assert set(pairs) == {"random", "greedy"}
    # The stored figures are the games themselves: replay deals 3 and 4 against greedy here.
    wins = 0
    for seed in (3, 4):
        deal = make_deal(seed)
        for seat in (0, 1):
            me, them = get_strategy("heuristic"), get_strategy("greedy")
            final = play_round(deal, (me, them) if seat == 0 else (them, me))
            wins += final.winner() == seat
    assert pairs["greedy"]["rounds"] == 4 and pairs["greedy"]["wins"] == wins


def test_measure_correction_names_its_run_and_no_save_writes_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    named = runner.invoke(
        app, ["measure", "correction", "--rounds", "2", "--model", "ranked", "--name", "tiny", "--out", str(tmp_path)]
    )
    assert named.exit_code == 0, named.output
    data = json.loads((tmp_path / "tiny.json").read_text(encoding="utf-8"))
    assert data["name"] == "tiny" and data["settings"] == {"rounds": 2, "rate": 0.1}
    assert [row["view"] for row in data["figures"]["rows"]] == ["whole round (40)", "first gamestate (20)"]
    assert all(0.0 <= row["after"] <= 1.0 for row in data["figures"]["rows"])
    elsewhere = tmp_path / "none"
    quiet = runner.invoke(app, ["measure", "correction", "--rounds", "1", "--no-save", "--out", str(elsewhere)])
    assert quiet.exit_code == 0, quiet.output
    assert not elsewhere.exists()


def test_a_bad_player_is_refused_before_any_work(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["measure", "duel", "nosuch", "greedy", "--out", str(tmp_path)])
    assert done.exit_code == 2
    assert "unknown strategy 'nosuch'" in " ".join(done.output.split())
    options = CliRunner().invoke(app, ["measure", "duel", "greedy:nodes=5", "random", "--out", str(tmp_path)])
    assert options.exit_code == 2 and "does not take" in " ".join(options.output.split())
    assert not any(tmp_path.iterdir())


def test_run_names_become_safe_file_names() -> None:
    assert file_name("duel-expectimax:nodes=500-vs-greedy") == "duel-expectimax-nodes-500-vs-greedy.json"
    assert file_name("../../etc/passwd") == "etc-passwd.json"
    with pytest.raises(ValueError, match="letter or digit"):
        file_name("///")


def test_a_file_without_the_provenance_is_not_taken_for_a_result(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"name": "x", "figures": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="missing command"):
        read_result(path)


def test_regret_stages_weigh_each_turns_left_by_its_positions() -> None:
    from bot.measure.regret import RegretRow, stage_rows

    rows = [
        RegretRow("greedy", 1, 10, 2.0, 0.5),
        RegretRow("greedy", 2, 30, 6.0, 0.1),
        RegretRow("greedy", 3, 5, 1.0, 1.0),
    ]
    (first, second) = stage_rows(rows, [(1, 2), (3, 6)])
    assert first == {
        "strategy": "greedy",
        "turns_left": "1-2",
        "positions": 40,
        "mean_regret": 5.0,
        "optimal_share": 0.2,
    }
    assert second["positions"] == 5 and second["mean_regret"] == 1.0


def test_measure_writes_under_the_current_directory_and_never_into_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed command knows no checkout: its result goes to ./measurements or --out, with the package's
    version, and the commit only of a git checkout it runs in (none here)."""
    stored = CHECKOUT / "measurements"
    before = {path.name: path.stat().st_mtime_ns for path in stored.iterdir()}
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    args = ["measure", "correction", "--rounds", "1", "--model", "ranked"]
    default = CliRunner().invoke(app, args)
    assert default.exit_code == 0, default.output
    assert [path.name for path in work.iterdir()] == ["measurements"]
    assert [path.name for path in (work / "measurements").iterdir()] == ["correction.json"]
    elsewhere = tmp_path / "elsewhere"
    told = CliRunner().invoke(app, [*args, "--name", "told", "--out", str(elsewhere)])
    assert told.exit_code == 0, told.output
    assert [path.name for path in elsewhere.iterdir()] == ["told.json"]
    source = read_result(elsewhere / "told.json")["source"]
    assert source == {"commit": None, "dirty": None, "version": metadata.version("rummy-vision")}
    assert {path.name: path.stat().st_mtime_ns for path in stored.iterdir()} == before
