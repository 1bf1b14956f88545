"""The margin table's layer passes, in parallel over a layer's states.

Layer d (d cards in the deck, so d turns left) needs only layer d-1: first the chance value of
every state of layer d seen as the position right after a move (the mover about to draw), then
each state's value, the best over its moves of points plus the chance value where the move leads.
"""

from __future__ import annotations

from numba import prange

from strategies.kernel.backup import best_move
from strategies.kernel.core import state_at
from strategies.kernel.jit import jit_parallel
from strategies.kernel.margin import Table, after_margin, chance_margin
from strategies.kernel.tables import Floats, Ints


@jit_parallel
def chance_pass(k: Ints, d: int, below: Table, out: Floats, start: int) -> None:
    """out[i] = chance value of state start+i of layer d."""
    for i in prange(out.shape[0]):
        mine, theirs, deck = state_at(k, d, start + i)
        out[i] = chance_margin(k, mine, theirs, deck, d, below)


@jit_parallel
def value_pass(k: Ints, d: int, here: Floats, out: Table, start: int) -> None:
    """out[i] = margin value of state start+i of layer d, from the chance values `here` of layer d."""
    for i in prange(out.shape[0]):
        mine, theirs, deck = state_at(k, d, start + i)
        out[i] = best_move(k, mine, theirs, after_margin, (deck, d, here))
