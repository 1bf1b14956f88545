"""Answers already paid for: in memory (cachetools) and on disk (SQLite), keyed by backend and image URL.

Only real answers from a service go to disk (including "no landmark here": asking again would
cost a call and say the same). Failures (outage, bad key, rate limit) are remembered in memory
for `failure_ttl` seconds only, so a round does not ask twice for the same image but a later
round tries again.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import platformdirs
from cachetools import LRUCache, TTLCache

from recognizers.observation import Observation

APP_NAME = "rummy-vision"
DEFAULT_FAILURE_TTL = 300.0  # about one round of play


def default_cache_path() -> Path:
    """`labels.sqlite3` in the user cache directory (honours XDG_CACHE_HOME on Linux)."""
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "labels.sqlite3"


class LabelCache:
    def __init__(
        self,
        path: Path | str | None = None,
        *,
        memory_size: int = 4096,
        failure_ttl: float = DEFAULT_FAILURE_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`path=None` uses the default location; `path=":memory:"` keeps nothing on disk."""
        self.path = default_cache_path() if path is None else path
        if str(self.path) != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS observations ("
            " backend TEXT NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL, stored_at REAL NOT NULL,"
            " PRIMARY KEY (backend, url))"
        )
        self._db.commit()
        self._memory: LRUCache[tuple[str, str], Observation] = LRUCache(maxsize=memory_size)
        self._failures: TTLCache[tuple[str, str], str] = TTLCache(maxsize=memory_size, ttl=failure_ttl, timer=clock)

    def __repr__(self) -> str:
        return f"LabelCache(path={str(self.path)!r})"

    def get(self, backend: str, url: str) -> Observation | None:
        key = (backend, url)
        with self._lock:
            if key in self._memory:
                return self._memory[key]
            row = self._db.execute(
                "SELECT payload FROM observations WHERE backend = ? AND url = ?", (backend, url)
            ).fetchone()
        if row is None:
            return None
        try:
            observation = Observation.from_json(row[0])
        except (ValueError, TypeError, KeyError):
            return None  # a damaged row is a miss; the next answer overwrites it
        with self._lock:
            self._memory[key] = observation
        return observation

    def put(self, backend: str, url: str, observation: Observation) -> None:
        key = (backend, url)
        with self._lock:
            self._memory[key] = observation
            self._failures.pop(key, None)
            self._db.execute(
                "INSERT OR REPLACE INTO observations (backend, url, payload, stored_at) VALUES (?, ?, ?, ?)",
                (backend, url, observation.to_json(), time.time()),
            )
            self._db.commit()

    def recent_failure(self, backend: str, url: str) -> str | None:
        """The reason of a failure for this image within the last `failure_ttl` seconds, if any."""
        with self._lock:
            return self._failures.get((backend, url))

    def put_failure(self, backend: str, url: str, reason: str) -> None:
        with self._lock:
            self._failures[(backend, url)] = reason

    def items(self, backend: str | None = None) -> Iterator[tuple[str, str, Observation]]:
        """Every stored (backend, url, observation); the stub recognizer replays them offline."""
        with self._lock:
            if backend is None:
                rows = self._db.execute("SELECT backend, url, payload FROM observations").fetchall()
            else:
                rows = self._db.execute(
                    "SELECT backend, url, payload FROM observations WHERE backend = ?", (backend,)
                ).fetchall()
        for row_backend, url, payload in rows:
            try:
                yield row_backend, url, Observation.from_json(payload)
            except (ValueError, TypeError, KeyError):
                continue

    def close(self) -> None:
        with self._lock:
            self._db.close()
