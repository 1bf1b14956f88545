"""Whether an on-demand exact solve fits a move's time budget.

p95 wall seconds by turns left, measured with `python -m strategies.table.bench solve` on a 2-core
machine shared with other work (see the README); a solve is tried when its p95 is at most half the
time left, and it still gives up at the deadline (the search then has the rest).
"""

from __future__ import annotations

import math

SOLVE_P95_S: dict[str, dict[int, float]] = {
    "margin": {1: 0.01, 2: 0.01, 3: 0.02, 4: 0.05, 5: 0.2, 6: 0.6, 7: 2.0, 8: 6.0},
    "win": {1: 0.01, 2: 0.01, 3: 0.03, 4: 0.1, 5: 0.4, 6: 1.2, 7: 4.0},
}


def solve_fits(objective: str, turns_left: int, seconds_left: float) -> bool:
    expected = SOLVE_P95_S.get(objective, {}).get(turns_left, math.inf)
    return expected <= seconds_left / 2
