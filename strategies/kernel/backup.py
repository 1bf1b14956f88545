"""The steps of expectimax every solver and table pass takes, written once: the best over the mover's
legal moves, the average over the mover's draw, and the positions a move or a draw leads to.

best_move, every_move and average_draw take the value of one child as a compiled function
(`value_of`) with its own arguments in one tuple (`ctx`): the callers differ only in how they find a
child's value (a table layer, a bitmap slot, a sorted key, a win window). numba compiles a copy of
the loop for each `value_of`. Where a loop is the hot part of an on-demand solve, a ctx holding
arrays cost up to twice the time (measured), so those loops walk after_states and draws instead,
which fill a small scratch array the caller reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from strategies.kernel.core import NIBBLE, apply_move, legal_mask
from strategies.kernel.jit import jit_inline
from strategies.kernel.tables import N_TYPES, Floats, Ints

# value_of(k, mine, theirs, move, ctx): the value of the mover's `move` (mine and theirs before it).
MoveValue = Callable[[Ints, int, int, int, Any], float]
# value_of(k, drawn, theirs, rest, ctx): the value for the mover holding `drawn` after its draw, the
# deck now `rest` (a child of the layer below, seen by the other player next).
DrawValue = Callable[[Ints, int, int, int, Any], float]


@jit_inline
def best_move(k: Ints, mine: int, theirs: int, value_of: MoveValue, ctx: Any) -> float:
    """The largest value_of over the mover's legal moves (the mover has at least one)."""
    best = -np.inf
    mask = legal_mask(k, mine, theirs)
    move = 0
    while mask:
        value = value_of(k, mine, theirs, move, ctx) if mask & 1 else -np.inf
        best = value if value > best else best
        mask >>= 1
        move += 1
    return best


@jit_inline
def every_move(k: Ints, mine: int, theirs: int, value_of: MoveValue, ctx: Any, out: Floats) -> None:
    """out[move] = value_of for every legal move, NaN for the others."""
    out[:] = np.nan
    mask = legal_mask(k, mine, theirs)
    move = 0
    while mask:
        if mask & 1:
            out[move] = value_of(k, mine, theirs, move, ctx)
        mask >>= 1
        move += 1


@jit_inline
def after_states(k: Ints, mine: int, theirs: int, out: Ints) -> int:
    """The hands and points after each legal move that leaves both hands holding cards (the moves
    followed by a draw): out[0, j], out[1, j], out[2, j] = mine, theirs, points for j < the count
    returned. `out` has a column per move id.

    The enumerations fill this scratch array instead of taking a callback: they keep growing arrays,
    which a callback's context would carry through every call at a cost of a third of their time."""
    legal = legal_mask(k, mine, theirs)
    count = 0
    for move in range(out.shape[1]):
        if (legal >> move) & 1:
            mine2, theirs2, points = apply_move(k, mine, theirs, move)
            if mine2 != 0 and theirs2 != 0:
                out[0, count] = mine2
                out[1, count] = theirs2
                out[2, count] = points
                count += 1
    return count


@jit_inline
def draws(k: Ints, deck: int, out: Ints) -> int:
    """The mover's possible draws from `deck`: out[0, j] = how many cards of the type the deck holds
    (the draw's weight), out[1, j] = the type's unit in a packed hand, for j < the count returned."""
    count = 0
    for t in range(k[N_TYPES]):
        held = (deck >> (4 * t)) & NIBBLE
        if held:
            out[0, count] = held
            out[1, count] = 1 << (4 * t)
            count += 1
    return count


@jit_inline
def average_draw(k: Ints, mine: int, theirs: int, deck: int, d: int, value_of: DrawValue, ctx: Any) -> float:
    """The mover's expected value over its draw from the d cards of `deck` (each card equally likely)."""
    total = 0.0
    for t in range(k[N_TYPES]):
        held = (deck >> (4 * t)) & NIBBLE
        if held:
            unit = 1 << (4 * t)
            total += held * value_of(k, mine + unit, theirs, deck - unit, ctx)
    return total / d
