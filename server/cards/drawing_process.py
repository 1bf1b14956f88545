"""Card pictures are drawn in processes of their own, not in the server's threads (issue 41).

In the server, coaches and house bots search in Python-level loops that hold the GIL most of the time;
drawing a card (Pillow's many short steps, each giving the GIL back and waiting to take it again) then
waited behind them at every step, and a fresh /play page's pictures took up to 20 s with 8 coaches at
their maximum. A separate process has its own GIL, so a picture takes its drawing time whatever the
searches do. Should the process be unusable (it cannot start, or it died), the calling thread draws.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

T = TypeVar("T")

# A fresh page shows up to about 20 cards at some 50 ms of CPU each: two processes draw them on both cores.
PROCESSES = 2

log = logging.getLogger("server.cards")

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = False
_enabled = False  # only `serve` draws in a process; tests and `match`'s card host draw in their own threads


def _exit_with(parent: int) -> None:
    """In the drawing process: exit once the server has gone (a stopped server may not shut its pool down)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()


def _executor() -> ProcessPoolExecutor | None:
    global _pool
    with _lock:
        if _pool is None and _enabled and not _broken:
            # spawn, not fork: the server has threads (a forked child could inherit a held lock)
            spawn = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(PROCESSES, mp_context=spawn, initializer=_exit_with, initargs=(os.getpid(),))
        return _pool


def _give_up(error: BaseException) -> None:
    global _pool, _broken
    log.warning("the card drawing process is unusable (%s): cards are drawn in the server's threads", error)
    with _lock:
        _broken, pool, _pool = True, _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def drawn(work: Callable[..., T], *args: object) -> T:
    """`work(*args)` in the drawing process (waited for), or here if that process cannot be used."""
    pool = _executor()
    if pool is not None:
        try:
            return pool.submit(work, *args).result()
        except (BrokenProcessPool, OSError, RuntimeError) as error:
            _give_up(error)
    return work(*args)


def stop() -> None:
    """Shut the drawing process down (when `serve` stops); later pictures are drawn in threads."""
    global _pool, _enabled
    with _lock:
        _enabled, pool, _pool = False, _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _ready() -> bool:
    import server.cards.render  # noqa: F401 - Pillow and the scenes, loaded before the first card

    return True


def start() -> None:
    """Start the drawing processes now (at `serve` start), so that the first page does not wait for it."""
    global _enabled
    with _lock:
        _enabled = True
    pool = _executor()
    if pool is not None:
        try:
            for ready in [pool.submit(_ready) for _ in range(PROCESSES)]:
                ready.result(timeout=120)
        except Exception as error:  # noqa: BLE001 - any failure: draw in threads instead
            _give_up(error)
