"""The referee's worker threads, kept apart so that no stranger's coach can starve a house bot or a picture.

Everything CPU-bound once ran in asyncio's one small default pool (6 threads here): with 64 coached /play
games at `"TimeMs": 60000`, fresh pictures took 93-99 s instead of 0.3-0.6 s and `housebot-expert` lost on
time 23 times, because each coach held a thread for up to a minute and the house bots' moves and the
pictures queued behind them. Now:

- house bots think in a pool of their own, as many threads as there can be house seats at once, so a
  house bot's move never waits for a thread;
- coaches (and the viewer's reviews) think in COACH_THREADS threads, one at a time here, at a lower
  priority (a nice value of COACH_NICENESS per thread, on Linux): their search code releases the GIL, so
  the operating system gives the house bots and the pictures the CPU first, and all coaches together
  never use more than one core whatever the number of games;
- while more than BUSY_QUEUE coach jobs wait, each new one thinks at most BUSY_TIME_MS (the total coach
  time is capped, so every game's advice still comes in reasonable time);
- pictures and the viewer's steps keep asyncio's default pool, which nothing long-running uses any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

COACH_THREADS = 1
COACH_NICENESS = 10
HOUSE_THREADS = 128  # more than the house seats of every game the hall and the arena can run at once
BUSY_QUEUE = 2
BUSY_TIME_MS = 5_000


def _lower_priority() -> None:
    """Raise the calling thread's nice value (Linux applies setpriority to one thread by its id)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), COACH_NICENESS)


class _Pools:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._coach: ThreadPoolExecutor | None = None
        self._house: ThreadPoolExecutor | None = None
        self.coach_jobs: list[Future[object]] = []

    def coach(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._coach is None:
                self._coach = ThreadPoolExecutor(COACH_THREADS, thread_name_prefix="coach", initializer=_lower_priority)
            return self._coach

    def house(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._house is None:
                self._house = ThreadPoolExecutor(HOUSE_THREADS, thread_name_prefix="house-bot")
            return self._house

    def coach_waiting(self) -> int:
        with self._lock:
            self.coach_jobs = [job for job in self.coach_jobs if not job.done()]
            return sum(not job.running() for job in self.coach_jobs)


POOLS = _Pools()


async def in_house_pool(work: Callable[[], T]) -> T:
    """`work()` in a house bot's thread (never queued behind coaches or pictures)."""
    return await asyncio.get_running_loop().run_in_executor(POOLS.house(), work)


def coach_busy() -> bool:
    """Whether so many coach jobs wait that a new one should think briefly (BUSY_TIME_MS)."""
    return POOLS.coach_waiting() > BUSY_QUEUE


async def in_coach_pool(work: Callable[[], T]) -> T:
    """`work()` in the coaches' low-priority thread, after the coach jobs queued before it."""
    job = POOLS.coach().submit(work)
    with POOLS._lock:
        POOLS.coach_jobs.append(job)  # type: ignore[arg-type]
    return await asyncio.wrap_future(job)
