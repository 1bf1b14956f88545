"""Matchmaking: offers of one style wait in arrival order and pair with the first compatible one."""

from __future__ import annotations

from collections.abc import Iterator
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
    """Waiting offers by PlayerKey, oldest first (dicts keep insertion order)."""

    def __init__(self) -> None:
        self._waiting: dict[str, OfferTerms] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def __contains__(self, key: object) -> bool:
        return key in self._waiting

    def waiting(self) -> Iterator[tuple[str, OfferTerms]]:
        return iter(list(self._waiting.items()))

    def pair(self, key: str, terms: OfferTerms) -> str | None:
        """The key of the oldest waiting offer that `terms` can play (removed from the lobby), or None."""
        for other_key, other in self._waiting.items():
            if compatible(other, terms):
                del self._waiting[other_key]
                return other_key
        return None

    def add(self, key: str, terms: OfferTerms) -> None:
        self._waiting[key] = terms

    def withdraw(self, key: str) -> bool:
        return self._waiting.pop(key, None) is not None
