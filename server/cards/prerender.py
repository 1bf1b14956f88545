"""Background workers that draw card pictures ahead of the pages' requests, in the order asked."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence

log = logging.getLogger("server.cards")


class PrerenderQueue:
    """Cards (token, landmark) waiting to be drawn by `draw`, in `workers` daemon threads started on first use.

    A card asked for twice is drawn once (`draw` skips what is cached). Several workers draw a page's cards
    side by side (where `draw` hands the work to processes, on several cores).
    """

    def __init__(self, draw: Callable[[str, str], None], workers: int = 1) -> None:
        self._draw = draw
        self._workers = max(1, workers)
        self._waiting: deque[tuple[str, str]] = deque()
        self._later: deque[tuple[str, str]] = deque()  # drawn when nothing else waits (a deal's deck, say)
        self._current: list[str] = []  # the tokens being drawn, one per busy worker
        self._closed = False
        self._changed = threading.Condition()
        self._threads: list[threading.Thread] = []

    def add(self, cards: Sequence[tuple[str, str]], *, first: bool = False, later: bool = False) -> None:
        """Queue cards: `first` ahead of all (a page asks for them now), `later` behind all (not shown yet)."""
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
                for queue, ahead in ((self._waiting, list(cards)), (self._later, [])):
                    rest = [card for card in queue if card[0] not in tokens]
                    queue.clear()
                    queue.extend(ahead + rest)
            elif later:
                self._later.extend(cards)
            else:
                self._waiting.extend(cards)
            while len(self._threads) < self._workers:
                thread = threading.Thread(target=self._run, name=f"card-prerender-{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()
            self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._later and not self._current, timeout)

    def wait_for_card(self, token: str, timeout: float) -> None:
        """Wait until the card `token` is neither waiting nor being drawn (or the timeout, or the stop)."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or not self._pending(token), timeout)

    def _pending(self, token: str) -> bool:
        return token in self._current or any(waiting == token for waiting, _ in (*self._waiting, *self._later))

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._later.clear()
            self._changed.notify_all()
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout=5)

    def _run(self) -> None:
        token: str | None = None
        while True:
            with self._changed:
                if token is not None:
                    self._current.remove(token)
                self._changed.notify_all()
                self._changed.wait_for(lambda: self._waiting or self._later or self._closed)
                if self._closed:
                    return
                token, landmark = (self._waiting or self._later).popleft()
                self._current.append(token)
            try:
                self._draw(token, landmark)
            except Exception:  # a bad photo file or the like: that card is drawn on request instead
                log.exception("could not draw card %s ahead", token)
