"""Rules parameters. The defaults are the arena's game; tests shrink them to miniature games."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rummy.catalog import DEFAULT_CATALOG


class MalformedLay(StrEnum):
    """A Lay of the wrong size, with a repeated id or an id not in the hand: refused (INVALID_MOVE, nothing
    changes) or accepted as a wasted turn."""

    REFUSE = "refuse"
    WASTE = "waste"


class PointsShown(StrEnum):
    """MyPoints/OppPoints during a round: set points (the hand penalty only at the round's end), or set points
    minus the hand penalty at every gamestate."""

    SETS = "sets"
    NET = "net"


class MyScore(StrEnum):
    """MyScore/OppScore: rounds won, or the match's points so far (finished rounds)."""

    ROUNDS = "rounds"
    POINTS = "points"


# The rules' open choices that are modes, with their enums: a RulesConfig given a mode's plain name (a CLI
# option, a test) holds the enum member; any other value is a problem (see RulesConfig.problems).
MODES: dict[str, type[StrEnum]] = {"malformed_lay": MalformedLay, "points_shown": PointsShown, "my_score": MyScore}


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
    # The choices the arena's help leaves open (see RULES.md); the defaults are the local referee's.
    malformed_lay: MalformedLay = MalformedLay.REFUSE
    # After a move that empties a hand: no draw and the round ends (False), or the mover draws first (True).
    draw_after_emptying: bool = False
    points_shown: PointsShown = PointsShown.SETS
    my_score: MyScore = MyScore.ROUNDS

    @classmethod
    def with_choices(
        cls, *, malformed_lay: str, draw_after_emptying: bool, points_shown: str, my_score: str
    ) -> RulesConfig:
        """The default rules with the open choices as a command line names them ("waste", "net", ...);
        ValueError names any that is not one of its mode's values."""
        return cls(
            malformed_lay=malformed_lay,  # type: ignore[arg-type]  # checked and made the enum in __post_init__
            draw_after_emptying=draw_after_emptying,
            points_shown=points_shown,  # type: ignore[arg-type]
            my_score=my_score,  # type: ignore[arg-type]
        )

    def __post_init__(self) -> None:
        for name, mode in MODES.items():  # the edge where a mode's plain name becomes its enum member
            value = getattr(self, name)
            if not isinstance(value, mode) and value in mode._value2member_map_:
                object.__setattr__(self, name, mode(value))
        problems = self.problems()
        if problems:
            raise ValueError("invalid rules: " + "; ".join(problems))

    def problems(self) -> list[str]:
        """What makes this configuration unplayable, in words; empty when it is fine."""
        found: list[str] = []
        if len(set(self.catalog)) != len(self.catalog):
            found.append("catalog names must be distinct")
        if not 1 <= self.types_per_round <= len(self.catalog):
            found.append(f"types_per_round is {self.types_per_round}, must be 1..{len(self.catalog)} (catalog size)")
        if not 1 <= self.cards_per_type <= 15:
            found.append(f"cards_per_type is {self.cards_per_type}, must be 1..15 (counts are packed in 4 bits)")
        if self.hand_size < 1:
            found.append(f"hand_size is {self.hand_size}, must be at least 1")
        elif self.deck_size < 1:
            found.append(
                f"two hands of {self.hand_size} need {2 * self.hand_size} cards, but the round has "
                f"{self.total_cards} ({self.types_per_round} types x {self.cards_per_type}); "
                "at least one more card is needed for the deck"
            )
        if not 1 <= self.min_lay <= self.max_lay:
            found.append(f"min_lay {self.min_lay} and max_lay {self.max_lay} must satisfy 1 <= min_lay <= max_lay")
        if self.hand_penalty < 0:
            found.append(f"hand_penalty is {self.hand_penalty}, must not be negative")
        for name, mode in MODES.items():
            value = getattr(self, name)
            if not isinstance(value, mode):
                found.append(f"{name} is {value!r}, must be one of {', '.join(mode)}")
        for name, table in (("same_kind_points", self.same_kind_points), ("different_points", self.different_points)):
            sizes = [size for size, _points in table]
            if len(set(sizes)) != len(sizes) or any(points <= 0 for _size, points in table):
                found.append(f"{name} needs distinct set sizes with positive points, got {table}")
        return found

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
