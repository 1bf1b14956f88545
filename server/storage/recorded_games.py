"""The recorded games, the one part of the records file that both sides read: the referee's /games and
viewer, and the bot's commands (replay, review, the measurements that grade stored rounds).

`RecordedGames` is what a reader may rely on; `Records` (server/storage/records.py) implements it, and
`recorded_games(path)` opens a records file for reading through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from server.storage.records import Records


class RecordedGames(Protocol):
    def list_matches(self, limit: int = 1000) -> list[dict[str, Any]]:
        """Match summaries, newest first: GameId, Players, Status, EndReason, GameStatus, RoundsWon, ..."""
        ...

    def match_summary(self, game_id: int) -> dict[str, Any] | None:
        """One match's summary; None if unknown."""
        ...

    def match_record(self, game_id: int) -> dict[str, Any] | None:
        """The summary with the Seed, every round's deal (hands, deck, landmarks) and every move; None if unknown."""
        ...


@contextmanager
def recorded_games(path: Path | str) -> Iterator[RecordedGames]:
    """The recorded games of the records file at `path`, brought to the latest schema first, as any opening
    does (a missing file is created: callers that only read check that it exists)."""
    records = Records(path)
    try:
        yield records
    finally:
        records.close()
