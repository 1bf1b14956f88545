"""The kernel's on-demand exact solver against brute force (miniature rules) and the Python exact solver
(real rules, short endgames), for both objectives; banked points and the tie rule matter for `win`."""

import random

import pytest
from kernel_helpers import MINIATURES, rules_id
from strategies_helpers import BruteForce, random_position

from bot.measure.sampling import position_set
from rummy import CountState, RulesConfig
from strategies.kernel import KernelUnsupported
from strategies.kernel.solve_position import solve_exact
from strategies.search.exact import solve


@pytest.mark.parametrize("objective", ["margin", "win"])
@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_on_demand_values_match_brute_force(rules: RulesConfig, objective: str) -> None:
    rng = random.Random(f"{rules_id(rules)}{objective}")
    for index in range(6):
        state = CountState.random_deal(rng, rules) if index % 2 == 0 else random_position(rng, rules)
        if index % 3 == 0:  # points banked so far shift win values (and must not shift margins wrongly)
            state.points[0] += rng.choice([0, 5, 20])
            state.points[1] += rng.choice([0, 5])
        reference = BruteForce(objective).move_values(state.copy())
        solved = solve_exact(state.copy(), objective)
        assert solved is not None and solved.values.keys() == reference.keys()
        for move, value in reference.items():
            assert solved.values[move] == pytest.approx(value, abs=1e-9), (state, move)


@pytest.mark.parametrize("objective", ["margin", "win"])
def test_on_demand_values_match_the_python_solver_on_real_endgames(objective: str) -> None:
    for turns in (1, 2, 3):
        for state in position_set(2, 40 + turns, turns_left=turns):
            truth = solve(state.copy(), objective).move_values
            solved = solve_exact(state.copy(), objective)
            assert solved is not None and solved.values.keys() == truth.keys()
            for move, value in truth.items():
                assert solved.values[move] == pytest.approx(value, abs=1e-9)


def test_a_past_deadline_gives_up_and_odd_states_are_refused() -> None:
    state = position_set(1, 5, turns_left=8)[0]
    assert solve_exact(state.copy(), "margin", deadline=0.0) is None
    odd = state.copy()
    odd.turns_left -= 1
    with pytest.raises(KernelUnsupported, match="turns left"):
        solve_exact(odd, "margin")
