"""Exact win values above a win table's top layer: the on-demand win solver's enumeration
(strategies.kernel.sorted_solve, keys with the points difference and the tie rule) down to the layer just
above the table, whose after-states then read the table's exact P(win) for every draw."""

from __future__ import annotations

import numpy as np

from strategies.kernel.backup import average_draw
from strategies.kernel.core import canonical_index
from strategies.kernel.jit import jit, jit_inline
from strategies.kernel.sorted_solve import decode
from strategies.kernel.tables import Floats, Ints
from strategies.kernel.win_layers import WinArrays, p_win


@jit_inline
def _drawn_from_win_table(
    k: Ints, drawn: int, theirs: int, rest: int, ctx: tuple[int, int, int, int, WinArrays]
) -> float:
    d, q, tie, unit, layer = ctx
    p = p_win(layer, 1 - tie, unit, k, (theirs, drawn, rest), canonical_index(k, theirs, drawn, rest, d - 1), q)
    return np.nan if p < 0.0 else 1.0 - 2.0 * p


@jit
def after_values_from_win_table(k: Ints, afters: Ints, d: int, off: int, unit: int, layer: WinArrays) -> Floats:
    """Each after-state's value (2 P(win) - 1 for its mover) over its draw, from the win table's layer d-1.

    The after-states' differences are multiples of `unit` and their tie rule that of layer d; NaN for
    an after-state that needs a difference the table does not keep."""
    out = np.empty(afters.shape[0], dtype=np.float64)
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        out[i] = average_draw(k, mine, theirs, deck, d, _drawn_from_win_table, (d, -diff // unit, tie, unit, layer))
    return out
