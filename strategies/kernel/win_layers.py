"""The win table's layer pass: P(win) of every (state, banked difference) whose result is still open.

A layer stores, per state in canonical-index order, the swing bounds G and H (strategies.kernel.
win_swing, which give the state's window of open differences), how many values the state keeps,
an offset every BLOCK states, and the values, state after state, each the probability of winning as
a 16-bit fixed-point number (P * 65535, rounded). A state's slot is its block's offset plus the
counts of the states before it in the block.

A bounded layer keeps only the differences of the window that the laid-cards bound allows
(strategies.table.win.reach: they depend on the layer and the cards laid so far), in D order; the
bound is rebuilt from the rules at load as `prefix[laid, j]`, how many allowed D lie below column j
(D = unit * (j - offset)), so the rank of a D within its state is a difference of two prefixes. An
unbounded layer (an empty prefix) keeps the whole window. A child of an in-bound pair is in bound
(its laid cards gain the set just laid and its D is the same signed sum seen from the other side),
so the build never needs a value the layer below lacks; a lookup that does gets MISSING.

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
from strategies.kernel.win_swing import laid_code, window

BLOCK = 8
SCALE = 65535.0
MISSING = -1.0  # a P(win) the table does not store: the difference lies outside the laid-cards bound

Swing = NDArray[np.int16]
Values = NDArray[np.uint16]
Counts = NDArray[np.uint8]
Prefix = NDArray[np.int16]
# One layer's arrays: G, H, the counts, the block offsets, the values and the bound's prefix counts
# (strategies.table.win.fileformat.WinLayer).
WinArrays = tuple[Swing, Swing, Counts, Ints, Values, Prefix]
# A position: (mine, theirs, deck, d, banked difference in point units, tie rule).
Position = tuple[int, int, int, int, int, int]


@jit_inline
def _column(prefix: Prefix, q: int) -> int:
    """The prefix column of difference unit * q, clamped to the bound's range."""
    width = prefix.shape[1] - 1
    return int(min(max(q + (width - 1) // 2, 0), width))


@jit_inline
def kept_count(prefix: Prefix, laid: int, first: int, count: int) -> int:
    """How many of the window's differences unit * (first + j), j < count, a layer keeps."""
    if prefix.shape[0] == 0:
        return count
    return int(prefix[laid, _column(prefix, first + count)] - prefix[laid, _column(prefix, first)])


@jit_inline
def kept(prefix: Prefix, laid: int, q: int) -> bool:
    if prefix.shape[0] == 0:
        return True
    width = prefix.shape[1] - 1
    j = q + (width - 1) // 2
    return bool(0 <= j < width and prefix[laid, j + 1] > prefix[laid, j])


@jit_inline
def slot(layer: WinArrays, tie: int, unit: int, index: int) -> tuple[int, int, int]:
    """(first, count, at): state `index`'s open differences are unit * (first + j), j < count, and
    the values it keeps start at values[at]."""
    g, h, counts, offsets, _values, _prefix = layer
    at = offsets[index // BLOCK]
    for j in range(index - index % BLOCK, index):
        at += counts[j]
    first, count = window(int(g[index]), int(h[index]), tie, unit)
    return first, count, at


@jit_inline
def p_at(layer: WinArrays, first: int, count: int, at: int, laid: int, q: int) -> float:
    """P(win) at difference unit * q for a state whose window is (first, count, at) and whose laid
    cards have code `laid`; MISSING when the layer does not keep that difference."""
    if q < first:
        return 0.0
    if q >= first + count:
        return 1.0
    prefix = layer[5]
    if not kept(prefix, laid, q):
        return MISSING
    if prefix.shape[0] == 0:
        return float(layer[4][at + q - first] / SCALE)
    rank = prefix[laid, _column(prefix, q)] - prefix[laid, _column(prefix, first)]
    return float(layer[4][at + rank] / SCALE)


@jit_inline
def p_win(layer: WinArrays, tie: int, unit: int, k: Ints, state: tuple[int, int, int], index: int, q: int) -> float:
    """P(win) of state `index` (= `state`) of `layer` at difference unit * q (MISSING when not kept)."""
    first, count, at = slot(layer, tie, unit, index)
    return p_at(layer, first, count, at, laid_code(k, state[0], state[1], state[2]), q)


@jit_inline
def final_p(margin: int, tie: int) -> float:
    return 1.0 if margin > 0 or (margin == 0 and tie == 1) else 0.0


@jit_parallel
def kept_counts(
    k: Ints, d: int, start: int, g: Swing, h: Swing, tie: int, unit: int, prefix: Prefix, out: Ints
) -> None:
    """out[i] = how many values state start+i keeps."""
    for i in prange(g.shape[0]):
        first, count = window(int(g[i]), int(h[i]), tie, unit)
        if prefix.shape[0] == 0 or count == 0:
            out[i] = count
        else:
            mine, theirs, deck = state_at(k, d, start + i)
            out[i] = kept_count(prefix, laid_code(k, mine, theirs, deck), first, count)


@jit
def block_offsets(counts: Counts) -> Ints:
    """The offset of every BLOCK-th state's values, then the layer's total number of values."""
    n = counts.shape[0]
    out = np.empty((n + BLOCK - 1) // BLOCK + 1, dtype=np.int64)
    total = 0
    for i in range(n):
        if i % BLOCK == 0:
            out[i // BLOCK] = total
        total += counts[i]
    out[out.shape[0] - 1] = total
    return out


@jit_inline
def move_p(k: Ints, at: Position, unit: int, move: int, count: int, below: WinArrays, out: Floats) -> None:
    """out[j] = P(win) of `move` at banked difference unit * (q + j), j < count, for the position
    `at` = (mine, theirs, deck, d, q, tie); -inf where a child's value is MISSING."""
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
                laid = laid_code(k, theirs2, mine2 + unit_t, deck - unit_t)
                for j in range(count):
                    p = p_at(below, first, c_count, c_at, laid, -(q_first + j + step))
                    out[j] = -np.inf if p < 0.0 else out[j] + weight * (1.0 - p)


@jit_parallel
def value_pass(
    k: Ints, d: int, tie: int, unit: int, here: WinArrays, below: WinArrays, start: int, stop: int, missing: Ints
) -> None:
    """here's values = the stored P(win) of every kept difference of states start..stop-1 of layer d
    (here's G, H, counts and offsets already set); missing[0] counts kept differences whose moves
    needed a value the layer below lacks (never, if the bound is closed under moves)."""
    values = here[4]
    prefix = here[5]
    for i in prange(start, stop):
        if here[2][i] == 0:
            continue
        first, count, at = slot(here, tie, unit, i)
        mine, theirs, deck = state_at(k, d, i)
        laid = laid_code(k, mine, theirs, deck)
        low = first  # the kept differences lie in low..high: solve only that run
        while not kept(prefix, laid, low):
            low += 1
        high = first + count - 1
        while not kept(prefix, laid, high):
            high -= 1
        span = high - low + 1
        position = (mine, theirs, deck, d, low, tie)
        best = np.zeros(span, dtype=np.float64)
        chance = np.empty(span, dtype=np.float64)
        mask = legal_mask(k, mine, theirs)
        move = 0
        while mask:
            if mask & 1:
                move_p(k, position, unit, move, span, below, chance)
                for j in range(span):
                    best[j] = -np.inf if chance[j] == -np.inf else max(best[j], chance[j])
            mask >>= 1
            move += 1
        rank = 0
        for j in range(span):
            if kept(prefix, laid, low + j):
                if best[j] == -np.inf:
                    missing[0] += 1
                values[at + rank] = np.uint16(np.floor(max(best[j], 0.0) * SCALE + 0.5))
                rank += 1


@jit_inline
def _one_move_p(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[Position, int, WinArrays, Floats]) -> float:
    position, unit, below, one = ctx
    move_p(k, position, unit, move, 1, below, one)
    return float(one[0])


@jit
def table_move_p(k: Ints, position: Position, unit: int, below: WinArrays, out: Floats) -> None:
    """out[move] = P(win) of every legal move at the position's banked difference (NaN elsewhere),
    from layer d-1; -inf for a move that needs a value the layer does not keep."""
    one = np.empty(1, dtype=np.float64)
    every_move(k, position[0], position[1], _one_move_p, (position, unit, below, one), out)


@jit
def table_state_p(k: Ints, position: Position, unit: int, layer: WinArrays) -> float:
    """P(win) of the position at its banked difference, from its own layer d (MISSING when not kept)."""
    mine, theirs, deck, d, q, tie = position
    return p_win(layer, tie, unit, k, (mine, theirs, deck), canonical_index(k, mine, theirs, deck, d), q)
