"""The bitmap margin solver (strategies.kernel.bitmap_solve): its set arithmetic, agreement with the
sorted-key solver (a second implementation that shares only the move rules and the canonical index),
a miniature table's lower layers standing in for enumeration, and the state cap."""

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kernel_helpers import MINIATURES, rules_id
from strategies_helpers import BruteForce, random_position

from bot.measure.sampling import position_set
from rummy import CountState, RulesConfig
from strategies.kernel.bitmap_solve import in_rank_order, popcount, slot_of
from strategies.kernel.jit import jit
from strategies.kernel.solve_position import solve_exact
from strategies.table import load_table
from strategies.table.margin.build import build_table


@jit
def _popcount(word: int) -> int:
    return popcount(word)


@jit
def _slot(bits: np.ndarray, ranks: np.ndarray, index: int) -> int:
    return slot_of(bits, ranks, index)


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_popcount_counts_the_set_bits_of_any_word(word: int) -> None:
    assert _popcount(word) == bin(word & ((1 << 64) - 1)).count("1")


@given(st.sets(st.integers(min_value=0, max_value=1000), min_size=1, max_size=200))
def test_slots_are_positions_in_increasing_order(members: set[int]) -> None:
    bits = np.zeros(16, dtype=np.int64)
    for index in members:
        bits[index >> 6] |= np.int64(1) << np.int64(index & 63) if index & 63 != 63 else np.int64(-(1 << 63))
    found = np.array([index * 10 for index in members], dtype=np.int64)  # stand-ins for packed states
    ranks, ordered = in_rank_order(bits, found, np.array(list(members), dtype=np.int64))
    for position, index in enumerate(sorted(members)):
        assert _slot(bits, ranks, index) == position
        assert ordered[position] == index * 10


@pytest.mark.parametrize("turns", [1, 2, 4, 6, 7])
def test_bitmap_solver_agrees_with_the_sorted_solver(turns: int) -> None:
    # Both enumerate the same reachable states; they share the move rules and the canonical index but
    # not the sets, the look-ups or the value passes. Banked points must shift every value alike.
    for state in position_set(3, 300 + turns, turns_left=turns):
        state.points[state.mover] += 20
        fast = solve_exact(state.copy(), "margin")
        slow = solve_exact(state.copy(), "margin", method="sorted")
        assert fast is not None and slow is not None
        assert fast.states == slow.states
        assert fast.values.keys() == slow.values.keys()
        for move, value in slow.values.items():
            assert fast.values[move] == pytest.approx(value, abs=1e-9), (state, move)


@pytest.fixture(scope="module")
def partial_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[RulesConfig, int], Path]:
    folder = tmp_path_factory.mktemp("partial")
    built = {}
    for index, rules in enumerate(MINIATURES):
        for top in (1, 3):
            path = folder / f"mini{index}-top{top}.rvt"
            build_table(path, rules, top=top, workers=1)
            built[rules, top] = path
    return built


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_table_layers_below_the_enumeration_give_the_brute_force_values(
    rules: RulesConfig, partial_tables: dict
) -> None:
    rng = random.Random(f"partial{rules_id(rules)}")
    for top in (1, 3):
        table = load_table(partial_tables[rules, top], rules)
        for index in range(6):
            state = CountState.random_deal(rng, rules) if index % 2 == 0 else random_position(rng, rules)
            reference = BruteForce("margin").move_values(state.copy())
            alone = solve_exact(state.copy(), "margin")
            helped = solve_exact(state.copy(), "margin", table_layers=table.layers)
            assert alone is not None and helped is not None
            if state.turns_left > top + 1:  # some layers come from the table instead of enumeration
                assert helped.states < alone.states
            for move, value in reference.items():
                assert helped.values[move] == pytest.approx(value, abs=1e-4), (state, top, move)  # float32 table


def test_the_state_cap_gives_up_the_same_way_every_time() -> None:
    state = position_set(1, 8, turns_left=7)[0]
    full = solve_exact(state.copy(), "margin")
    assert full is not None
    assert solve_exact(state.copy(), "margin", max_states=full.states) is not None
    for _ in range(3):
        assert solve_exact(state.copy(), "margin", max_states=full.states - 1) is None


def test_the_win_solver_takes_the_same_state_cap() -> None:
    state = position_set(1, 9, turns_left=4)[0]
    full = solve_exact(state.copy(), "win")
    assert full is not None
    assert solve_exact(state.copy(), "win", max_states=full.states) is not None
    assert solve_exact(state.copy(), "win", max_states=full.states - 1) is None
