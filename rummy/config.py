"""Rules parameters. The defaults are the arena's game; tests shrink them to miniature games."""

from __future__ import annotations

from dataclasses import dataclass, field

from rummy.catalog import DEFAULT_CATALOG


@dataclass(frozen=True)
class RulesConfig:
    types_per_round: int = 4
    cards_per_type: int = 10
    hand_size: int = 10
    same_kind_points: tuple[tuple[int, int], ...] = ((3, 20), (4, 30), (5, 50))
    different_points: tuple[tuple[int, int], ...] = ((3, 25), (4, 35))
    hand_penalty: int = 3
    min_lay: int = 3
    max_lay: int = 5
    catalog: tuple[str, ...] = field(default=DEFAULT_CATALOG)

    def __post_init__(self) -> None:
        if not 1 <= self.types_per_round <= len(self.catalog):
            raise ValueError("types_per_round must be between 1 and the catalog size")
        if not 1 <= self.cards_per_type <= 15:
            raise ValueError("cards_per_type must be 1..15 (counts are packed in 4 bits)")
        if 2 * self.hand_size > self.total_cards:
            raise ValueError("two hands need more cards than the round has")
        if len(set(self.catalog)) != len(self.catalog):
            raise ValueError("catalog names must be distinct")

    @property
    def total_cards(self) -> int:
        return self.types_per_round * self.cards_per_type

    @property
    def deck_size(self) -> int:
        return self.total_cards - 2 * self.hand_size

    @property
    def max_turns(self) -> int:
        """Each turn draws one card, so the round lasts as many turns as the deck has cards."""
        return self.deck_size

    def set_points(self, type_counts: tuple[int, ...]) -> int:
        """Points for laying cards with these per-type counts; 0 when they form no set."""
        size = sum(type_counts)
        used = [count for count in type_counts if count]
        if len(used) == 1:
            return dict(self.same_kind_points).get(size, 0)
        if all(count == 1 for count in used):
            return dict(self.different_points).get(size, 0)
        return 0


DEFAULT_RULES = RulesConfig()
