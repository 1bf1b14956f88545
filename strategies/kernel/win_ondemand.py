"""Exact win values above a win table's top layer: the on-demand win solver's enumeration
(strategies.kernel.sorted_solve, keys with the points difference and the tie rule) down to the layer just
above the table, whose after-states then read the table's exact P(win) for every draw."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from strategies.kernel.core import canonical_index
from strategies.kernel.jit import jit
from strategies.kernel.sorted_solve import decode
from strategies.kernel.tables import N_TYPES
from strategies.kernel.win_layers import Offsets, Swing, Values, p_at, slot


@jit
def after_values_from_win_table(
    k: NDArray[np.int64],
    afters: NDArray[np.int64],
    d: int,
    off: int,
    unit: int,
    g: Swing,
    h: Swing,
    offsets: Offsets,
    values: Values,
) -> NDArray[np.float64]:
    """Each after-state's value (2 P(win) - 1 for its mover) over its draw, from the win table's layer d-1.

    The after-states' differences are multiples of `unit` and their tie rule that of layer d."""
    out = np.empty(afters.shape[0], dtype=np.float64)
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        total = 0.0
        for t in range(k[N_TYPES]):
            held = (deck >> (4 * t)) & 15
            if held:
                unit_t = 1 << (4 * t)
                child = canonical_index(k, theirs, mine + unit_t, deck - unit_t, d - 1)
                first, count, at = slot(g, h, offsets, 1 - tie, unit, child)
                total += held * (1.0 - 2.0 * p_at(values, first, count, at, -diff // unit))
        out[i] = total / d
    return out
