"""One Azure rate limit for every match and process of a user, with the month's count, in SQLite.

Every call takes a slot in one table (`calls`) under an immediate transaction, so two bots in two
processes on one key never send more than the tier allows between them; the calendar month's count
(UTC) is kept beside it and survives restarts. A warning goes to the log when 80%, 90% and 99% of a
monthly quota are used; once it is used up no slot is given until the month turns, and the reason
says so (the cards stay unknown, or go to the local gallery when `local:azure` is used).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import platformdirs

from recognizers.failures import ApiFailure
from recognizers.tiers import Tier

log = logging.getLogger("recognizers")
WARN_AT = (0.8, 0.9, 0.99)


def default_limiter_path() -> Path:
    return Path(platformdirs.user_data_dir("rummy-vision")) / "azure-calls.sqlite3"


def month_of(epoch_s: float) -> str:
    return time.strftime("%Y-%m", time.gmtime(epoch_s))


class SharedRateLimiter:
    """The RateLimiter interface (`acquire`, `wait_time`, `calls`, `period`) over a shared SQLite file.

    `clock` is wall time (epoch seconds): other processes share the table, so a monotonic clock
    would not do. `key_name` separates the counts of different keys or services in one file.
    """

    def __init__(
        self,
        tier: Tier,
        path: str | Path | None = None,
        *,
        key_name: str = "azure",
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.tier = tier
        self.calls = tier.calls
        self.period = tier.period_s
        self.key_name = key_name
        self.path = Path(path) if path is not None else default_limiter_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._warned: set[float] = set()
        with contextlib.closing(self._connect()) as db:
            db.execute("CREATE TABLE IF NOT EXISTS calls (key_name TEXT NOT NULL, at REAL NOT NULL)")
            db.execute("CREATE INDEX IF NOT EXISTS calls_at ON calls (key_name, at)")
            db.execute(
                "CREATE TABLE IF NOT EXISTS monthly (key_name TEXT NOT NULL, month TEXT NOT NULL, "
                "count INTEGER NOT NULL, PRIMARY KEY (key_name, month))"
            )

    def __repr__(self) -> str:
        return f"SharedRateLimiter({self.tier.describe()}, {self.path})"

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)

    def used_this_month(self) -> int:
        with contextlib.closing(self._connect()) as db:
            return self._used(db, self._clock())

    def wait_time(self) -> float:
        with self._lock, contextlib.closing(self._connect()) as db:
            return self._wait(db, self._clock())

    def _wait(self, db: sqlite3.Connection, now: float) -> float:
        db.execute("DELETE FROM calls WHERE key_name = ? AND at <= ?", (self.key_name, now - self.period))
        rows = db.execute(
            "SELECT at FROM calls WHERE key_name = ? ORDER BY at LIMIT ?", (self.key_name, self.calls)
        ).fetchall()
        if len(rows) < self.calls:
            return 0.0
        return float(rows[0][0]) + self.period - now

    def acquire(self, max_wait: float | None = None) -> bool:
        """Take a slot (True), waiting up to `max_wait`; False if the wait would be longer.

        Raises ApiFailure when the month's quota is used up (no wait can help before the month turns).
        """
        while True:
            with self._lock:
                db = self._connect()
                try:
                    db.execute("BEGIN IMMEDIATE")  # one writer at a time, across processes
                    now = self._clock()
                    used = self._used(db, now)
                    if self.tier.monthly is not None and used >= self.tier.monthly:
                        db.execute("ROLLBACK")
                        raise ApiFailure(
                            f"azure {self.tier.name} tier: this month's {self.tier.monthly:,} calls are used up "
                            f"(counted in {self.path}); cards stay unknown until the month turns",
                            remember=False,
                            pause=3600.0,
                        )
                    wait = self._wait(db, now)
                    if wait <= 0:
                        db.execute("INSERT INTO calls (key_name, at) VALUES (?, ?)", (self.key_name, now))
                        db.execute(
                            "INSERT INTO monthly (key_name, month, count) VALUES (?, ?, 1) "
                            "ON CONFLICT (key_name, month) DO UPDATE SET count = count + 1",
                            (self.key_name, month_of(now)),
                        )
                        db.execute("COMMIT")
                        self._warn(used + 1)
                        return True
                    db.execute("ROLLBACK")
                finally:
                    db.close()
            if max_wait is not None and wait > max_wait:
                return False
            self._sleep(wait)
            if max_wait is not None:
                max_wait -= wait

    def _used(self, db: sqlite3.Connection, now: float) -> int:
        row = db.execute(
            "SELECT count FROM monthly WHERE key_name = ? AND month = ?", (self.key_name, month_of(now))
        ).fetchone()
        return int(row[0]) if row else 0

    def _warn(self, used: int) -> None:
        quota = self.tier.monthly
        if quota is None:
            return
        crossed = {share for share in WARN_AT if used >= share * quota} - self._warned
        if crossed:
            self._warned |= crossed
            left = quota - used
            log.warning("azure %s tier: %d of this month's %d calls used (%d left)", self.tier.name, used, quota, left)
