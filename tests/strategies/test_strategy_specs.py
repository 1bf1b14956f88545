"""A strategy's options from the command line: NAME:OPT=VAL wherever a strategy is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from strategies.registry import get_strategy, parse_spec

WEIGHTS = Path(__file__).parents[2] / "strategies" / "learning" / "weights" / "default.npz"
runner = CliRunner()


def test_the_spec_form_parses_numbers_words_and_paths():
    expected = ("expectimax", {"nodes": 2000, "objective": "margin"})
    assert parse_spec("expectimax:nodes=2000,objective=margin") == expected
    assert parse_spec("learned:weights=training/weights.npz") == ("learned", {"weights": "training/weights.npz"})
    assert parse_spec("greedy") == ("greedy", {})
    with pytest.raises(ValueError, match="is not OPT=VAL"):
        parse_spec("expectimax:nodes")


def test_a_bad_option_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"does not take the option\(s\) depth; it takes: .*nodes"):
        get_strategy("expectimax:depth=3")


def test_match_plays_a_trained_model_named_with_its_weights(tmp_path):
    spec = f"learned:weights={WEIGHTS}"
    result = runner.invoke(app, ["match", spec, "expectimax:nodes=500", "--rounds", "2", "--no-record", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert [player["name"] for player in summary["players"]] == [spec, "expectimax:nodes=500"]
    assert summary["rounds"] == 2


def test_match_refuses_a_bad_option_naming_the_valid_ones():
    result = runner.invoke(app, ["match", "learned:weight=x.npz", "greedy", "--no-record"], env={"COLUMNS": "300"})
    assert result.exit_code != 0
    assert "does not take the option(s) weight; it takes: weights" in " ".join(result.output.split())


def test_help_shows_the_option_form():
    for command in (["match", "--help"], ["play", "--help"], ["tournament", "--help"], ["analyze", "--help"]):
        result = runner.invoke(app, command, env={"COLUMNS": "300"})
        assert "NAME:OPT=VAL" in result.output, command
