"""Duplicate deals at count level: a deal fixed by its seed, played to the end by any two choosers.

A deal fixes both hands, the deck order and who moves first, as in the arena, so the same deal can
be played twice with the seats swapped. The seed's string form keeps these deals apart from any
other use of the same number.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.countstate import DECIDE, OVER, CountState, count_rules, deal_types


class Chooser(Protocol):
    name: str

    def choose(self, state: CountState) -> int: ...


@dataclass(frozen=True)
class DealSpec:
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    draws: tuple[int, ...]  # the deck from the top, as types
    first_mover: int


def make_deal(seed: int, rules: RulesConfig = DEFAULT_RULES) -> DealSpec:
    hands, draws, first_mover = deal_types(random.Random(f"strength-deal:{seed}"), rules)
    return DealSpec(hands, draws, first_mover)


def start_state(deal: DealSpec, rules: RulesConfig = DEFAULT_RULES) -> CountState:
    return CountState.from_types(count_rules(rules), deal.hands, deal.draws, deal.first_mover)


def play_round(deal: DealSpec, seats: Sequence[Chooser], rules: RulesConfig = DEFAULT_RULES) -> CountState:
    """Play one round; `seats[p]` is player p's strategy. Returns the finished state."""
    state = start_state(deal, rules)
    drawn = 0
    while state.phase != OVER:
        if state.phase == DECIDE:
            move = seats[state.mover].choose(state.copy())
            if move not in state.legal_moves():
                raise RuntimeError(f"{seats[state.mover].name} chose illegal move {move} in {state}")
            state.push(move)
        else:
            state.push_draw(deal.draws[drawn])
            drawn += 1
    return state
