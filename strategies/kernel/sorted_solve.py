"""On-demand exact solving in the kernel, without the table, for both objectives.

From the root, the reachable states are enumerated turn by turn: the positions after each legal
move (the mover about to draw; "after-states"), then the draws, giving the next turn's states seen
by the next mover. Each set is a sorted array of unique keys. Floats then go back from the last
turn to the root: an after-state averages its draws, a state takes its best move.

Ints: under `margin` a state is its canonical index (banked points do not matter; values leave
them out). Under `win` the key also holds the points difference so far (mover minus opponent,
clamped beyond the largest swing still possible, where the result is already decided) and whether
the mover wins ties; values are 2 P(win) - 1.

Single-threaded on purpose: a solve is small, and waking worker threads on a busy machine costs
more than it saves.
"""

from __future__ import annotations

import numpy as np

from strategies.kernel.core import apply_move, canonical_index, legal_mask, move_count, size, state_at
from strategies.kernel.jit import jit, jit_inline
from strategies.kernel.tables import N_TYPES, PENALTY, Floats, Ints


@jit_inline
def encode(k: Ints, mine: int, theirs: int, deck: int, d: int, diff: int, tie: int, off: int) -> int:
    index = canonical_index(k, mine, theirs, deck, d)
    if off == 0:
        return index
    diff = min(max(diff, -off), off)
    return ((index * (2 * off + 1) + diff + off) << 1) | tie


@jit_inline
def decode(k: Ints, key: int, d: int, off: int) -> tuple[int, int, int, int, int]:
    if off == 0:
        mine, theirs, deck = state_at(k, d, key)
        return mine, theirs, deck, 0, 0
    tie = key & 1
    rest = key >> 1
    span = 2 * off + 1
    diff = rest % span - off
    mine, theirs, deck = state_at(k, d, rest // span)
    return mine, theirs, deck, diff, tie


@jit_inline
def final_value(final_margin: int, tie: int, off: int) -> float:
    """A finished round's value for the mover: the margin itself, or +-1 under `win`."""
    if off == 0:
        return float(final_margin)
    if final_margin > 0 or (final_margin == 0 and tie == 1):
        return 1.0
    return -1.0


@jit_inline
def _unique(found: Ints) -> Ints:
    kept = found[found >= 0]
    return np.unique(kept)


@jit
def after_keys(k: Ints, keys: Ints, d: int, off: int) -> Ints:
    """Every after-state (both hands still non-empty) that a move of a state in `keys` leads to."""
    width = move_count(k)
    found = np.full(keys.shape[0] * width, -1, dtype=np.int64)
    for i in range(keys.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, keys[i], d, off)
        mask = legal_mask(k, mine, theirs)
        move = 0
        while mask:
            if mask & 1:
                mine2, theirs2, points = apply_move(k, mine, theirs, move)
                if mine2 != 0 and theirs2 != 0:
                    found[i * width + move] = encode(k, mine2, theirs2, deck, d, diff + points, tie, off)
            mask >>= 1
            move += 1
    return _unique(found)


@jit
def draw_keys(k: Ints, afters: Ints, d: int, off: int) -> Ints:
    """The states of the next turn (d-1 cards in the deck, from the next mover's view)."""
    n_types = k[N_TYPES]
    found = np.full(afters.shape[0] * n_types, -1, dtype=np.int64)
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        for t in range(n_types):
            if (deck >> (4 * t)) & 15:
                unit = 1 << (4 * t)
                found[i * n_types + t] = encode(k, theirs, mine + unit, deck - unit, d - 1, -diff, 1 - tie, off)
    return _unique(found)


@jit_inline
def _find(keys: Ints, key: int) -> int:
    return int(np.searchsorted(keys, key))


@jit
def after_values(k: Ints, afters: Ints, d: int, off: int, below_keys: Ints, below_values: Floats) -> Floats:
    values = np.empty(afters.shape[0], dtype=np.float64)
    penalty = k[PENALTY]
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        total = 0.0
        for t in range(k[N_TYPES]):
            held = (deck >> (4 * t)) & 15
            if held:
                unit = 1 << (4 * t)
                drawn = mine + unit
                if d == 1:
                    value = final_value(diff + penalty * (size(theirs) - size(drawn)), tie, off)
                else:
                    child = encode(k, theirs, drawn, deck - unit, d - 1, -diff, 1 - tie, off)
                    value = -below_values[_find(below_keys, child)]
                total += held * value
        values[i] = total / d
    return values


@jit_inline
def move_value(
    k: Ints,
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    diff: int,
    tie: int,
    off: int,
    move: int,
    afters: Ints,
    after_vals: Floats,
) -> float:
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    if mine2 == 0 or theirs2 == 0:
        final = diff + points + k[PENALTY] * (size(theirs2) - size(mine2))
        return final_value(final, tie, off)
    value = float(after_vals[_find(afters, encode(k, mine2, theirs2, deck, d, diff + points, tie, off))])
    return value + points if off == 0 else value


@jit
def state_values(k: Ints, keys: Ints, d: int, off: int, afters: Ints, after_vals: Floats) -> Floats:
    values = np.empty(keys.shape[0], dtype=np.float64)
    for i in range(keys.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, keys[i], d, off)
        mask = legal_mask(k, mine, theirs)
        best = -np.inf
        move = 0
        while mask:
            if mask & 1:
                value = move_value(k, mine, theirs, deck, d, diff, tie, off, move, afters, after_vals)
                if value > best:
                    best = value
            mask >>= 1
            move += 1
        values[i] = best
    return values


@jit_inline
def root_values(
    k: Ints,
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    diff: int,
    tie: int,
    off: int,
    afters: Ints,
    after_vals: Floats,
    out: Floats,
) -> None:
    """out[move] = the move's value for every legal move (NaN elsewhere)."""
    out[:] = np.nan
    mask = legal_mask(k, mine, theirs)
    move = 0
    while mask:
        if mask & 1:
            out[move] = move_value(k, mine, theirs, deck, d, diff, tie, off, move, afters, after_vals)
        mask >>= 1
        move += 1
