"""Labelling cards while the opponent thinks: a paid recognizer's calls made on the opponent's turn.

When a gamestate arrives in which the bot is not the mover, `PrefetchingBot.label_view` asks the
recognizer about every card in view in a background thread (one at a time per match), so the
answers are in the label cache when the bot's own turn comes and its move's time is spent on the
move, not on waiting for the service. The landmarks go to the replay file too when it is recorded
(bot/players/view_labels.py): those calls are made anyway, so recording them costs none more.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from bot.players.deadline import GuardedBot
from bot.players.view_labels import RecordLabels, cards_in_view, landmarks

log = logging.getLogger("bot")
PAID_SERVICES = ("azure", "customvision")


def is_paid(spec: str) -> bool:
    """Whether a recognizer spec calls a paid service (prefetching others would only cost time)."""
    return any(name in spec.lower() for name in PAID_SERVICES)


class PrefetchingBot(GuardedBot):
    def __init__(
        self,
        calculate_move: Callable[[dict[str, Any]], Any],
        recognizer: Any,
        on_close: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(calculate_move, on_close=on_close)
        self._recognizer = recognizer
        self._prefetching: threading.Thread | None = None
        self.prefetched: set[str] = set()  # picture URLs asked about on the opponent's turn

    def prefetch(self, gamestate: dict[str, Any]) -> None:
        """Start labelling the cards in view unless a prefetch is still running; never blocks."""
        self.label_view(gamestate, None)

    def label_view(self, gamestate: dict[str, Any], record: RecordLabels | None) -> None:
        """`prefetch`, handing the landmarks to `record` (from the background thread) when they come.

        Cards in view while an earlier prefetch still runs are left for the next gamestate or the move.
        """
        if self._prefetching is not None and self._prefetching.is_alive():
            return
        cards = cards_in_view(gamestate, self.prefetched)
        if not cards:
            return
        catalog = list(gamestate.get("AllCardTypes") or [])
        self.prefetched.update(url for _card_id, url in cards)
        self._prefetching = threading.Thread(target=self._label, args=(cards, catalog, record), daemon=True)
        self._prefetching.start()

    def _label(self, cards: list[tuple[int, str]], catalog: list[str], record: RecordLabels | None) -> None:
        try:
            found = self._recognizer.recognize(cards, catalog)
        except Exception as error:  # noqa: BLE001 - prefetching is a bonus; the move asks again
            log.info("prefetch on the opponent's turn failed: %s", error)
            return
        if record is not None:
            record(landmarks(found))
