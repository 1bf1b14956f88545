"""Whether an on-demand exact solve fits a move's budget: seconds under a time budget, states under a
node budget (so that, like the search, it never depends on the clock).

Figures by turns enumerated (turns left, less those a table's lower layers answer), measured with
`python tools/measure.py table-solve` (20 positions a row, seeds 900 + turns; see docs/perfect-play.md).
Under a time budget a solve is tried when its p95 is at most half the time left, and it gives up when
that half is spent (the search then has the other half). Under a node budget it is tried when the p95 of
its states is within the cap, and gives up at the cap.
"""

from __future__ import annotations

import math

# CPU p95 seconds, rounded up: the CPU time is what an idle machine's wall time would be.
SOLVE_P95_S: dict[str, dict[int, float]] = {
    "margin": {1: 0.01, 2: 0.01, 3: 0.01, 4: 0.02, 5: 0.15, 6: 0.4, 7: 0.9, 8: 1.8, 9: 3.1, 10: 9.3},
    "win": {1: 0.01, 2: 0.01, 3: 0.01, 4: 0.02, 5: 0.47, 6: 1.7, 7: 4.8, 8: 14.9},
}
# p95 of the states and after-states a solve enumerates (the same on every machine).
SOLVE_P95_STATES: dict[str, dict[int, int]] = {
    "margin": {
        1: 20,
        2: 391,
        3: 7_653,
        4: 28_929,
        5: 378_721,
        6: 893_314,
        7: 1_861_346,
        8: 3_566_929,
        9: 5_924_389,
        10: 15_875_449,
    },
    "win": {1: 20, 2: 391, 3: 7_950, 4: 36_360, 5: 609_728, 6: 1_851_628, 7: 4_679_171, 8: 12_990_494},
}
# A state of the compiled solve costs about a quarter of a node of the Python search (docs/perfect-play.md).
STATES_PER_NODE = 4


def enumerated_turns(turns_left: int, table_top: int = 0) -> int:
    """Turns a margin solve enumerates when a table holds layers 1..table_top below it."""
    return turns_left - min(turns_left, max(1, table_top + 1)) + 1


def solve_fits(objective: str, turns: int, seconds_left: float) -> bool:
    expected = SOLVE_P95_S.get(objective, {}).get(turns, math.inf)
    return expected <= seconds_left / 2


def state_cap(objective: str, turns: int, nodes: int) -> int | None:
    """The most states a solve may enumerate within a node budget of `nodes`; None when its p95 does not fit."""
    cap = STATES_PER_NODE * nodes
    return cap if SOLVE_P95_STATES.get(objective, {}).get(turns, math.inf) <= cap else None
