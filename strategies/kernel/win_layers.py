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

from strategies.kernel.backup import every_move
from strategies.kernel.core import NIBBLE, apply_move, canonical_index, end_margin, legal_mask, state_at
from strategies.kernel.jit import jit, jit_inline, jit_parallel
from strategies.kernel.tables import N_TYPES, Floats, Ints
from strategies.kernel.win_swing import window

BLOCK = 8
SCALE = 65535.0

Swing = NDArray[np.int16]
Values = NDArray[np.uint16]
# One layer's arrays: G, H, the block offsets and the values (strategies.table.win_format.WinLayer).
WinArrays = tuple[Swing, Swing, Ints, Values]
# A position: (mine, theirs, deck, d, banked difference in point units, tie rule).
Position = tuple[int, int, int, int, int, int]


@jit_inline
def slot(layer: WinArrays, tie: int, unit: int, index: int) -> tuple[int, int, int]:
    """(first, count, at): state `index`'s open differences are unit * (first + j), j < count, and
    their values start at values[at]."""
    g, h, offsets, _values = layer
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
def p_win(layer: WinArrays, tie: int, unit: int, index: int, q: int) -> float:
    """P(win) of state `index` of `layer` at difference unit * q."""
    first, count, at = slot(layer, tie, unit, index)
    return p_at(layer[3], first, count, at, q)


@jit_inline
def final_p(margin: int, tie: int) -> float:
    return 1.0 if margin > 0 or (margin == 0 and tie == 1) else 0.0


@jit
def block_offsets(g: Swing, h: Swing, tie: int, unit: int) -> Ints:
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
def move_p(k: Ints, at: Position, unit: int, move: int, count: int, below: WinArrays, out: Floats) -> None:
    """out[j] = P(win) of `move` at banked difference unit * (q + j), j < count, for the position
    `at` = (mine, theirs, deck, d, q, tie)."""
    mine, theirs, deck, d, q_first, tie = at
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    step = points // unit
    if mine2 == 0 or theirs2 == 0:
        rest = end_margin(k, mine2, theirs2, points)
        for j in range(count):
            out[j] = final_p((q_first + j) * unit + rest, tie)
        return
    out[:count] = 0.0
    for t in range(k[N_TYPES]):
        held = (deck >> (4 * t)) & NIBBLE
        if held:
            unit_t = 1 << (4 * t)
            weight = held / d
            if d == 1:
                rest = end_margin(k, mine2 + unit_t, theirs2, points)
                for j in range(count):
                    out[j] += weight * final_p((q_first + j) * unit + rest, tie)
            else:
                child = canonical_index(k, theirs2, mine2 + unit_t, deck - unit_t, d - 1)
                first, c_count, c_at = slot(below, 1 - tie, unit, child)
                for j in range(count):
                    out[j] += weight * (1.0 - p_at(below[3], first, c_count, c_at, -(q_first + j + step)))


@jit_parallel
def value_pass(k: Ints, d: int, tie: int, unit: int, here: WinArrays, below: WinArrays, start: int, stop: int) -> None:
    """here's values = the stored P(win) of every open difference of states start..stop-1 of layer d
    (here's G, H and offsets already set)."""
    values = here[3]
    for i in prange(start, stop):
        first, count, at = slot(here, tie, unit, i)
        if count == 0:
            continue
        mine, theirs, deck = state_at(k, d, i)
        position = (mine, theirs, deck, d, first, tie)
        best = np.zeros(count, dtype=np.float64)
        chance = np.empty(count, dtype=np.float64)
        mask = legal_mask(k, mine, theirs)
        move = 0
        while mask:
            if mask & 1:
                move_p(k, position, unit, move, count, below, chance)
                for j in range(count):
                    best[j] = max(best[j], chance[j])
            mask >>= 1
            move += 1
        for j in range(count):
            values[at + j] = np.uint16(np.floor(best[j] * SCALE + 0.5))


@jit_inline
def _one_move_p(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[Position, int, WinArrays, Floats]) -> float:
    position, unit, below, one = ctx
    move_p(k, position, unit, move, 1, below, one)
    return float(one[0])


@jit
def table_move_p(k: Ints, position: Position, unit: int, below: WinArrays, out: Floats) -> None:
    """out[move] = P(win) of every legal move at the position's banked difference (NaN elsewhere),
    from layer d-1."""
    one = np.empty(1, dtype=np.float64)
    every_move(k, position[0], position[1], _one_move_p, (position, unit, below, one), out)


@jit
def table_state_p(k: Ints, position: Position, unit: int, layer: WinArrays) -> float:
    """P(win) of the position at its banked difference, from its own layer d."""
    mine, theirs, deck, d, q, tie = position
    return p_win(layer, tie, unit, canonical_index(k, mine, theirs, deck, d), q)
