"""Exact move values of one position, solved on demand by the kernel (no table needed)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from rummy import DECIDE, CountState, RulesConfig
from strategies.kernel.tables import KernelTables, KernelUnsupported, kernel_tables


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


def decided_beyond(config: RulesConfig) -> int:
    """A points difference larger than any swing still possible: the round's result is then settled."""
    tables = kernel_tables(config)
    best = 0.0
    for code, points in zip(tables.lay_codes, tables.lay_points, strict=True):
        cards = sum((int(code) >> (4 * t)) & 15 for t in range(tables.n_types))
        best = max(best, points / cards)
    return int(config.total_cards * math.ceil(max(best, config.hand_penalty))) + 1


def check_state(state: CountState) -> None:
    if state.phase != DECIDE:
        raise ValueError("exact solving needs a state where a player is to move")
    if state.turns_left != state.rules.size(state.deck):
        raise KernelUnsupported(
            f"the kernel needs turns left ({state.turns_left}) equal to the cards in the deck "
            f"({state.rules.size(state.deck)}), as in every real round"
        )


def solve_exact(state: CountState, objective: str = "margin", *, deadline: float | None = None) -> ExactValues | None:
    """Solve `state` to the end of the round; None if `deadline` (time.monotonic()) passes first."""
    from strategies.kernel.solve import (
        after_keys,
        after_values,
        draw_keys,
        encode,
        root_values,
        state_values,
    )

    if objective not in ("margin", "win"):
        raise ValueError(f"objective must be margin or win, got {objective!r}")
    check_state(state)
    began = time.monotonic()
    config = state.rules.config
    tables: KernelTables = kernel_tables(config)
    win = objective == "win"
    off = decided_beyond(config) if win else 0
    mover = state.mover
    mine, theirs, deck = state.hands[mover], state.hands[1 - mover], state.deck
    banked = state.points[mover] - state.points[1 - mover]
    diff = max(-off, min(off, banked)) if win else 0
    tie = int(mover == state.second)
    d = state.turns_left
    keys = np.array([encode(tables.blob, mine, theirs, deck, d, diff, tie, off)], dtype=np.int64)
    layers = []
    count = 0
    for turns in range(d, 0, -1):
        afters = after_keys(tables.blob, keys, turns, off)
        layers.append((keys, afters))
        count += keys.shape[0] + afters.shape[0]
        if turns > 1:
            keys = draw_keys(tables.blob, afters, turns, off)
        if deadline is not None and time.monotonic() > deadline:
            return None
    below_keys = np.zeros(0, dtype=np.int64)
    below_values = np.zeros(0, dtype=np.float64)
    for turns in range(1, d + 1):
        keys, afters = layers[d - turns]
        after_vals = after_values(tables.blob, afters, turns, off, below_keys, below_values)
        if turns < d:
            below_keys, below_values = keys, state_values(tables.blob, keys, turns, off, afters, after_vals)
        if deadline is not None and time.monotonic() > deadline:
            return None
    out = np.empty(len(state.rules.moves), dtype=np.float64)
    root_values(tables.blob, mine, theirs, deck, d, diff, tie, off, afters, after_vals, out)
    shift = 0 if win else banked
    values = {move: float(out[move]) + shift for move in range(out.shape[0]) if not np.isnan(out[move])}
    return ExactValues(values, count, time.monotonic() - began)
