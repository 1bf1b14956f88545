"""What a Lay's answer is worth (strategies.lay_answers), on values worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.lay_answers import answer_worth


def test_an_answer_that_tells_the_two_assignments_apart_is_worth_choosing_in_each():
    # Two assignments, equally likely; the first move is worth 1 in the first, the second 1 in the second.
    table = [[1.0, 0.0], [0.0, 1.0], [0.2, 0.2]]
    # Deciding now, the best expectation is 0.5; told which assignment it is, 1 in each: worth 0.5.
    worth = answer_worth(table, [0.5, 0.5], [["refused", 20], None, [20, 20]])
    assert worth == pytest.approx([0.5, 0.0, 0.0])


def test_the_split_counts_only_where_it_would_change_the_move():
    # Three assignments; the answer splits off the third, where the best move is the same as overall: worth 0.
    table = [[3.0, 2.0, 1.0], [0.0, 0.0, 0.5]]
    assert answer_worth(table, [1.0, 1.0, 2.0], [["a", "a", "b"], ["a", "b", "b"]])[0] == pytest.approx(0.0)
    # Split {1, 2} from {3}: move 0 in both parts is 3 + 2 + 2 = 7 against 7 now: 0. Split {1} from {2, 3}: the same.
    # A split where move 1 wins a part: weights (1, 1, 2), move 1 worth 5 in the third assignment.
    table = [[3.0, 2.0, 1.0], [0.0, 0.0, 5.0]]
    now = max(3 + 2 + 2 * 1, 2 * 5)  # 10: move 1
    split = (3 + 2) + 2 * 5  # move 0 on the first two, move 1 on the third
    assert answer_worth(table, [1.0, 1.0, 2.0], [["a", "a", "b"]]) == pytest.approx([(split - now) / 4])


@settings(max_examples=60)
@given(
    st.lists(st.lists(st.floats(-1, 1), min_size=4, max_size=4), min_size=1, max_size=5),
    st.lists(st.floats(0.01, 1), min_size=4, max_size=4),
    st.lists(st.sampled_from("xyz"), min_size=4, max_size=4),
)
def test_an_answer_is_worth_no_less_than_nothing_and_no_more_than_knowing_everything(table, weights, said):
    worth = answer_worth(table, weights, [said])[0]
    everything = answer_worth(table, weights, [list(range(4))])[0]  # each assignment told apart
    assert -1e-12 <= worth <= everything + 1e-9
