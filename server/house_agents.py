"""The built-in opponents: strategies from strategies/ that see the true labels of their cards."""

from __future__ import annotations

import functools
import random
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
    # Plays like the arena's editor template: random moves without looking at the pictures (PictureBlindRandom).
    "housebot-practise": lambda: get_strategy("random"),
    # Random among the moves that make sense for the cards it sees (true labels): random lays are real sets.
    "housebot-random": lambda: get_strategy("random"),
    "housebot-greedy": lambda: get_strategy("greedy"),
    "housebot-expert": _expert,
    # The characters, so that a person (or a bot) can play each of them through the referee.
    **{f"housebot-{name}": functools.partial(get_strategy, name) for name in CHARACTERS},
    # `perfect` plays for the round's win probability from the perfect-play tables; without the margin table it
    # cannot be built, and /play says why.
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


# House bots that never look at a card's landmark.
PICTURE_BLIND = frozenset({"housebot-practise"})


class PictureBlindRandom:
    """The arena template's bot: give, take or lay (3-5 random cards, often not a set) at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.last_suggestions: list[dict[str, Any]] = []

    def calculate_move(self, gamestate: dict[str, Any]) -> dict[str, Any]:
        mine = [card[0] for card in gamestate["MyHand"]]
        theirs = [card[0] for card in gamestate["OppHand"]]
        options = (["Give"] if mine else []) + (["Take"] if theirs else []) + (["Lay"] if len(mine) >= 3 else [])
        choice = self.rng.choice(options)
        if choice == "Give":
            return {"Give": self.rng.choice(mine)}
        if choice == "Take":
            return {"Take": self.rng.choice(theirs)}
        return {"Lay": self.rng.sample(mine, self.rng.randint(3, min(5, len(mine))))}


def house_agent(name: str, landmark_of_url: Callable[[str], str | None]) -> ArenaAgent | PictureBlindRandom:
    if name in PICTURE_BLIND:
        return PictureBlindRandom()
    return ArenaAgent(HOUSE_BOTS[name](), TrueLabels(landmark_of_url))


def fallback_move(gamestate: dict[str, Any]) -> dict[str, Any]:
    """Always legal for the mover (its hand is never empty while the round runs): give a card away."""
    return {"Give": gamestate["MyHand"][0][0]}
