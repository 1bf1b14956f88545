"""Fit the margin-to-win-probability mapping (strategies.table.win.mapping) on exact endgame values.

    RUMMY_VISION_TABLE=/path/to/table python tools/measure.py calibrate [--positions 60] [--max-turns 6]

For each position (random deals advanced by random play, `position_set`) every move's exact
win value comes from the kernel's on-demand solver and its exact margin from the table. The scale
is fitted on one seed set and the error reported on another.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from bot.measure.sampling import position_set
from strategies.kernel.solve_position import solve_exact
from strategies.table.margin.fileformat import load_table
from strategies.table.margin.lookup import table_move_values
from strategies.table.win.mapping import win_probability

Sample = tuple[float, int, bool, float]  # margin, turns left, mover wins ties, exact P(win)


def samples(count: int, seed: int, max_turns: int) -> list[Sample]:
    table = load_table(unfinished_ok=True)
    found: list[Sample] = []
    for turns in range(1, max_turns + 1):
        for state in position_set(count, seed + turns, turns_left=turns):
            exact = solve_exact(state.copy(), "win")
            if exact is None:
                raise RuntimeError(f"the on-demand solver declined a position {turns} turns from the end")
            margins = table_move_values(state, table)
            ties = state.mover == state.second
            for move, value in exact.values.items():
                found.append((margins[move], turns, ties, (value + 1) / 2))
    return found


def error(found: list[Sample], base: float, per_turn: float) -> tuple[float, float]:
    """Mean squared error of the probability, and mean absolute error."""
    squared = absolute = 0.0
    for margin, turns, ties, truth in found:
        guess = win_probability(margin, turns, ties, base, per_turn)
        squared += (guess - truth) ** 2
        absolute += abs(guess - truth)
    return squared / len(found), absolute / len(found)


FIT_SEED, CHECK_SEED = 1000, 2000


def calibrate(positions: int, max_turns: int, emit: Callable[[str], None] = print) -> dict[str, Any]:
    """Fit the scale on the positions of FIT_SEED, report the error on those of CHECK_SEED."""
    fit = samples(positions, FIT_SEED, max_turns)
    check = samples(positions, CHECK_SEED, max_turns)
    grid = itertools.product([x / 4 for x in range(0, 81)], [x / 4 for x in range(1, 21)])
    base, per_turn = min(grid, key=lambda pair: error(fit, *pair)[0])
    mse, mae = error(check, base, per_turn)
    emit(f"fitted on {len(fit)} moves: SCALE_BASE = {base}, SCALE_PER_TURN = {per_turn}")
    emit(f"held-out {len(check)} moves: RMSE {math.sqrt(mse):.4f}, mean abs error {mae:.4f} (probability)")
    return {
        "fitted_moves": len(fit),
        "scale_base": base,
        "scale_per_turn": per_turn,
        "held_out_moves": len(check),
        "held_out_rmse": math.sqrt(mse),
        "held_out_mean_absolute_error": mae,
    }
