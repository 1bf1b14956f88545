"""Matchmaking: offers of one style wait in arrival order and pair with the first compatible one.

The referee expires offers whose owner stopped calling and caps the offers per bot, so the lobby
stays small; pairing looks only at offers of the same style.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class OfferTerms:
    bot: str
    user: str
    style_id: int
    opponent_id: str | None = None
    dont_play_same_bot: bool = False
    dont_play_same_user: bool = False


def compatible(first: OfferTerms, second: OfferTerms) -> bool:
    """Both offers accept each other: same style, named opponents honoured, no same bot/user if either asks."""
    if first.style_id != second.style_id:
        return False
    if first.opponent_id is not None and first.opponent_id != second.bot:
        return False
    if second.opponent_id is not None and second.opponent_id != first.bot:
        return False
    if (first.dont_play_same_bot or second.dont_play_same_bot) and first.bot == second.bot:
        return False
    return not ((first.dont_play_same_user or second.dont_play_same_user) and first.user == second.user)


class Lobby:
    """Waiting offers by style, each style's oldest first (dicts keep insertion order)."""

    def __init__(self) -> None:
        self._waiting: dict[int, dict[str, OfferTerms]] = {}
        self._per_bot: Counter[str] = Counter()

    def __len__(self) -> int:
        return sum(len(offers) for offers in self._waiting.values())

    def __contains__(self, key: object) -> bool:
        return any(key in offers for offers in self._waiting.values())

    def waiting(self) -> Iterator[tuple[str, OfferTerms]]:
        return iter([item for offers in self._waiting.values() for item in offers.items()])

    def offers_of(self, bot: str) -> int:
        return self._per_bot[bot]

    def pair(self, key: str, terms: OfferTerms, alive: Callable[[str], bool] = lambda _key: True) -> str | None:
        """The key of the oldest waiting offer that `terms` can play and whose owner is `alive` (removed
        from the lobby), or None."""
        offers = self._waiting.get(terms.style_id, {})
        for other_key, other in offers.items():
            if compatible(other, terms) and alive(other_key):
                self.withdraw(other_key)
                return other_key
        return None

    def add(self, key: str, terms: OfferTerms) -> None:
        self._waiting.setdefault(terms.style_id, {})[key] = terms
        self._per_bot[terms.bot] += 1

    def withdraw(self, key: str) -> bool:
        for style_id, offers in self._waiting.items():
            terms = offers.pop(key, None)
            if terms is not None:
                self._per_bot[terms.bot] -= 1
                if not self._per_bot[terms.bot]:
                    del self._per_bot[terms.bot]
                if not offers:
                    del self._waiting[style_id]
                return True
        return False
