"""On-demand exact margin solving over bitmaps of canonical indices: no sorting, no searching.

Under `margin` a state is its canonical index within its layer (strategies.kernel.core), so the
states reachable from a root are a set of small integers per layer. Each set is a bitmap over the
layer's index range plus a count of the bits before every 64-bit word ("rank"): finding a state's
slot among the reachable ones is one word read and a popcount, and both arrays stay in the
processor's caches (a few MB for the largest layer). Going forward, every move and draw sets a
bit; a state seen for the first time keeps its packed counts, so no index is ever unranked.
Floats then go back from the last turn to the root, as in strategies.kernel.sorted_solve, whose
sort-based sets this replaces for `margin` (that module still solves `win`, whose states also
hold the points difference, and the tests compare the two).

With a table whose layers reach down from some depth (`rummy-vision solve --top N`, or the whole
table), the enumeration stops above the table and reads its exact values there.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from strategies.kernel.backup import after_states, best_move, every_move
from strategies.kernel.core import NIBBLE, apply_move, canonical_index, end_margin, move_count
from strategies.kernel.jit import jit, jit_inline
from strategies.kernel.margin import Table, chance_margin
from strategies.kernel.tables import N_TYPES, Floats, Ints

WORD = 64
PACK = 16  # bits of one packed hand or deck (4 bits a type, at most 4 types)
LOW = (1 << PACK) - 1


@jit_inline
def pack_state(mine: int, theirs: int, deck: int) -> int:
    return mine | (theirs << PACK) | (deck << (2 * PACK))


@jit_inline
def unpack_state(packed: int) -> tuple[int, int, int]:
    return packed & LOW, (packed >> PACK) & LOW, (packed >> (2 * PACK)) & LOW


@jit_inline
def popcount(word: int) -> int:
    # Bit tricks on int64 (numba has no popcount): pairs, nibbles, bytes, then the bytes' sum.
    word = word - ((word >> 1) & 0x5555555555555555)
    word = (word & 0x3333333333333333) + ((word >> 2) & 0x3333333333333333)
    word = (word + (word >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (word * 0x0101010101010101) >> 56 & 0x7F


@jit_inline
def slot_of(bits: Ints, ranks: Ints, index: int) -> int:
    """Position of `index` among the set's members in increasing order (the index must be a member)."""
    word = index >> 6
    below = bits[word] & ((1 << (index & 63)) - 1)
    return int(ranks[word] + popcount(below))


@jit_inline
def _remember(bits: Ints, index: int, packed: int, found: Ints, seen: Ints, n: int) -> tuple[Ints, Ints, int]:
    word = index >> 6
    bit = 1 << (index & 63)
    if bits[word] & bit:
        return found, seen, n
    bits[word] |= bit
    if n == found.shape[0]:
        grown_found = np.empty(2 * n, dtype=np.int64)
        grown_found[:n] = found
        grown_seen = np.empty(2 * n, dtype=np.int64)
        grown_seen[:n] = seen
        found, seen = grown_found, grown_seen
    found[n] = packed
    seen[n] = index
    return found, seen, n + 1


@jit
def mark_afters(k: Ints, states: Ints, d: int, bits: Ints) -> tuple[Ints, Ints]:
    """Every after-state (both hands non-empty) of a move from `states` (packed, layer d): their bits
    are set in `bits`; returns the new ones as (packed, canonical index), in the order found."""
    found = np.empty(max(16, states.shape[0]), dtype=np.int64)
    seen = np.empty(found.shape[0], dtype=np.int64)
    n = 0
    after = np.empty((3, move_count(k)), dtype=np.int64)
    for i in range(states.shape[0]):
        mine, theirs, deck = unpack_state(states[i])
        for j in range(after_states(k, mine, theirs, after)):
            index = canonical_index(k, after[0, j], after[1, j], deck, d)
            packed = pack_state(after[0, j], after[1, j], deck)
            found, seen, n = _remember(bits, index, packed, found, seen, n)
    return found[:n], seen[:n]


@jit
def mark_draws(k: Ints, afters: Ints, d: int, bits: Ints) -> tuple[Ints, Ints]:
    """The next turn's states (layer d-1, seen by the next mover) after every draw from `afters`."""
    n_types = k[N_TYPES]
    found = np.empty(max(16, afters.shape[0]), dtype=np.int64)
    seen = np.empty(found.shape[0], dtype=np.int64)
    n = 0
    for i in range(afters.shape[0]):
        mine, theirs, deck = unpack_state(afters[i])
        for t in range(n_types):
            if (deck >> (4 * t)) & NIBBLE:
                unit = 1 << (4 * t)
                index = canonical_index(k, theirs, mine + unit, deck - unit, d - 1)
                found, seen, n = _remember(bits, index, pack_state(theirs, mine + unit, deck - unit), found, seen, n)
    return found[:n], seen[:n]


@jit
def in_rank_order(bits: Ints, found: Ints, seen: Ints) -> tuple[Ints, Ints]:
    """The ranks of `bits` and the packed states re-ordered by canonical index (so slot_of finds them).

    Ranks are filled only between the first and the last member's words, the only ones slot_of reads:
    a small set in a large layer then costs nothing for the rest of the layer."""
    ranks = np.empty(bits.shape[0], dtype=np.int64)
    if found.shape[0] == 0:
        return ranks, found
    first = seen.min() >> 6
    last = seen.max() >> 6
    total = 0
    for word in range(first, last + 1):
        ranks[word] = total
        total += popcount(bits[word])
    ordered = np.empty(found.shape[0], dtype=np.int64)
    for i in range(found.shape[0]):
        ordered[slot_of(bits, ranks, seen[i])] = found[i]
    return ranks, ordered


