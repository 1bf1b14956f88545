"""Exact move values of one position, solved on demand by the kernel (no complete table needed).

`margin` goes through strategies.kernel.bitmap_solve (bitmaps over canonical indices; with a
table's lower layers, only the turns above the table are enumerated). `win` keeps the points
difference and the tie rule in its states and goes through strategies.kernel.sorted_solve (sorted keys);
that path also solves `margin` (`method="sorted"`), a second implementation the tests compare
against.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rummy import DECIDE, CountState, game_info
from strategies.kernel.tables import KernelTables, KernelUnsupported, kernel_tables, layer_sizes

METHODS = ("auto", "sorted")


@dataclass(frozen=True)
class ExactValues:
    """Every legal move's exact value on the search's scale: under `margin` the expected final point
    difference for the mover (banked points included), under `win` 2 P(win) - 1."""

    values: dict[int, float]
    states: int  # states and after-states enumerated
    seconds: float

    @property
    def best(self) -> int:
        return max(self.values, key=lambda move: (self.values[move], -move))


def check_state(state: CountState) -> None:
    if state.phase != DECIDE:
        raise ValueError("exact solving needs a state where a player is to move")
    if state.turns_left != state.rules.size(state.deck):
        raise KernelUnsupported(
            f"the kernel needs turns left ({state.turns_left}) equal to the cards in the deck "
            f"({state.rules.size(state.deck)}), as in every real round"
        )


def solve_exact(
    state: CountState,
    objective: str = "margin",
    *,
    deadline: float | None = None,
    max_states: int | None = None,
    table_layers: tuple[np.ndarray, ...] = (),
    method: str = "auto",
) -> ExactValues | None:
    """Solve `state` to the end of the round; None if `deadline` (time.monotonic()) passes first, or if
    the solve would enumerate more than `max_states` states and after-states (which, unlike a deadline,
    gives up the same way on any machine).

    `table_layers` (margin only): a margin table's layers for these rules (`MarginTable.layers`);
    the solve then stops above them and reads their exact values.
    """
    if objective not in ("margin", "win"):
        raise ValueError(f"objective must be margin or win, got {objective!r}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    check_state(state)
    began = time.monotonic()
    tables: KernelTables = kernel_tables(state.rules.config)
    mover = state.mover
    mine, theirs, deck = state.hands[mover], state.hands[1 - mover], state.deck
    banked = state.points[mover] - state.points[1 - mover]
    if objective == "margin" and method == "auto":
        from strategies.kernel.bitmap_solve import solve_margin  # loads numba: only when this solve runs

        solved = solve_margin(
            tables.blob,
            layer_sizes(tables),
            mine,
            theirs,
            deck,
            state.turns_left,
            table=table_layers,
            deadline=deadline,
            max_states=max_states,
        )
        if solved is None:
            return None
        out, count = solved
        shift = banked
    else:
        win = objective == "win"
        off = game_info(state.rules.config).decided_beyond if win else 0
        diff = max(-off, min(off, banked)) if win else 0
        tie = int(mover == state.second)
        from strategies.kernel.sorted_solve import solve_sorted  # loads numba: only when this solve runs

        root = (mine, theirs, deck, state.turns_left, diff, tie)
        found = solve_sorted(tables.blob, root, off, deadline=deadline, max_states=max_states)
        if found is None:
            return None
        out, count = found
        shift = 0 if win else banked
    values = {move: float(out[move]) + shift for move in range(out.shape[0]) if not np.isnan(out[move])}
    return ExactValues(values, count, time.monotonic() - began)
