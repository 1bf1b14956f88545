"""The compiled kernel agrees with rummy.countstate move by move: legal moves, results, canonical index."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_helpers import MINIATURES
from strategies_helpers import random_position

from rummy import DEFAULT_RULES, OVER, CountState
from strategies.kernel import kernel_tables
from strategies.kernel.play import legal_moves, moved, state_index

RULES = [DEFAULT_RULES, *MINIATURES]


def canonical(state: CountState) -> tuple[int, ...]:
    """CountState's own canonical key, without points, tie rule and phase (the margin table's key)."""
    return state.key()[: state.rules.n_types]


def index_of(state: CountState) -> int:
    mover = state.mover
    tables = kernel_tables(state.rules.config)
    return state_index(tables.blob, state.hands[mover], state.hands[1 - mover], state.deck, state.turns_left)


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
def test_moves_and_results_agree_with_countstate(rules, seed: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = random_position(rng, rules)
    blob = kernel_tables(rules).blob
    mover = state.mover
    mask = legal_moves(blob, state.hands[mover], state.hands[1 - mover])
    kernel_moves = {move for move in range(64) if mask >> move & 1}
    assert kernel_moves == set(state.legal_moves())
    for move in state.legal_moves():
        mine, theirs, points = moved(blob, state.hands[mover], state.hands[1 - mover], move)
        before = state.points[mover]
        state.push(move)
        assert (mine, theirs, points) == (state.hands[mover], state.hands[1 - mover], state.points[mover] - before)
        if state.phase != OVER:
            d = state.turns_left
            for draw, _p in state.chance_outcomes():
                unit = 1 << (4 * draw)
                state.push_draw(draw)
                if state.phase != OVER:
                    # The kernel's next state (the opponent to move, one card fewer in the deck) is CountState's.
                    assert state_index(blob, theirs, mine + unit, state.deck, d - 1) == index_of(state)
                state.pop()
        state.pop()


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1), other_seed=st.integers(0, 2**32 - 1))
def test_equal_index_exactly_when_countstate_keys_are_equal(rules, seed: int, other_seed: int) -> None:  # type: ignore[no-untyped-def]
    first = random_position(random.Random(seed), rules)
    # A second state in the same layer: the first with its types renamed, or an unrelated one.
    rng = random.Random(other_seed)
    second = random_position(rng, rules)
    order = list(range(rules.types_per_round))
    rng.shuffle(order)

    def renamed(code: int) -> int:
        return sum(((code >> 4 * t) & 15) << (4 * order[t]) for t in range(rules.types_per_round))

    twin = CountState(
        first.rules,
        (renamed(first.hands[0]), renamed(first.hands[1])),
        renamed(first.deck),
        turns_left=first.turns_left,
        mover=first.mover,
        second=first.second,
    )
    assert index_of(twin) == index_of(first)
    if second.turns_left == first.turns_left:
        assert (index_of(first) == index_of(second)) == (canonical(first) == canonical(second))
