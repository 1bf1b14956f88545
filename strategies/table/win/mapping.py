"""From the table's exact expected margin to a probability of winning the round.

P(win) = 1 / (1 + exp(-(margin + tie) / (SCALE_BASE + SCALE_PER_TURN * turns_left))), where tie is
+0.5 when the mover wins ties and -0.5 otherwise. The constants are fitted by
`python tools/measure.py calibrate` on exact win values of endgames (solved by the kernel) and
checked on other endgames; docs/perfect-play.md gives the fit and the check.
"""

from __future__ import annotations

import math

from rummy import CountState

# Fitted on 851 moves of 75 positions with 1-5 turns left (position_set seeds 1001-1005, 15 each);
# on 880 held-out moves (seeds 2001-2005): RMSE 0.085 and mean absolute error 0.030 in probability.
SCALE_BASE = 0.5
SCALE_PER_TURN = 0.75


def win_probability(
    margin: float, turns_left: int, mover_wins_ties: bool, base: float = SCALE_BASE, per_turn: float = SCALE_PER_TURN
) -> float:
    shifted = margin + (0.5 if mover_wins_ties else -0.5)
    return 1.0 / (1.0 + math.exp(-shifted / (base + per_turn * turns_left)))


def win_value(state: CountState, margin_after_move: float) -> float:
    """2 P(win) - 1 for the mover of `state` from the exact expected margin of one of its moves."""
    p = win_probability(margin_after_move, state.turns_left, state.mover == state.second)
    return 2.0 * p - 1.0
