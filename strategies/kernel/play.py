"""Entry points called from Python at decision time (compiled once, before the first timed move)."""

from __future__ import annotations

from strategies.kernel.backup import every_move
from strategies.kernel.core import apply_move, canonical_index, legal_mask
from strategies.kernel.jit import jit
from strategies.kernel.margin import Table, table_move_margin
from strategies.kernel.tables import Floats, Ints


@jit
def state_index(k: Ints, mine: int, theirs: int, deck: int, d: int) -> int:
    return canonical_index(k, mine, theirs, deck, d)


@jit
def table_move_values(k: Ints, mine: int, theirs: int, deck: int, d: int, below: Table, out: Floats) -> None:
    """out[move] = the exact margin value of every legal move from the table's layer d-1 (NaN elsewhere);
    banked points are left out."""
    every_move(k, mine, theirs, table_move_margin, (deck, d, below), out)


@jit
def legal_moves(k: Ints, mine: int, theirs: int) -> int:
    return legal_mask(k, mine, theirs)


@jit
def moved(k: Ints, mine: int, theirs: int, move: int) -> tuple[int, int, int]:
    return apply_move(k, mine, theirs, move)