@jit
def after_values_from_states(
    k: Ints, afters: Ints, d: int, below_bits: Ints, below_ranks: Ints, below_values: Floats
) -> Floats:
    """Each after-state's expected margin over its draw, from the reachable states of layer d-1.

    The draws are walked here rather than through backup.draws or average_draw: in this pass, the
    solve's hottest after the enumeration, either doubles the time."""
    values = np.empty(afters.shape[0], dtype=np.float64)
    for i in range(afters.shape[0]):
        mine, theirs, deck = unpack_state(afters[i])
        total = 0.0
        for t in range(k[N_TYPES]):
            held = (deck >> (4 * t)) & NIBBLE
            drawn = mine + (1 << (4 * t))
            if held and d == 1:
                total += held * float(end_margin(k, drawn, theirs, 0))
            elif held:
                child = canonical_index(k, theirs, drawn, deck - (1 << (4 * t)), d - 1)
                total += held * -below_values[slot_of(below_bits, below_ranks, child)]
        values[i] = total / d
    return values


@jit
def after_values_from_table(k: Ints, afters: Ints, d: int, below: Table) -> Floats:
    """Each after-state's expected margin over its draw, from the table's layer d-1."""
    values = np.empty(afters.shape[0], dtype=np.float64)
    for i in range(afters.shape[0]):
        mine, theirs, deck = unpack_state(afters[i])
        values[i] = chance_margin(k, mine, theirs, deck, d, below)
    return values


@jit_inline
def _move_value(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[int, int, Ints, Ints, Floats]) -> float:
    deck, d, bits, ranks, after_vals = ctx
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    if mine2 == 0 or theirs2 == 0:
        return float(end_margin(k, mine2, theirs2, points))
    return points + float(after_vals[slot_of(bits, ranks, canonical_index(k, mine2, theirs2, deck, d))])


@jit
def state_values(k: Ints, states: Ints, d: int, bits: Ints, ranks: Ints, after_vals: Floats) -> Floats:
    """Each state's value: its best move's points plus the value of where the move leads."""
    values = np.empty(states.shape[0], dtype=np.float64)
    for i in range(states.shape[0]):
        mine, theirs, deck = unpack_state(states[i])
        values[i] = best_move(k, mine, theirs, _move_value, (deck, d, bits, ranks, after_vals))
    return values


@jit
def root_move_values(
    k: Ints, mine: int, theirs: int, deck: int, d: int, bits: Ints, ranks: Ints, after_vals: Floats, out: Floats
) -> None:
    """out[move] = the value of every legal move of the root (NaN elsewhere); banked points left out."""
    every_move(k, mine, theirs, _move_value, (deck, d, bits, ranks, after_vals), out)


class Layer(NamedTuple):
    """The reachable states (decisions) and after-states of one layer, packed, in canonical-index order."""

    states: Ints
    state_bits: Ints
    state_ranks: Ints
    afters: Ints
    after_bits: Ints
    after_ranks: Ints


def _words(states: int) -> int:
    return (states + WORD - 1) // WORD


def solve_margin(
    k: Ints,
    sizes: list[int],
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    *,
    table: tuple[Table, ...] = (),
    deadline: float | None = None,
    max_states: int | None = None,
) -> tuple[Floats, int] | None:
    """Every legal move's exact margin value (by move id, NaN for illegal moves; banked points left
    out) and the number of states and after-states enumerated; None when `deadline`
    (time.monotonic()) passes or more than `max_states` would be needed.

    `sizes[e]` is layer e's size; `table[e]` (e = 1..len(table)-1) holds layer e's exact values.
    """
    top = len(table) - 1
    lowest = min(d, max(1, top + 1))  # the deepest layer enumerated; below it the table answers
    states = np.array([pack_state(mine, theirs, deck)], dtype=np.int64)
    state_bits = state_ranks = np.zeros(1, dtype=np.int64)  # the root's own set is never looked up
    layers: list[Layer] = []
    count = 1
    for e in range(d, lowest - 1, -1):
        after_bits = np.zeros(_words(sizes[e]), dtype=np.int64)
        after_ranks, afters = in_rank_order(after_bits, *mark_afters(k, states, e, after_bits))
        layers.append(Layer(states, state_bits, state_ranks, afters, after_bits, after_ranks))
        count += afters.shape[0]
        if e > lowest:
            state_bits = np.zeros(_words(sizes[e - 1]), dtype=np.int64)
            state_ranks, states = in_rank_order(state_bits, *mark_draws(k, afters, e, state_bits))
            count += states.shape[0]
        if _stop(deadline, max_states, count):
            return None
    below = layers[-1]
    below_values = np.zeros(0, dtype=np.float64)
    for e in range(lowest, d + 1):
        layer = layers[d - e]
        if e == 1 or e > lowest:
            after_vals = after_values_from_states(k, layer.afters, e, below.state_bits, below.state_ranks, below_values)
        else:
            after_vals = after_values_from_table(k, layer.afters, e, table[e - 1])
        if e < d:
            below, below_values = (
                layer,
                state_values(k, layer.states, e, layer.after_bits, layer.after_ranks, after_vals),
            )
        if _stop(deadline, None, count):
            return None
    out = np.empty(move_count(k), dtype=np.float64)
    root = layers[0]
    root_move_values(k, mine, theirs, deck, d, root.after_bits, root.after_ranks, after_vals, out)
    return out, count


def _stop(deadline: float | None, max_states: int | None, count: int) -> bool:
    if max_states is not None and count > max_states:
        return True
    return deadline is not None and time.monotonic() > deadline
