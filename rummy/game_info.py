"""The game's facts for one RulesConfig, declared once (like OpenSpiel's GameInfo): how many move ids
there are, how long a round lasts, the bounds of points and of each objective's utility.

The kernel, the solvers, the tables and the learning environments read these instead of working
them out again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, reduce

from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.countstate import MoveKind, count_rules

OBJECTIVES = ("margin", "win")


@dataclass(frozen=True)
class GameInfo:
    num_types: int
    num_lays: int  # distinct sets a player can lay: move ids 0..num_lays-1
    num_distinct_moves: int  # the lays, the wasted lay, then a Take and a Give per type
    max_game_length: int  # turns in a round: one draw a turn, so the deck's size
    max_banked_points: int  # the most set points one player can bank in a round
    max_margin: int  # the largest final point difference either way (the margin objective's bound)
    decided_beyond: int  # a banked difference beyond every swing still possible: the result is settled
    point_unit: int  # every banked difference is a multiple of this (the gcd of all set points)

    def max_utility(self, objective: str) -> float:
        """The best final value for a player under `objective`: the margin, or +1 for a win."""
        return float(self.max_margin) if _checked(objective) == "margin" else 1.0

    def min_utility(self, objective: str) -> float:
        return -self.max_utility(objective)


def _checked(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    return objective


@lru_cache(maxsize=32)
def game_info(config: RulesConfig = DEFAULT_RULES) -> GameInfo:
    rules = count_rules(config)
    lays = [move for move in rules.moves if move.kind == MoveKind.LAY]
    best_per_card = max((move.points / sum(move.counts) for move in lays), default=0.0)
    # Every card ends laid by one player or left in a hand; each is worth at most the better of its
    # best set points per card and the hand penalty to the margin.
    swing_per_card = math.ceil(max(best_per_card, config.hand_penalty))
    max_margin = config.total_cards * swing_per_card
    return GameInfo(
        num_types=config.types_per_round,
        num_lays=len(lays),
        num_distinct_moves=len(rules.moves),
        max_game_length=config.max_turns,
        max_banked_points=math.ceil(best_per_card * config.total_cards),
        max_margin=max_margin,
        decided_beyond=max_margin + 1,
        point_unit=reduce(math.gcd, (points for _size, points in config.same_kind_points + config.different_points)),
    )
