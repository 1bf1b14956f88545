"""The curated suite: the exact solver's best moves, found again by the searcher under a time budget."""

import json

import pytest
from strategies_helpers import SUITE

from strategies.position import parse_position
from strategies.registry import get_strategy
from strategies.search.exact import solve

POSITIONS = [json.loads(line) for line in SUITE.read_text().splitlines() if line.strip()]


def test_the_suite_has_at_least_twenty_commented_positions() -> None:
    assert len(POSITIONS) >= 20
    for raw in POSITIONS:
        assert len(raw["Comment"]) > 40 and "Exact:" in raw["Comment"]
        assert raw["Objective"] in {"win", "margin"}


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_exact_solver_and_expectimax_find_the_known_best_move(index: int) -> None:
    raw = POSITIONS[index]
    position = parse_position(raw)
    expected = position.move_id(raw["Expected"])
    solved = solve(position.state.copy(), raw["Objective"])
    assert solved.best == expected
    # A clear gap to every other move: the answer does not hang on ties or rounding.
    others = [value for move, value in solved.move_values.items() if move != expected]
    assert solved.value - max(others) >= 0.1
    searcher = get_strategy("expectimax", objective=raw["Objective"], time_ms=5000)
    assert searcher.choose(position.state.copy()) == expected
