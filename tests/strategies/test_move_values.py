"""MoveValues (the arrays a belief decision values card moves with) against the plain per-assignment reading of
the rules: a Take or Give is the count move of its card's type there, a Lay the set its types make or a wasted
turn; a move a state did not value is that state's worst; and sums are added in order, as Python's `sum` adds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import CountRules, Give, Lay, Take
from strategies.move_values import MoveValues, in_order

RULES = CountRules()
CARDS = list(range(12))


def _reference(move, types):
    if isinstance(move, Take):
        return RULES.take_ids[types[move.id]]
    if isinstance(move, Give):
        return RULES.give_ids[types[move.id]]
    code = sum(RULES.unit[types[card]] for card in move.ids)
    return RULES.lay_by_code.get(code, RULES.waste_id)


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9))
def test_count_moves_and_values_are_the_rules_read_per_assignment(seed, states):
    rng = random.Random(seed)
    types = [{card: rng.randrange(RULES.n_types) for card in CARDS} for _ in range(states)]
    # Each state values a random part of the moves; the rest count as its worst.
    values = [{m: rng.uniform(-1, 1) for m in range(len(RULES.moves)) if rng.random() < 0.7} or {0: 0.5} for _ in types]
    found = MoveValues(RULES, types, values)
    moves = [Take(card) for card in CARDS] + [Give(card) for card in CARDS]
    moves += [Lay(tuple(rng.sample(CARDS, rng.randint(3, 5)))) for _ in range(30)]
    for move in moves:
        ids = found.count_moves(move)
        assert ids.tolist() == [_reference(move, assignment) for assignment in types]
        expected = [state.get(m, min(state.values())) for state, m in zip(values, ids.tolist())]
        assert found.of(ids).tolist() == expected
        refused = [isinstance(move, Lay) and m == RULES.waste_id for m in ids.tolist()]
        assert found.accepted(move, ids).tolist() == [not r for r in refused]


@settings(max_examples=60)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(-1e6, 1e6)), max_size=40))
def test_sums_are_added_in_order_to_the_last_bit(pairs):
    weights, values = (np.array([pair[i] for pair in pairs], dtype=float) for i in (0, 1))
    assert in_order(weights, values) == sum(w * x for w, x in pairs)


def test_a_set_of_one_landmark_and_of_all_different_and_no_set():
    types = [{0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 3}]
    found = MoveValues(RULES, types, [{m: float(m) for m in range(len(RULES.moves))}])
    same, different, none = (Lay(cards) for cards in ((0, 1, 2), (2, 3, 4, 5), (0, 1, 3)))
    assert RULES.moves[int(found.count_moves(same)[0])].counts == (3, 0, 0, 0)
    assert RULES.moves[int(found.count_moves(different)[0])].counts == (1, 1, 1, 1)
    assert int(found.count_moves(none)[0]) == RULES.waste_id
    assert found.accepted(none, found.count_moves(none)).tolist() == [False]
    assert found.of(found.count_moves(none))[0] == pytest.approx(RULES.waste_id)
