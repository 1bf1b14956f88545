"""The win table's layer pass: P(win) of every (state, banked difference) whose result is still open.

A layer stores, per state in canonical-index order, the swing bounds G and H (strategies.kernel.
win_swing, which give the state's window of open differences), an offset every BLOCK states, and
the values of the open differences, state after state, each the probability of winning as a 16-bit
fixed-point number (P * 65535, rounded). A state's slot is its block's offset plus the windows of
the states before it in the block.

Layer d needs only layer d-1: a state's value at D is the best over its moves of the move's points
plus the chance over the draw of the next mover's losing, 1 - P(child, -(D + points)); a move that
empties a hand, or the last draw, ends the round on its margin and the tie rule. Every value is
computed in float64 from the stored values below, then rounded once; so an error never grows by
more than half a step per layer (averages and maxima do not widen errors).
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numpy.typing import NDArray

from strategies.kernel.core import apply_move, canonical_index, legal_mask, size, state_at
from strategies.kernel.jit import jit, jit_inline, jit_parallel
from strategies.kernel.tables import N_TYPES, PENALTY
from strategies.kernel.win_swing import window

BLOCK = 8
SCALE = 65535.0

Swing = NDArray[np.int16]
Offsets = NDArray[np.int64]
Values = NDArray[np.uint16]


@jit_inline
def slot(g: Swing, h: Swing, offsets: Offsets, tie: int, unit: int, index: int) -> tuple[int, int, int]:
    """(first, count, at): state `index`'s open differences are unit * (first + j), j < count, and
    their values start at values[at]."""
    at = offsets[index // BLOCK]
    for j in range(index - index % BLOCK, index):
        at += window(int(g[j]), int(h[j]), tie, unit)[1]
    first, count = window(int(g[index]), int(h[index]), tie, unit)
    return first, count, at


@jit_inline
def p_at(values: Values, first: int, count: int, at: int, q: int) -> float:
    """P(win) at difference unit * q for a state whose window is (first, count, at)."""
    if q < first:
        return 0.0
    if q >= first + count:
        return 1.0
    return float(values[at + q - first] / SCALE)


@jit_inline
def final_p(margin: int, tie: int) -> float:
    return 1.0 if margin > 0 or (margin == 0 and tie == 1) else 0.0


@jit
def block_offsets(g: Swing, h: Swing, tie: int, unit: int) -> Offsets:
    """The offset of every BLOCK-th state's values, then the layer's total number of values."""
    n = g.shape[0]
    out = np.empty((n + BLOCK - 1) // BLOCK + 1, dtype=np.int64)
    total = 0
    for i in range(n):
        if i % BLOCK == 0:
            out[i // BLOCK] = total
        total += window(int(g[i]), int(h[i]), tie, unit)[1]
    out[out.shape[0] - 1] = total
    return out


@jit_inline
def move_p(
    k: NDArray[np.int64],
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    tie: int,
    unit: int,
    move: int,
    q_first: int,
    count: int,
    below_g: Swing,
    below_h: Swing,
    below_offsets: Offsets,
    below_values: Values,
    out: NDArray[np.float64],
) -> None:
    """out[j] = P(win) of `move` at banked difference unit * (q_first + j), j < count."""
    penalty = k[PENALTY]
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    step = points // unit
    if mine2 == 0 or theirs2 == 0:
        rest = points + penalty * (size(theirs2) - size(mine2))
        for j in range(count):
            out[j] = final_p((q_first + j) * unit + rest, tie)
        return
    out[:count] = 0.0
    for t in range(k[N_TYPES]):
        held = (deck >> (4 * t)) & 15
        if held:
            unit_t = 1 << (4 * t)
            weight = held / d
            if d == 1:
                rest = points + penalty * (size(theirs2) - size(mine2 + unit_t))
                for j in range(count):
                    out[j] += weight * final_p((q_first + j) * unit + rest, tie)
            else:
                child = canonical_index(k, theirs2, mine2 + unit_t, deck - unit_t, d - 1)
                first, c_count, at = slot(below_g, below_h, below_offsets, 1 - tie, unit, child)
                for j in range(count):
                    out[j] += weight * (1.0 - p_at(below_values, first, c_count, at, -(q_first + j + step)))


@jit_parallel
def value_pass(
    k: NDArray[np.int64],
    d: int,
    tie: int,
    unit: int,
    g: Swing,
    h: Swing,
    offsets: Offsets,
    below_g: Swing,
    below_h: Swing,
    below_offsets: Offsets,
    below_values: Values,
    values: Values,
    start: int,
    stop: int,
) -> None:
    """values[...] = the stored P(win) of every open difference of states start..stop-1 of layer d."""
    for i in prange(start, stop):
        first, count, at = slot(g, h, offsets, tie, unit, i)
        if count == 0:
            continue
        mine, theirs, deck = state_at(k, d, i)
        best = np.zeros(count, dtype=np.float64)
        here = np.empty(count, dtype=np.float64)
        mask = legal_mask(k, mine, theirs)
        move = 0
        while mask:
            if mask & 1:
                move_p(
                    k,
                    mine,
                    theirs,
                    deck,
                    d,
                    tie,
                    unit,
                    move,
                    first,
                    count,
                    below_g,
                    below_h,
                    below_offsets,
                    below_values,
                    here,
                )
                for j in range(count):
                    if here[j] > best[j]:
                        best[j] = here[j]
            mask >>= 1
            move += 1
        for j in range(count):
            values[at + j] = np.uint16(np.floor(best[j] * SCALE + 0.5))


@jit
def table_move_p(
    k: NDArray[np.int64],
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    tie: int,
    unit: int,
    q: int,
    below_g: Swing,
    below_h: Swing,
    below_offsets: Offsets,
    below_values: Values,
    out: NDArray[np.float64],
) -> None:
    """out[move] = P(win) of every legal move at banked difference unit * q (NaN elsewhere), from layer d-1."""
    out[:] = np.nan
    one = np.empty(1, dtype=np.float64)
    mask = legal_mask(k, mine, theirs)
    move = 0
    while mask:
        if mask & 1:
            move_p(k, mine, theirs, deck, d, tie, unit, move, q, 1, below_g, below_h, below_offsets, below_values, one)
            out[move] = one[0]
        mask >>= 1
        move += 1


@jit
def table_state_p(
    k: NDArray[np.int64],
    mine: int,
    theirs: int,
    deck: int,
    d: int,
    tie: int,
    unit: int,
    q: int,
    g: Swing,
    h: Swing,
    offsets: Offsets,
    values: Values,
) -> float:
    """P(win) of the state at banked difference unit * q, from its own layer d."""
    first, count, at = slot(g, h, offsets, tie, unit, canonical_index(k, mine, theirs, deck, d))
    return p_at(values, first, count, at, q)
