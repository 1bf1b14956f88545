"""A page's card asked for while a backlog of deals waits is drawn next, and the page stops waiting once it is
drawn: not when the backlog reaches the card's older place in the queue (issue 41: 2-11 s fresh pages)."""

from __future__ import annotations

import threading

from server.cards.prerender import PrerenderQueue


def test_a_card_asked_for_first_is_not_left_waiting_behind_its_copy_in_the_backlog() -> None:
    drawn: list[str] = []
    started, release_first, hold_backlog = threading.Event(), threading.Event(), threading.Event()

    def draw(token: str, _landmark: str) -> None:
        if not drawn:
            started.set()
            release_first.wait(60)
        elif token != "page-card":
            hold_backlog.wait(60)  # the backlog stays stuck: only the asked card may be drawn
        drawn.append(token)

    queue = PrerenderQueue(draw)
    try:
        backlog = [(f"deal-{n}", "giralda") for n in range(20)] + [("page-card", "big ben")]
        queue.add(backlog)
        assert started.wait(60)  # the worker is drawing deal-0; the rest waits
        queue.add([("page-card", "big ben")], first=True)
        release_first.set()
        queue.wait_for_card("page-card", timeout=60)
        assert drawn == ["deal-0", "page-card"]
        assert not queue._pending("page-card")
        assert [token for token, _ in queue._waiting].count("page-card") == 0
    finally:
        hold_backlog.set()
        queue.close()


def _held_queue() -> tuple[PrerenderQueue, list[str], threading.Event]:
    """A one-worker queue busy drawing "blocker" until the returned gate opens: what is added meanwhile waits,
    so the order the rest is drawn in does not depend on when the worker thread got going."""
    order: list[str] = []
    started, gate = threading.Event(), threading.Event()

    def draw(token: str, _landmark: str) -> None:
        if token == "blocker":
            started.set()
        gate.wait(60)
        order.append(token)

    queue = PrerenderQueue(draw)
    queue.add([("blocker", "x")])
    assert started.wait(60)
    return queue, order, gate


def test_cards_asked_for_first_keep_their_order_and_the_backlog_keeps_its_own() -> None:
    queue, order, gate = _held_queue()
    try:
        queue.add([("a", "x"), ("b", "x"), ("c", "x"), ("d", "x")])
        queue.add([("c", "x"), ("e", "x")], first=True)
        gate.set()
        assert queue.wait_idle(60)
        assert order == ["blocker", "c", "e", "a", "b", "d"]
    finally:
        queue.close()


def test_two_workers_draw_two_cards_at_once() -> None:
    both = threading.Barrier(2, timeout=60)  # passes only when two draws run side by side
    drawn: list[str] = []
    queue = PrerenderQueue(lambda token, _landmark: (both.wait(), drawn.append(token)), workers=2)
    try:
        queue.add([("a", "x"), ("b", "x")])
        assert queue.wait_idle(90)
        assert sorted(drawn) == ["a", "b"]
    finally:
        queue.close()


def test_cards_for_later_wait_behind_every_other_card() -> None:
    queue, order, gate = _held_queue()
    try:
        queue.add([("deck-1", "x"), ("deck-2", "x")], later=True)  # one deal's deck ...
        queue.add([("hand-1", "x")])  # ... the next deal's hands ...
        queue.add([("page", "x"), ("deck-2", "x")], first=True)  # ... and a page showing a drawn deck card
        gate.set()
        assert queue.wait_idle(60)
        assert order == ["blocker", "page", "deck-2", "hand-1", "deck-1"]
    finally:
        queue.close()
