"""Replay files sent to the viewer, kept in the records file (table `replay_files`), so they outlast a restart.

    replay_files(file_id INTEGER PRIMARY KEY, digest TEXT UNIQUE  -- sha256 of the kept lines: a file sent
                 twice is kept once
                 name TEXT, game_id INTEGER, player0 TEXT, player1 TEXT  -- the file's bot, its opponent
                 status TEXT          -- the end line's status, or INCOMPLETE when the file has none
                 rounds_won0 INTEGER, rounds_won1 INTEGER, started_at REAL, uploaded_at REAL,
                 lines TEXT)          -- JSON list of the kept lines (server/replay_upload.py says which)

The table is made by server/storage/schema.py with the rest of the records file.
Only what `server.replay_upload.cleaned_lines` kept is stored: never a password, a key or a free-text note.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from typing import Any

from cachetools import LRUCache

MAX_FILES = 1000  # kept at once; some must be removed before more are taken
MAX_STORED_BYTES = 512 * 1024 * 1024  # of kept lines in all (a file's are at most server.replay_upload's limit)

SUMMARY_COLUMNS = "file_id, name, game_id, player0, player1, status, rounds_won0, rounds_won1, started_at, uploaded_at"


class StoreFull(Exception):
    """MAX_FILES, or MAX_STORED_BYTES, are kept already."""


class ReplayFileStore:
    def __init__(self, db: sqlite3.Connection) -> None:
        """`db`: the records file, from server.storage.records.connect (which made the table)."""
        self.db = db
        self._lines: LRUCache[int, list[dict[str, Any]]] = LRUCache(maxsize=16)
        self._lock = threading.Lock()

    def add(self, name: str, lines: list[dict[str, Any]], now: float) -> tuple[int, bool]:
        """Keep a file's (cleaned) lines: (its file id, True if the same lines were kept before)."""
        text = json.dumps(lines, separators=(",", ":"), sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        row = self.db.execute("SELECT file_id FROM replay_files WHERE digest=?", (digest,)).fetchone()
        if row is not None:
            return int(row["file_id"]), True
        count, stored = self.db.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(lines)), 0) FROM replay_files").fetchone()
        if count >= MAX_FILES or stored + len(text) > MAX_STORED_BYTES:
            raise StoreFull(
                f"the viewer keeps at most {MAX_FILES} replay files and {MAX_STORED_BYTES // 2**20} MB of them; it has"
                f" {count} ({stored // 2**20} MB): remove some first (DELETE /viewer/api/files/ID)"
            )
        header = lines[0]
        states = [line["gamestate"] for line in lines if line["type"] == "gamestate"]
        end = next((line for line in lines if line["type"] == "end"), None)
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO replay_files (digest, name, game_id, player0, player1, status, rounds_won0, rounds_won1,"
                " started_at, uploaded_at, lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    digest,
                    name,
                    header.get("game_id"),
                    header.get("bot_id") or "me",
                    header.get("opponent_id") or "opponent",
                    str(end["status"]) if end is not None else "INCOMPLETE",
                    int(states[-1].get("MyScore", 0)),
                    int(states[-1].get("OppScore", 0)),
                    header.get("t"),
                    now,
                    text,
                ),
            )
        return int(cursor.lastrowid or 0), False

    def summaries(self) -> list[dict[str, Any]]:
        rows = self.db.execute(f"SELECT {SUMMARY_COLUMNS} FROM replay_files ORDER BY file_id DESC").fetchall()
        return [_summary(row) for row in rows]

    def summary(self, file_id: int) -> dict[str, Any] | None:
        row = self.db.execute(f"SELECT {SUMMARY_COLUMNS} FROM replay_files WHERE file_id=?", (file_id,)).fetchone()
        return None if row is None else _summary(row)

    def lines(self, file_id: int) -> list[dict[str, Any]] | None:
        """The kept lines (read once, then from a small cache: they never change)."""
        with self._lock:
            if file_id in self._lines:
                return self._lines[file_id]
        row = self.db.execute("SELECT lines FROM replay_files WHERE file_id=?", (file_id,)).fetchone()
        if row is None:
            return None
        lines: list[dict[str, Any]] = json.loads(row["lines"])
        with self._lock:
            self._lines[file_id] = lines
        return lines

    def remove(self, file_id: int) -> bool:
        with self.db:
            removed = self.db.execute("DELETE FROM replay_files WHERE file_id=?", (file_id,)).rowcount
        with self._lock:
            self._lines.pop(file_id, None)
        return bool(removed)


def _summary(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "FileId": int(row["file_id"]),
        "Name": row["name"],
        "GameId": row["game_id"],
        "Players": [row["player0"], row["player1"]],
        "Status": row["status"],
        "RoundsWon": [int(row["rounds_won0"]), int(row["rounds_won1"])],
        "StartedAt": row["started_at"],
        "UploadedAt": row["uploaded_at"],
    }
