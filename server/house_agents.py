"""The built-in opponents: strategies from strategies/ that see the true labels of their cards."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from rummy import UNKNOWN, CardLabel
from strategies import registry
from strategies.agent import ArenaAgent
from strategies.base import Strategy
from strategies.characters import CHARACTERS
from strategies.registry import get_strategy, strategy_names

HOUSE_USER = "house"
# The expert plays the registry's STRONGEST strategy; these stand in when it names none. Looked up per match,
# so a stronger strategy registered later takes the seat without a server change.
EXPERT_FALLBACKS = ("expectimax", "greedy")


def expert_strategy_name() -> str:
    available = set(strategy_names())
    strongest = getattr(registry, "STRONGEST", None)
    if strongest in available:
        return str(strongest)
    return next(name for name in EXPERT_FALLBACKS if name in available)


def _expert() -> Strategy:
    return get_strategy(expert_strategy_name())


HOUSE_BOTS: dict[str, Callable[[], Strategy]] = {
    "housebot-practise": lambda: get_strategy("random"),
    "housebot-greedy": lambda: get_strategy("greedy"),
    "housebot-expert": _expert,
    # The characters, so that a person (or a bot) can play each of them through the referee.
    **{f"housebot-{name}": functools.partial(get_strategy, name) for name in CHARACTERS},
    # `perfect` plays from the perfect-play table; without the table it cannot be built, and /play says why.
    "housebot-perfect": functools.partial(get_strategy, "perfect"),
}


def is_house_bot(name: str | None) -> bool:
    return name in HOUSE_BOTS


class TrueLabels:
    """A recognizer that asks the referee: a house bot plays the cards, not the pictures."""

    name = "referee-truth"

    def __init__(self, landmark_of_url: Callable[[str], str | None]) -> None:
        self.landmark_of_url = landmark_of_url

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        labels = {}
        for card_id, url in cards:
            landmark = self.landmark_of_url(url)
            labels[card_id] = CardLabel(landmark, 1.0) if landmark is not None else UNKNOWN
        return labels


def house_agent(name: str, landmark_of_url: Callable[[str], str | None]) -> ArenaAgent:
    return ArenaAgent(HOUSE_BOTS[name](), TrueLabels(landmark_of_url))


def fallback_move(gamestate: dict[str, Any]) -> dict[str, Any]:
    """Always legal for the mover (its hand is never empty while the round runs): give a card away."""
    return {"Give": gamestate["MyHand"][0][0]}
