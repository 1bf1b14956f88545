"""`PLAYER@RECOGNIZER`: each player of a match or tournament labels through its own recognizer."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from bot.players.labelling import split_player

EXAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "recognizers" / "swap_some.py"


def test_a_player_names_its_recognizer_after_an_at_sign(tmp_path):
    assert split_player("perfect@harsh:0.1") == ("perfect", "harsh:0.1")
    assert split_player("expectimax:nodes=3000@noisy:0.2:oracle") == ("expectimax:nodes=3000", "noisy:0.2:oracle")
    assert split_player("greedy") == ("greedy", None)
    odd = tmp_path / "me@home.py"
    odd.write_text("def calculate_move(gamestate):\n    return {}\n")
    assert split_player(str(odd)) == (str(odd), None), "a bot file whose path holds @ is still that file"
    folder = tmp_path / "team@work"
    folder.mkdir()
    mine = folder / "mine.py"
    mine.write_text("def make_recognizer(inner, **options):\n    return inner\n")
    # A recognizer file's path may hold an @ too: the player ends at the first @ after a whole player.
    assert split_player(f"perfect@{mine}") == ("perfect", str(mine))
    assert split_player(f"perfect:doubt=0@noisy:0.1:{mine}") == ("perfect:doubt=0", f"noisy:0.1:{mine}")
    assert split_player(f"{odd}@harsh:0.1") == (str(odd), "harsh:0.1")


def test_match_gives_each_player_its_recognizer_and_says_which(tmp_path):
    args = ["match", "greedy@harsh:0.2", "greedy", "--rounds", "2", "--duplicate", "--no-record", "--json"]
    result = CliRunner().invoke(app, args, env={"HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    players = {player["name"]: player["source"] for player in answer["players"]}
    assert players["greedy@harsh:0.2"]["recognizer"] == "harsh:0.2"
    assert players["greedy"]["recognizer"] == "oracle"
    assert "wrong 20%" in players["greedy@harsh:0.2"]["error_model"]
    assert "true labels" in players["greedy"]["error_model"]


def test_a_recognizer_file_serves_one_player_and_a_bad_one_is_refused_in_a_line(tmp_path):
    good = CliRunner().invoke(
        app,
        ["match", f"greedy@{EXAMPLE}", "greedy", "--rounds", "2", "--duplicate", "--no-record"],
        env={"HOME": str(tmp_path), "COLUMNS": "200"},
    )
    assert good.exit_code == 0, good.output
    assert "recognizer " + str(EXAMPLE) in good.output and "a third of the labels swapped" in good.output
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\n")
    refused = CliRunner().invoke(
        app,
        ["match", f"greedy@{bad}", "greedy", "--rounds", "2", "--no-record"],
        # Wide enough that Rich's error box never wraps the line, however long pytest's tmp path is.
        env={"HOME": str(tmp_path), "COLUMNS": "400"},
    )
    assert refused.exit_code != 0
    assert "defines no make_recognizer" in refused.output
