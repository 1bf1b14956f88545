"""Margin values of a position's moves and draws, from a table layer (what the table passes and
`perfect` compute); values leave out the points already banked."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from strategies.kernel.backup import average_draw
from strategies.kernel.core import apply_move, canonical_index, end_margin
from strategies.kernel.jit import jit_inline
from strategies.kernel.tables import Floats, Ints

Table = NDArray[np.float32]


@jit_inline
def _drawn_from_table(k: Ints, drawn: int, theirs: int, rest: int, ctx: tuple[int, Table]) -> float:
    d, below = ctx
    if d == 1:
        return float(end_margin(k, drawn, theirs, 0))
    return -float(below[canonical_index(k, theirs, drawn, rest, d - 1)])


@jit_inline
def chance_margin(k: Ints, mine: int, theirs: int, deck: int, d: int, below: Table) -> float:
    """Expected margin for the mover from its draw (both hands non-empty, d >= 1 cards in the deck);
    `below` holds the values of layer d-1 by canonical index (unused when d == 1)."""
    return average_draw(k, mine, theirs, deck, d, _drawn_from_table, (d, below))


@jit_inline
def after_margin(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[int, int, Floats]) -> float:
    """The margin value of `move` for the mover; ctx = (deck, d, the chance values of layer d)."""
    deck, d, here = ctx
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    if mine2 == 0 or theirs2 == 0:
        return float(end_margin(k, mine2, theirs2, points))
    return points + float(here[canonical_index(k, mine2, theirs2, deck, d)])


@jit_inline
def table_move_margin(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[int, int, Table]) -> float:
    """The margin value of `move` from the table's layer d-1 alone (what `perfect` plays by);
    ctx = (deck, d, layer d-1)."""
    deck, d, below = ctx
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    if mine2 == 0 or theirs2 == 0:
        return float(end_margin(k, mine2, theirs2, points))
    return points + chance_margin(k, mine2, theirs2, deck, d, below)
