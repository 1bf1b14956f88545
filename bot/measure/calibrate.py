"""Fit the margin-to-win-probability mapping (strategies.table.calibration) on exact endgame values.

    RUMMY_VISION_TABLE=/path/to/table python -m strategies.table.calibrate [--positions 60] [--max-turns 6]

For each position (random deals advanced by random play, `bench.position_set`) every move's exact
win value comes from the kernel's on-demand solver and its exact margin from the table. The scale
is fitted on one seed set and the error reported on another.
"""

from __future__ import annotations

import argparse
import itertools
import math

from strategies.bench import position_set
from strategies.kernel.ondemand import solve_exact
from strategies.table.calibration import win_probability
from strategies.table.fileformat import load_table
from strategies.table.lookup import table_move_values

Sample = tuple[float, int, bool, float]  # margin, turns left, mover wins ties, exact P(win)


def samples(count: int, seed: int, max_turns: int) -> list[Sample]:
    table = load_table(unfinished_ok=True)
    found: list[Sample] = []
    for turns in range(1, max_turns + 1):
        for state in position_set(count, seed + turns, turns_left=turns):
            exact = solve_exact(state.copy(), "win")
            assert exact is not None
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40, help="positions per number of turns left")
    parser.add_argument("--max-turns", type=int, default=6)
    args = parser.parse_args()
    fit = samples(args.positions, 1000, args.max_turns)
    check = samples(args.positions, 2000, args.max_turns)
    grid = itertools.product([x / 4 for x in range(0, 81)], [x / 4 for x in range(1, 21)])
    base, per_turn = min(grid, key=lambda pair: error(fit, *pair)[0])
    mse, mae = error(check, base, per_turn)
    print(f"fitted on {len(fit)} moves: SCALE_BASE = {base}, SCALE_PER_TURN = {per_turn}")
    print(f"held-out {len(check)} moves: RMSE {math.sqrt(mse):.4f}, mean abs error {mae:.4f} (probability)")


if __name__ == "__main__":
    main()
