"""`rummy-vision analyze`: JSON and table answers, one per position, and clear errors for bad input."""

import json
from pathlib import Path

from strategies_helpers import SUITE
from typer.testing import CliRunner

from bot.cli import app
from rummy import parse_move
from strategies.position import PositionError, parse_position

RUNNER = CliRunner()
FIRST = json.loads(SUITE.read_text().splitlines()[0])


def test_json_answer_ranks_every_move_best_first(tmp_path: Path) -> None:
    file = tmp_path / "position.json"
    file.write_text(json.dumps(FIRST))
    result = RUNNER.invoke(app, ["analyze", str(file), "--json", "--time-ms", "3000"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert set(answer) == {
        *("best", "moves", "objective", "exact", "source", "values", "exact_hint"),
        *("expected", "beliefs", "note"),  # seen through a recognizer: the belief (true labels: none)
    }
    assert answer["expected"] is False and answer["beliefs"] == [] and answer["note"] == ""
    assert answer["best"] == answer["moves"][0]["move"] == FIRST["Expected"]
    values = [entry["value"] for entry in answer["moves"]]
    assert values == sorted(values, reverse=True) and all(0 <= value <= 1 for value in values)
    position = parse_position(FIRST)
    assert len(values) == len(position.state.legal_moves())
    for entry in answer["moves"]:
        parse_move(entry["move"])  # the arena's format


def test_jsonl_gets_one_answer_line_per_position_and_errors_in_place(tmp_path: Path) -> None:
    lines = SUITE.read_text().splitlines()[:3]
    file = tmp_path / "positions.jsonl"
    file.write_text("\n".join([lines[0], "{not json", lines[1], json.dumps({"GameState": {}}), lines[2]]) + "\n")
    result = RUNNER.invoke(app, ["analyze", str(file), "--json", "--time-ms", "300", "--objective", "margin"])
    assert result.exit_code == 1
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 5
    assert "positions.jsonl:2: not valid JSON" in answers[1]["error"]
    assert "lacks CardLabels, DeckCounts" in answers[3]["error"]
    assert all("best" in answers[index] for index in (0, 2, 4))


def test_table_output_names_the_moves(tmp_path: Path) -> None:
    file = tmp_path / "position.json"
    file.write_text(json.dumps(FIRST))
    result = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "heuristic"])
    assert result.exit_code == 0, result.output
    assert "P(win)" in result.stdout and "A=" in result.stdout


def test_bad_options_and_files_are_reported(tmp_path: Path) -> None:
    file = tmp_path / "position.json"
    file.write_text(json.dumps(FIRST))
    assert RUNNER.invoke(app, ["analyze", str(file), "--objective", "points"]).exit_code == 2
    assert RUNNER.invoke(app, ["analyze", str(file), "--strategy", "nobody"]).exit_code == 2
    missing = RUNNER.invoke(app, ["analyze", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2


def test_position_errors_say_what_is_wrong() -> None:
    def error_of(raw: object) -> str:
        try:
            parse_position(raw)
        except PositionError as error:
            return str(error)
        raise AssertionError("no error")

    unlabelled = json.loads(json.dumps(FIRST))
    card = str(unlabelled["GameState"]["MyHand"][0][0])
    del unlabelled["CardLabels"][card]
    assert f"no landmark for card {card}" in error_of(unlabelled)
    wrong_deck = json.loads(json.dumps(FIRST))
    name = next(iter(wrong_deck["DeckCounts"]))
    wrong_deck["DeckCounts"][name] += 1
    assert "CardsInDeck" in error_of(wrong_deck)
    not_mover = json.loads(json.dumps(FIRST))
    not_mover["GameState"]["IsMover"] = False
    assert "IsMover" in error_of(not_mover)
    extra = dict(FIRST, Extra=1)
    assert "unknown key(s) Extra" in error_of(extra)
    assert "JSON object" in error_of([1, 2])
