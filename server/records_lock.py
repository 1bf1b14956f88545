"""One referee per records file: the process that serves a records file holds a lock on it.

Two referees on one file each believe the matches in it are theirs: one marks the other's running
matches ABORTED at its start, flips finished ones back and breaks logins. So `serve` (and a referee
that `play-human` starts in its process) takes an exclusive lock on a sidecar file `<records>.lock`,
writes its PID and port there, and keeps it until it exits; the operating system drops the lock
when the process ends, however it ends. A second referee on the same file refuses in one line.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from rummy.private_files import private_folder


class RecordsInUse(RuntimeError):
    """Another process serves this records file."""


def lock_path(db_path: Path | str) -> Path:
    return Path(f"{db_path}.lock")


class RecordsLock:
    """Held while a referee serves `db_path`; `RecordsInUse` names the holder's PID and port."""

    def __init__(self, db_path: Path | str, port: int = 0) -> None:
        self.path = lock_path(db_path)
        private_folder(self.path.parent)
        handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(handle)
            os.close(handle)
            raise RecordsInUse(
                f"records file {db_path} is already served by {holder}; stop it or use another --db"
            ) from None
        self._handle: int | None = handle
        self.announce(port)

    def announce(self, port: int) -> None:
        """Write the holder's PID and port (a referee that picks a free port knows it only once it listens)."""
        if self._handle is not None:
            os.ftruncate(self._handle, 0)
            os.pwrite(self._handle, f"pid {os.getpid()} port {port}\n".encode(), 0)

    def release(self) -> None:
        if self._handle is not None:
            os.ftruncate(self._handle, 0)
            os.close(self._handle)  # closing the descriptor drops the lock
            self._handle = None

    def __enter__(self) -> RecordsLock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()


def _read_holder(handle: int) -> str:
    text = os.pread(handle, 200, 0).decode(errors="replace").split()
    if len(text) == 4 and text[0] == "pid" and text[2] == "port":
        return f"PID {text[1]} on port {text[3]}"
    return "another process (starting up)"
