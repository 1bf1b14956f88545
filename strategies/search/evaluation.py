"""Values of states for search: exact at the round's end, a hand-quality estimate elsewhere.

Every value is from the view of `state.mover` (negamax). For the `win` objective a value is
2 P(win) - 1 in [-1, 1]; for `margin` it is the expected final point difference. Star1/Star2 need
finite bounds on every value below a chance node, and the heuristic estimate stays inside them.
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import lru_cache

from rummy import CountRules, CountState, MoveKind


class Objective(StrEnum):
    WIN = "win"
    MARGIN = "margin"


class Evaluator:
    """Terminal values, leaf estimates and value bounds for one rule set and objective."""

    def __init__(self, rules: CountRules, objective: Objective = Objective.WIN) -> None:
        self.rules = rules
        self.objective = Objective(objective)
        self.win = self.objective is Objective.WIN
        config = rules.config
        self.penalty = config.hand_penalty
        self.n_types = rules.n_types
        self.lay_points = tuple(move.points for move in rules.moves)
        per_card = max(
            (move.points / sum(move.counts) for move in rules.moves if move.kind == MoveKind.LAY), default=0.0
        )
        # A card still in play can move the final margin by at most this much, whichever way it ends:
        # laid by one player (at most the best points per card of any set) or left in a hand (the penalty).
        # With D the points difference so far and C the cards in both hands and the deck, every final
        # margin from a state lies in [D - K*C, D + K*C], and these intervals nest along any line of play
        # (laying l cards moves D by at most K*l and removes l cards from C), so a leaf clamped to its own
        # interval is inside every ancestor's.
        self.card_swing = max(per_card, float(self.penalty))
        self._plan: dict[int, int] = {}

    # --- bounds -------------------------------------------------------------------------------

    def bounds(self, state: CountState) -> tuple[float, float]:
        """Lower and upper bound on every value of `state` and its descendants, from `state.mover`'s view."""
        if self.win:
            return -1.0, 1.0
        mover = state.mover
        size = self.rules.size
        diff = state.points[mover] - state.points[1 - mover]
        swing = self.card_swing * (size(state.hands[0]) + size(state.hands[1]) + size(state.deck))
        return diff - swing, diff + swing

    # --- values -------------------------------------------------------------------------------

    def terminal(self, state: CountState) -> float:
        """The exact value of a finished round for `state.mover`."""
        mover = state.mover
        margin = state.margin(mover)
        if not self.win:
            return float(margin)
        if margin == 0:
            return 1.0 if state.second == mover else -1.0
        return 1.0 if margin > 0 else -1.0

    def estimate_margin(self, state: CountState) -> float:
        """Expected final margin for the mover if both players lay the best sets their hands hold.

        Each player gets one move per remaining turn (the mover moves first), so a hand can lay at
        most that many sets; whatever is not laid costs the penalty. This prices sets within reach,
        the opponent's threats, the penalty exposure, and what a Take or Give does to both hands.
        """
        mover = state.mover
        turns = state.turns_left
        mine = self.plan(state.hands[mover], (turns + 1) // 2)
        theirs = self.plan(state.hands[1 - mover], turns // 2)
        return state.points[mover] - state.points[1 - mover] + mine - theirs

    def leaf(self, state: CountState) -> float:
        margin = self.estimate_margin(state)
        if self.win:
            # Ties go to the second mover: half a point of margin in its favour.
            margin += 0.5 if state.second == state.mover else -0.5
            # Far from the end the estimate is vaguer, so the same margin is less decisive.
            return math.tanh(margin / (8.0 + 2.0 * state.turns_left))
        low, high = self.bounds(state)
        return min(high, max(low, margin))

    # --- the lay plan -------------------------------------------------------------------------

    def plan(self, hand: int, lays: int) -> int:
        """Most points minus penalty from laying at most `lays` sets out of `hand` (no draws)."""
        size = self.rules.size(hand)
        lays = min(lays, size // 3)
        key = (hand << 5) | lays
        found = self._plan.get(key)
        if found is not None:
            return found
        best = -self.penalty * size
        if lays > 0:
            rules = self.rules
            waste = rules.waste_id
            lay_codes = rules.lay_codes
            points = self.lay_points
            for move_id in rules.own_moves(hand):
                if move_id >= waste:
                    break
                value = points[move_id] + self.plan(hand - lay_codes[move_id], lays - 1)
                if value > best:
                    best = value
        self._plan[key] = best
        return best


@lru_cache(maxsize=16)
def evaluator_for(rules: CountRules, objective: Objective = Objective.WIN) -> Evaluator:
    """Shared evaluators keep their lay-plan tables warm across searches."""
    return Evaluator(rules, Objective(objective))
