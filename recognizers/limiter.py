"""Client-side rate limit: at most N calls in any sliding window (default 20 a minute, Azure's free tier).

The clock and the sleep are injectable so tests run on a fake clock and never wait.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

DEFAULT_CALLS_PER_MINUTE = 20


class RateLimiter:
    def __init__(
        self,
        calls: int = DEFAULT_CALLS_PER_MINUTE,
        period: float = 60.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if calls < 1 or period <= 0:
            raise ValueError("a rate limit needs calls >= 1 and period > 0")
        self.calls = calls
        self.period = period
        self._clock = clock
        self._sleep = sleep
        self._sent: deque[float] = deque()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RateLimiter({self.calls} calls per {self.period:g}s)"

    def wait_time(self) -> float:
        """Seconds until a call may go out (0 when one may go now)."""
        with self._lock:
            return self._wait_time(self._clock())

    def _wait_time(self, now: float) -> float:
        while self._sent and self._sent[0] <= now - self.period:
            self._sent.popleft()
        if len(self._sent) < self.calls:
            return 0.0
        return self._sent[0] + self.period - now

    def acquire(self, max_wait: float | None = None) -> bool:
        """Take a slot, sleeping until one is free; False (no slot taken) if that means waiting over `max_wait`."""
        while True:
            with self._lock:
                now = self._clock()
                wait = self._wait_time(now)
                if wait <= 0:
                    self._sent.append(now)
                    return True
            if max_wait is not None and wait > max_wait:
                return False
            self._sleep(wait)
            if max_wait is not None:
                max_wait -= wait
