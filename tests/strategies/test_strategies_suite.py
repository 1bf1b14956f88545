"""The curated suite, checked against a second solver written from the rules (tests/strategies/rules_solver.py).

The positions' "Expected" moves were picked by `solve()`, so comparing `solve()` with them would only
show that it is deterministic. Here every card-level move of each position is valued by the
independent solver: the expected move must be best by a clear gap, `solve()` must give every move the
same value, and expectimax under a time budget must find the move too.
"""

import json

import pytest
from rules_solver import card_move_values, move_key
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
def test_the_expected_move_is_best_by_an_independent_solver_and_solve_agrees(index: int) -> None:
    raw = POSITIONS[index]
    objective = raw["Objective"]
    truth = card_move_values(raw, objective)
    expected = truth[move_key(raw["Expected"])]
    best = max(truth.values())
    assert expected == pytest.approx(best, abs=1e-9)
    # A clear gap to every move with another effect: the answer does not hang on ties or rounding.
    gap = 0.1 if objective == "win" else 2.0
    assert all(value == pytest.approx(best, abs=1e-9) or best - value >= gap for value in truth.values())

    position = parse_position(raw)
    solved = solve(position.state.copy(), objective)
    for move_id, value in solved.move_values.items():
        card_move = position.card_move(move_id).to_json()
        assert value == pytest.approx(truth[move_key(card_move)], abs=1e-9), (move_id, card_move)
    assert {round(value, 9) for value in truth.values()} == {round(value, 9) for value in solved.move_values.values()}

    searcher = get_strategy("expectimax", objective=objective, nodes=5_000_000)  # the same on any machine
    chosen = position.card_move(searcher.choose(position.state.copy())).to_json()
    assert truth[move_key(chosen)] == pytest.approx(best, abs=1e-9)


def test_the_rules_solver_on_a_position_worked_by_hand() -> None:
    # Last turn, I moved second (19 turns taken), 0-0. Hands AAA vs BB, one C in the deck.
    # Lay AAA empties my hand: the round ends at once, 20 - 0 against 0 - 2x3: margin +26.
    # Give A: AA + the drawn C vs BBA, 3 cards each: margin 0, a tie, which I win as second mover.
    # Take B: AAAB + C vs B: -15 against -3, margin -12.
    raw = {
        "GameState": {
            "MyHand": [[1, "u"], [2, "u"], [3, "u"]],
            "OppHand": [[4, "u"], [5, "u"]],
            "MyPoints": 0,
            "OppPoints": 0,
            "RemainingMoves": 1,
            "CardsInDeck": 1,
            "IsMover": True,
        },
        "CardLabels": {"1": "A", "2": "A", "3": "A", "4": "B", "5": "B"},
        "DeckCounts": {"C": 1},
    }
    margins = card_move_values(raw, "margin")
    assert margins == {
        move_key({"Lay": [1, 2, 3]}): 26.0,
        **{move_key({"Give": card}): 0.0 for card in (1, 2, 3)},
        **{move_key({"Take": card}): -12.0 for card in (4, 5)},
    }
    wins = card_move_values(raw, "win")
    assert wins[move_key({"Lay": [1, 2, 3]})] == wins[move_key({"Give": 1})] == 1.0
    assert wins[move_key({"Take": 4})] == -1.0
