"""The exact solver agrees with a brute-force reference on miniature rules, for both objectives."""

import random

import pytest
from strategies_helpers import BruteForce, random_position

from rummy import CountState, RulesConfig
from strategies.registry import get_strategy
from strategies.search.exact import solve

MINIATURES = [
    RulesConfig(types_per_round=2, cards_per_type=5, hand_size=3),
    RulesConfig(types_per_round=3, cards_per_type=4, hand_size=3),
    RulesConfig(types_per_round=3, cards_per_type=5, hand_size=4),
    RulesConfig(types_per_round=3, cards_per_type=6, hand_size=4),
]


@pytest.mark.parametrize("objective", ["win", "margin"])
@pytest.mark.parametrize(
    "rules", MINIATURES, ids=lambda rules: f"{rules.types_per_round}x{rules.cards_per_type}h{rules.hand_size}"
)
def test_exact_solver_matches_brute_force(rules: RulesConfig, objective: str) -> None:
    rng = random.Random(f"{rules}{objective}")
    for index in range(12):
        # Half from the deal itself (the whole round), half from random later positions.
        state = CountState.random_deal(rng, rules) if index % 2 == 0 else random_position(rng, rules)
        if state.turns_left > 7:
            continue
        reference = BruteForce(objective).move_values(state.copy())
        solved = solve(state.copy(), objective)
        assert solved.exact
        assert solved.move_values.keys() == reference.keys()
        for move, value in reference.items():
            assert solved.move_values[move] == pytest.approx(value, abs=1e-9), (state, move)
        assert solved.value == pytest.approx(max(reference.values()), abs=1e-9)


def test_exact_strategy_plays_a_best_move_on_miniature_rules() -> None:
    rules = RulesConfig(types_per_round=3, cards_per_type=4, hand_size=3)
    rng = random.Random(3)
    exact = get_strategy("exact")
    for _ in range(10):
        state = random_position(rng, rules)
        reference = BruteForce("win").move_values(state.copy())
        move = exact.choose(state.copy())
        assert reference[move] == pytest.approx(max(reference.values()), abs=1e-9)


def test_iterative_deepening_solves_short_endgames_exactly() -> None:
    rng = random.Random(4)
    for _ in range(10):
        state = random_position(rng)
        while state.turns_left > 2:
            state = random_position(rng)
        result = get_strategy("expectimax", nodes=5_000_000).analyse(state.copy(), all_values=True)
        assert result.exact
        truth = solve(state.copy())
        assert result.value == pytest.approx(truth.value, abs=1e-9)
