"""The margin table's layer passes, in parallel over a layer's states.

Layer d (d cards in the deck, so d turns left) needs only layer d-1: first the chance value of
every state of layer d seen as the position right after a move (the mover about to draw), then
each state's value, the best over its moves of points plus the chance value where the move leads.
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numpy.typing import NDArray

from strategies.kernel.core import after_margin, chance_margin, legal_mask, state_at
from strategies.kernel.jit import jit_inline, jit_parallel
from strategies.kernel.tables import Floats, Ints


@jit_parallel
def chance_pass(k: Ints, d: int, below: NDArray[np.float32], out: Floats, start: int) -> None:
    """out[i] = chance value of state start+i of layer d."""
    for i in prange(out.shape[0]):
        mine, theirs, deck = state_at(k, d, start + i)
        out[i] = chance_margin(k, mine, theirs, deck, d, below)


@jit_parallel
def value_pass(k: Ints, d: int, here: Floats, out: NDArray[np.float32], start: int) -> None:
    """out[i] = margin value of state start+i of layer d, from the chance values `here` of layer d."""
    for i in prange(out.shape[0]):
        out[i] = state_value(k, d, start + i, here)


@jit_inline
def state_value(k: Ints, d: int, index: int, here: Floats) -> float:
    mine, theirs, deck = state_at(k, d, index)
    mask = legal_mask(k, mine, theirs)
    best = -np.inf
    move = 0
    while mask:
        if mask & 1:
            value = after_margin(k, mine, theirs, deck, d, move, here)
            if value > best:
                best = value
        mask >>= 1
        move += 1
    return best
