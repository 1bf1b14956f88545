"""Answers already paid for: in memory (cachetools) and on disk (SQLite), keyed by backend and image URL.

When the recognizer had to send the picture's bytes (a URL the service cannot reach), the bytes'
SHA-256 is stored beside the answer, so the same picture at another URL costs no second call.

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


def open_database(path: Path | str) -> sqlite3.Connection:
    """A SQLite connection usable from any thread (callers hold their own lock); ":memory:" keeps nothing
    on disk, any other path gets its folder created."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(str(path), check_same_thread=False)


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
        self._lock = threading.Lock()
        self._db = open_database(self.path)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS observations ("
            " backend TEXT NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL, stored_at REAL NOT NULL,"
            " PRIMARY KEY (backend, url))"
        )
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(observations)")}
        if "content_hash" not in columns:  # caches written before pictures were sent as bytes
            self._db.execute("ALTER TABLE observations ADD COLUMN content_hash TEXT")
        self._db.execute("CREATE INDEX IF NOT EXISTS observations_by_hash ON observations (backend, content_hash)")
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

    def put(self, backend: str, url: str, observation: Observation, content_hash: str | None = None) -> None:
        key = (backend, url)
        with self._lock:
            self._memory[key] = observation
            self._failures.pop(key, None)
            self._db.execute(
                "INSERT OR REPLACE INTO observations (backend, url, payload, stored_at, content_hash)"
                " VALUES (?, ?, ?, ?, ?)",
                (backend, url, observation.to_json(), time.time(), content_hash),
            )
            self._db.commit()

    def get_by_hash(self, backend: str, content_hash: str) -> Observation | None:
        """An answer already given for a picture with these bytes, at whatever URL."""
        with self._lock:
            row = self._db.execute(
                "SELECT payload FROM observations WHERE backend = ? AND content_hash = ? LIMIT 1",
                (backend, content_hash),
            ).fetchone()
        if row is None:
            return None
        try:
            return Observation.from_json(row[0])
        except (ValueError, TypeError, KeyError):
            return None

    def content_hash(self, backend: str, url: str) -> str | None:
        """The SHA-256 of the bytes sent for `url`, when bytes were sent."""
        with self._lock:
            row = self._db.execute(
                "SELECT content_hash FROM observations WHERE backend = ? AND url = ?", (backend, url)
            ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

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
