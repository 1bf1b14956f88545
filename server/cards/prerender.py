"""One background worker that draws card pictures ahead of the pages' requests, in the order asked."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence

log = logging.getLogger("server.cards")


class PrerenderQueue:
    """Cards (token, landmark) waiting to be drawn by `draw`, in one daemon thread started on first use.

    A card asked for twice is drawn once (`draw` skips what is cached).
    """

    def __init__(self, draw: Callable[[str, str], None]) -> None:
        self._draw = draw
        self._waiting: deque[tuple[str, str]] = deque()
        self._busy = False
        self._current: str | None = None  # the token being drawn
        self._closed = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, cards: Sequence[tuple[str, str]], *, first: bool = False) -> None:
        if not cards:
            return
        with self._changed:
            if self._closed:
                return
            if first:
                # Moved to the front, not copied there: a page waits until its card is no longer waiting, and
                # a copy left behind in the backlog kept it waiting for the whole backlog (issue 41: a fresh
                # page took 2-11 s while the first deals were still being drawn, each card drawn long before).
                tokens = {token for token, _ in cards}
                rest = [card for card in self._waiting if card[0] not in tokens]
                self._waiting.clear()
                self._waiting.extend(list(cards) + rest)
            else:
                self._waiting.extend(cards)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="card-prerender", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._busy, timeout)

    def wait_for_card(self, token: str, timeout: float) -> None:
        """Wait until the card `token` is neither waiting nor being drawn (or the timeout, or the stop)."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or not self._pending(token), timeout)

    def _pending(self, token: str) -> bool:
        return self._current == token or any(waiting == token for waiting, _ in self._waiting)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._busy, self._current = False, None
                self._changed.notify_all()
                self._changed.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                token, landmark = self._waiting.popleft()
                self._busy, self._current = True, token
            try:
                self._draw(token, landmark)
            except Exception:  # a bad photo file or the like: that card is drawn on request instead
                log.exception("could not draw card %s ahead", token)
