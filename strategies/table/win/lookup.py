"""Exact win probabilities from the win table, and above its top layer from an on-demand solve over it.

    table = load_win_table()                      # memory-mapped, checked; TableError says why not
    win_probability(state, table)                 # P(win) of the mover under perfect play by both
    win_move_values(state, table)                 # {move id: 2 P(win) - 1} from the table's layer below
    exact_win_values(state, table)                # the same at any depth (solved on demand above the table)

Values are on the search's scale (2 P(win) - 1, from the mover's view); exact to the table's
stored precision (`stored_error`). A position whose tie rule or points the table cannot hold (the
mover's tie rule disagrees with the turns taken, or banked points off the rules' point grid: never
in a real round) is solved on demand without the table. A bounded table keeps only the banked
differences a deal can reach: a lookup that needs another raises NotReachable (never a made-up 0 or
1), and `exact_win_values` then solves the position on demand without the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rummy import CountState, game_info
from strategies.kernel.solve_position import check_state, solve_exact
from strategies.kernel.sorted_solve import solve_sorted
from strategies.kernel.tables import kernel_tables
from strategies.kernel.win_layers import table_move_p, table_state_p
from strategies.kernel.win_ondemand import after_values_from_win_table
from strategies.table.disk.files import TableError
from strategies.table.win.fileformat import NotReachable, WinLayer, WinTable
from strategies.table.win.window import tie_of

if TYPE_CHECKING:
    from strategies.kernel.win_layers import Position


def stored_error(layer: int) -> float:
    """The worst error of a stored P(win) of layer `layer` (half a 16-bit step per layer built on it)."""
    return layer / (2 * 65535)


def _position(state: CountState) -> tuple[int, int, int, int, int, int]:
    check_state(state)
    mover = state.mover
    banked = state.points[mover] - state.points[1 - mover]
    tie = int(mover == state.second)
    return state.hands[mover], state.hands[1 - mover], state.deck, state.turns_left, banked, tie


def table_holds(state: CountState, table: WinTable) -> bool:
    """Whether the table's values apply to this position's tie rule and banked points."""
    _mine, _theirs, _deck, d, banked, tie = _position(state)
    return table.config == state.rules.config and tie == tie_of(table.config, d) and banked % table.unit == 0


def _check(state: CountState, table: WinTable, layer: int) -> None:
    if not table_holds(state, table):
        raise TableError("the win table does not hold this position's rules, tie rule or points grid")
    if layer > table.top:
        raise TableError(
            f"{table.path} holds layers up to {table.top}; this position needs layer {layer}; "
            "extend it with `rummy-vision solve` (the whole win table: 2.73 GB, about 22 CPU minutes)"
        )


def _layer_below(state: CountState, table: WinTable) -> tuple[Position, WinLayer]:
    """The position in the table's terms and the layer below it, after checking the table holds it."""
    mine, theirs, deck, d, banked, tie = _position(state)
    _check(state, table, d - 1)
    return (mine, theirs, deck, d, banked // table.unit, tie), table.layers[max(0, d - 1)]


def win_probability(state: CountState, table: WinTable) -> float:
    mine, theirs, deck, d, banked, tie = _position(state)
    _check(state, table, d)
    blob = kernel_tables(state.rules.config).blob
    p = float(table_state_p(blob, (mine, theirs, deck, d, banked // table.unit, tie), table.unit, table.layers[d]))
    if p < 0.0:
        raise _not_reachable(table, banked)
    return p


def _not_reachable(table: WinTable, banked: int) -> NotReachable:
    return NotReachable(
        f"{table.path}: a banked difference of {banked} is not reachable from a deal at this position, so the win "
        "table does not keep it; solve it on demand"
    )


def win_move_values(state: CountState, table: WinTable) -> dict[int, float]:
    """Every legal move's 2 P(win) - 1 from the table's layer below the position."""
    position, below = _layer_below(state, table)
    out = np.empty(game_info(state.rules.config).num_distinct_moves, dtype=np.float64)
    table_move_p(kernel_tables(state.rules.config).blob, position, table.unit, below, out)
    if np.any(out == -np.inf):
        raise _not_reachable(table, position[4] * table.unit)
    return {move: 2.0 * float(out[move]) - 1.0 for move in range(out.shape[0]) if not np.isnan(out[move])}


def exact_win_values(
    state: CountState,
    table: WinTable | None,
    *,
    deadline: float | None = None,
    max_states: int | None = None,
) -> dict[int, float] | None:
    """Every legal move's exact 2 P(win) - 1: from the table when it reaches the layer below, else solved on
    demand down to the table's top layer (or to the end of the round without a usable table); None when
    `deadline` (time.monotonic()) passes or more than `max_states` states would be enumerated."""
    if table is not None and table_holds(state, table):
        try:
            if table.covers(state.turns_left):
                return win_move_values(state, table)
            return _solve_above(state, table, deadline, max_states)
        except NotReachable:
            pass  # a hand-made position: the table does not keep its difference

    solved = solve_exact(state, "win", deadline=deadline, max_states=max_states)
    return None if solved is None else solved.values


def _solve_above(
    state: CountState, table: WinTable, deadline: float | None, max_states: int | None
) -> dict[int, float] | None:
    mine, theirs, deck, d, banked, tie = _position(state)
    blob = kernel_tables(state.rules.config).blob
    off = game_info(state.rules.config).decided_beyond
    lowest = table.top + 1  # the deepest layer enumerated; its after-states read the table's layer `top`

    def edge(afters: np.ndarray, turns: int) -> np.ndarray:
        values = after_values_from_win_table(blob, afters, turns, off, table.unit, table.layers[turns - 1])
        if np.isnan(values).any():
            raise _not_reachable(table, banked)
        return values

    root = (mine, theirs, deck, d, max(-off, min(off, banked)), tie)
    found = solve_sorted(blob, root, off, lowest=lowest, edge=edge, deadline=deadline, max_states=max_states)
    if found is None:
        return None
    out, _count = found
    return {move: float(out[move]) for move in range(out.shape[0]) if not np.isnan(out[move])}
