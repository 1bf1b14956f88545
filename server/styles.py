"""The game styles the local server hosts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.protocol import GAME_TYPE_ID

NO_LIMIT_MS = 86_400_000


@dataclass(frozen=True)
class GameStyle:
    style_id: int
    rounds: int
    move_time_ms: int
    stake: int = 0
    prize: int = 0
    for_people: bool = False  # offered first on the /play page (long or no move time)

    def to_json(self) -> dict[str, Any]:
        return {
            "GameStyleId": self.style_id,
            "GameType": GAME_TYPE_ID,
            "Stake": self.stake,
            "Prize": self.prize,
            "GameTypeSpecificInfo": {"Rounds": self.rounds, "MoveTimeMs": self.move_time_ms},
        }


STYLES: tuple[GameStyle, ...] = (
    GameStyle(1, rounds=1, move_time_ms=5000),
    GameStyle(2, rounds=5, move_time_ms=5000),
    GameStyle(3, rounds=1, move_time_ms=500),
    # A staked style, so that a bot's balance (and INSUFFICIENT_BALANCE) means something locally.
    GameStyle(4, rounds=1, move_time_ms=5000, stake=10, prize=19),
    # Styles for people (the /play page and `play-human`): two minutes a move, one and three rounds, and
    # one without a practical limit. The referee still needs a deadline, so "no limit" is a day a move.
    GameStyle(5, rounds=1, move_time_ms=120_000, for_people=True),
    GameStyle(6, rounds=3, move_time_ms=120_000, for_people=True),
    GameStyle(7, rounds=1, move_time_ms=NO_LIMIT_MS, for_people=True),
    # The arena's example match: seven rounds (its gamestate says RemainingRounds 7 at 0-0).
    GameStyle(8, rounds=7, move_time_ms=5000),
)


def styles_with_move_time(move_time_ms: int | None) -> dict[int, GameStyle]:
    """The hosted styles by id; a server-wide move time (tests, slow machines) replaces each style's own."""
    chosen = {}
    for style in STYLES:
        if move_time_ms is not None:
            style = GameStyle(style.style_id, style.rounds, move_time_ms, style.stake, style.prize, style.for_people)
        chosen[style.style_id] = style
    return chosen
