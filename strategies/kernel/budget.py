"""Whether an on-demand exact solve fits a move's time budget.

Seconds by turns left, measured with `python -m strategies.table.bench solve` on a 2-core machine
shared with other work (see the README); a solve is tried when its p95 is at most half the time
left, and it still gives up at the deadline (the search then has the rest).
"""

from __future__ import annotations

import math

# CPU p95 of `python -m strategies.table.bench solve` (10 positions per row), rounded up: the CPU
# time is what an idle machine's wall time would be; the deadline guards the rest.
SOLVE_P95_S: dict[str, dict[int, float]] = {
    "margin": {1: 0.01, 2: 0.01, 3: 0.01, 4: 0.02, 5: 0.4, 6: 1.1, 7: 2.6, 8: 8.8},
    "win": {1: 0.01, 2: 0.01, 3: 0.01, 4: 0.02, 5: 0.52, 6: 1.9, 7: 5.3},
}


def solve_fits(objective: str, turns_left: int, seconds_left: float) -> bool:
    expected = SOLVE_P95_S.get(objective, {}).get(turns_left, math.inf)
    return expected <= seconds_left / 2
