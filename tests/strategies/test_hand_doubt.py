"""What a Lay's answer teaches, in doubt units: hand-worked cases and the bound it must keep."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy import Give, Lay, Take
from strategies.hand_doubt import HandDoubt


def _expected(shed: list[float], weights: list[float]) -> float:
    return sum(w * x for w, x in zip(weights, shed)) / sum(weights)


def test_a_refusal_and_an_acceptance_each_clear_the_cards_they_tie():
    # Hand a, b, c, d; a and b surely landmark 0. c is 0 or 1 evenly, and d follows c (2 when c is 1, else 1):
    # the Lay (a, b, c) is a set of one landmark in the first assignment, refused in the second.
    a, b, c, d = 1, 2, 3, 4
    types = [{a: 0, b: 0, c: 0, d: 1}, {a: 0, b: 0, c: 1, d: 2}]
    weights = [0.5, 0.5]
    doubt = HandDoubt(types, weights, [a, b, c, d], 4)
    shed = doubt.shed(Lay((a, b, c)), [True, False])
    # Now c and d are doubted 0.5 each: 1.0 in the hand. Accepted, d alone stays and is known (landmark 1): all
    # 1.0 shed. Refused, every card stays but the refusal says c is 1 and d is 2: all 1.0 shed as well.
    assert shed == pytest.approx([1.0, 1.0])
    # Without learning only an accepted Lay's own doubt (c's 0.5) would leave, and only where it is accepted.
    assert _expected(shed, weights) == pytest.approx(1.0)


def test_take_and_give_move_a_cards_doubt_and_teach_nothing():
    mine, theirs = 1, 9
    types = [{mine: 0, theirs: 0}, {mine: 1, theirs: 0}, {mine: 1, theirs: 2}, {mine: 0, theirs: 3}]
    weights = [0.1, 0.2, 0.3, 0.4]
    doubt = HandDoubt(types, weights, [mine], 4)
    # mine: landmark 1 with 0.5, 0 with 0.5 -> doubt 0.5; theirs: 0 with 0.3 at most, 3 with 0.4 -> doubt 0.6
    assert doubt.shed(Give(mine), [True] * 4) == pytest.approx([0.5] * 4)
    assert doubt.shed(Take(theirs), [True] * 4) == pytest.approx([-0.6] * 4)


def test_a_certain_belief_sheds_nothing():
    types = [{1: 0, 2: 0, 3: 0, 4: 2}]
    assert HandDoubt(types, [1.0], [1, 2, 3, 4], 4).shed(Lay((1, 2, 3)), [True]) == [0.0]


@given(
    st.lists(
        st.tuples(st.lists(st.integers(0, 2), min_size=5, max_size=5), st.floats(0.01, 1.0)),
        min_size=1,
        max_size=12,
    ),
    st.integers(3, 5),
)
def test_on_average_a_lay_never_adds_doubt_to_the_hand(drawn, size):
    # Whatever the answer, the laid cards leave or stay and the kept ones are doubted by the part of the belief that
    # would show that answer; the maximum of a chance is convex, so the expected doubt after is at most the doubt now.
    cards = [10, 11, 12, 13, 14]
    types = [dict(zip(cards, row)) for row, _weight in drawn]
    weights = [weight for _row, weight in drawn]
    laid = tuple(cards[:size])
    kinds = [len({t[card] for card in laid}) for t in types]
    is_set = [k == 1 or (k == size and size <= 4) for k in kinds]
    shed = HandDoubt(types, weights, cards, 3).shed(Lay(laid), is_set)
    assert _expected(shed, weights) >= -1e-9
