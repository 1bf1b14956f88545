"""Exact values from the margin table and from the kernel's on-demand solver, as plain functions.

    table = load_table()                          # memory-mapped, checked; TableError says why not
    margin_value(state, table)                    # expected final margin for the mover, exact
    exact_move_values(state, "margin")            # {move id: value} from the table, else solved on demand
    exact_move_values(state, "win")               # 2 P(win) - 1 of every move, solved on demand

Values are on the search's scale and from the mover's view: margins include the points already
banked; win values are 2 P(win) - 1.
"""

from __future__ import annotations

import numpy as np

from rummy import CountState, game_info
from strategies.kernel.solve_position import check_state, solve_exact
from strategies.kernel.tables import kernel_tables
from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import MarginTable, load_table


def _covered(state: CountState, table: MarginTable, layer: int) -> None:
    table.check_unchanged()
    if table.config != state.rules.config:
        raise TableError(f"{table.path} was built for other rules than this position's")
    if layer > table.top:
        raise TableError(
            f"{table.path} holds layers up to {table.top} (positions with up to {table.top + 1} turns left); "
            f"this one needs layer {layer}; extend it with `rummy-vision solve --margin-only` (the whole margin "
            "table: 1.1 GB, a few CPU minutes)"
        )


def margin_value(state: CountState, table: MarginTable) -> float:
    """The exact expected final margin of `state` for its mover (banked points included)."""
    # kernel.play loads numba (~0.7 s), not wanted when the registry is imported
    from strategies.kernel.play import state_index

    check_state(state)
    d = state.turns_left
    mover = state.mover
    banked = state.points[mover] - state.points[1 - mover]
    _covered(state, table, d)
    index = state_index(
        kernel_tables(state.rules.config).blob, state.hands[mover], state.hands[1 - mover], state.deck, d
    )
    return float(table.layers[d][index]) + banked


def table_move_values(state: CountState, table: MarginTable) -> dict[int, float]:
    """Every legal move's exact margin value from the table (banked points included)."""
    # kernel.play loads numba (~0.7 s), not wanted when the registry is imported
    from strategies.kernel.play import table_move_values as fill

    check_state(state)
    d = state.turns_left
    _covered(state, table, d - 1)
    mover = state.mover
    banked = state.points[mover] - state.points[1 - mover]
    out = np.empty(game_info(state.rules.config).num_distinct_moves, dtype=np.float64)
    below = table.layers[d - 1] if d > 1 else table.layers[0]
    fill(kernel_tables(state.rules.config).blob, state.hands[mover], state.hands[1 - mover], state.deck, d, below, out)
    return {move: float(out[move]) + banked for move in range(out.shape[0]) if not np.isnan(out[move])}


def table_for(state: CountState, table: MarginTable | None) -> MarginTable | None:
    """`table` if it holds this position's rules, else None."""
    return table if table is not None and table.config == state.rules.config else None


def exact_move_values(
    state: CountState,
    objective: str = "margin",
    *,
    table: MarginTable | None = None,
    deadline: float | None = None,
    max_states: int | None = None,
) -> dict[int, float] | None:
    """Every legal move's exact value: from the table (margin, when it covers the state), else solved on
    demand by the kernel, for margin over whatever lower layers the table has; None when `deadline`
    (time.monotonic()) passes first or the solve would enumerate more than `max_states` states."""
    if objective == "margin":
        if table is None:
            try:
                table = load_table(config=state.rules.config)
            except TableError:
                table = None
        table = table_for(state, table)
        if table is not None and table.covers(state.turns_left):
            return table_move_values(state, table)
    layers = table.layers if objective == "margin" and table is not None else ()
    if layers and table is not None:
        table.check_unchanged()
    solved = solve_exact(state, objective, deadline=deadline, max_states=max_states, table_layers=layers)
    return None if solved is None else solved.values
