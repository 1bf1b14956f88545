"""Every value shown to a person or in JSON says whether it is exact or an estimate, and how to get exact ones."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from bot.cli import app
from bot.client.play_human import TerminalGame
from strategies.coaching.coach import CoachConfig, advise
from strategies.coaching.game_review import GameReview, GradedDecision, seat_review
from strategies.coaching.review import Review, ReviewEntry
from strategies.position import parse_position
from strategies.search import Objective

POSITIONS = Path(__file__).parents[2] / "fixtures" / "strategies" / "positions.jsonl"


def _first_position() -> dict:
    return json.loads(POSITIONS.read_text().splitlines()[0])


def _entry(exact: bool, lost: float) -> ReviewEntry:
    return ReviewEntry(1, 0, 1, "Give jal mahal", -3.0, "Take big ben", lost - 3.0, lost, exact)


def test_a_review_of_estimates_says_so_and_names_solve():
    estimated = Review((_entry(True, 2.0), _entry(False, 31.7)), "margin", "expectimax").to_json()
    assert estimated["Exact"] is False and estimated["Values"] == "estimate"
    assert "rummy-vision solve" in estimated["ExactHint"]
    exact = Review((_entry(True, 2.0),), "margin", "expectimax").to_json()
    assert exact["Values"] == "exact" and exact["ExactHint"] is None


def test_the_coachs_estimates_say_so(tmp_path, monkeypatch):
    for variable in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    advice = advise(parse_position(_first_position()), CoachConfig("heuristic")).to_json()
    assert advice["Exact"] is False and advice["Values"] == "estimate" and "rummy-vision solve" in advice["ExactHint"]


class _ReviewOnly:
    def __init__(self, review: dict) -> None:
        self._review = review

    def review(self, _token: str) -> dict:
        return self._review


def _graded(exact: bool, loss: float, seat: int = 0) -> GradedDecision:
    move, best = {"Give": 1}, {"Take": 2}
    return GradedDecision(
        1, 0, 1, seat, "me", 9, move, "Give jal mahal", -3.0, best, "Take big ben", loss - 3.0, loss, exact, "search", 4
    )


def test_play_human_calls_a_total_of_estimates_an_estimate():
    reviewed = GameReview(1, "match 1", ("me", "bot"), Objective.MARGIN, "expectimax", (_graded(False, 118.5),), ())
    review = seat_review(reviewed.to_json(), 0)
    review["Worst"] = [{**entry, "Viewer": "/viewer#game/1/step/1"} for entry in review["Worst"]]
    console = Console(record=True, width=300)
    game = TerminalGame(_ReviewOnly(review), console, input, viewer_base="http://127.0.0.1:8080")  # type: ignore[arg-type]
    state = {"Result": "LOST", "RoundsWon": [0, 1], "GameId": 1, "Viewer": "/viewer#game/1"}
    game._show_end("token", state)
    shown = " ".join(console.export_text().split())
    assert "118.5 in all) (estimates)" in shown and "rummy-vision solve" in shown


def test_analyze_marks_estimates_names_landmarks_and_its_source(tmp_path):
    position = tmp_path / "position.json"
    position.write_text(json.dumps(_first_position()))
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c"), "COLUMNS": "300"}
    result = CliRunner().invoke(app, ["analyze", str(position), "--nodes", "500", "--json"], env=env)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["values"] == "estimate" and "rummy-vision solve" in answer["exact_hint"]
    assert answer["source"]["strategy"] == "expectimax" and answer["source"]["table"] is None
    types = _first_position()["GameState"]["AllCardTypes"]
    assert any(name in answer["moves"][0]["label"] for name in types)
    shown = CliRunner().invoke(app, ["analyze", str(position), "--nodes", "500"], env=env)
    assert "Values are estimates" in shown.output and "no perfect-play table" in shown.output
