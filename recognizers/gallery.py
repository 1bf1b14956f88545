"""The `local` recognizer's labelled pictures, in SQLite next to the label cache.

Each picture is stored as its landmark, the SHA-256 of its bytes (an exact repeat is known at
once), where it came from (`import`, or the recognizer that named it), the feature vectors of it
and of its augmented framings, and a bounded-size copy of the picture (recognizers/gallery_pictures.py),
so the gallery can be exported as labelled pictures by tag, for Custom Vision training. Counters
record how often the gallery answered and how many calls to the inner recognizer that saved, for
`rummy-vision recognizers stats`.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from recognizers.cache import default_cache_path, open_database
from recognizers.features import FEATURE_VERSION
from recognizers.gallery_pictures import Exported, bounded_copy


def default_gallery_path() -> Path:
    """`gallery.sqlite3` beside the label cache (the user cache directory)."""
    return default_cache_path().parent / "gallery.sqlite3"


class Gallery:
    def __init__(self, path: Path | str | None = None) -> None:
        """`path=None` uses the default location; `path=":memory:"` keeps nothing on disk."""
        self.path = default_gallery_path() if path is None else path
        self._lock = threading.Lock()
        self._db = open_database(self.path)
        self._db.executescript(
            "CREATE TABLE IF NOT EXISTS pictures ("
            " id INTEGER PRIMARY KEY, landmark TEXT NOT NULL, content_hash TEXT NOT NULL UNIQUE,"
            " source TEXT NOT NULL, version INTEGER NOT NULL, vectors BLOB NOT NULL, dims INTEGER NOT NULL,"
            " added_at REAL NOT NULL);"
            "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
        )
        columns = {str(row[1]) for row in self._db.execute("PRAGMA table_info(pictures)")}
        if "picture" not in columns:  # a gallery from before pictures were kept: its entries stay without one
            self._db.execute("ALTER TABLE pictures ADD COLUMN picture BLOB")
            self._db.execute("ALTER TABLE pictures ADD COLUMN picture_suffix TEXT")
        self._db.commit()
        # Every stored vector in one growing array (rows beyond _count are spare room), loaded lazily.
        self._rows: np.ndarray | None = None
        self._count = 0
        self._labels: list[str] = []

    def __repr__(self) -> str:
        return f"Gallery(path={str(self.path)!r})"

    def __len__(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM pictures WHERE version = ?", (FEATURE_VERSION,)).fetchone()
        return int(row[0])

    def add(
        self, landmark: str, content_hash: str, vectors: np.ndarray, source: str, picture: bytes | None = None
    ) -> bool:
        """Store a labelled picture's vectors (one row per framing) and a bounded copy of `picture`.

        False if these bytes are already in.
        """
        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        kept = bounded_copy(picture) if picture is not None else None
        data, suffix = kept if kept is not None else (None, None)
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO pictures (landmark, content_hash, source, version, vectors, dims, added_at,"
                " picture, picture_suffix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (landmark, content_hash, source, FEATURE_VERSION, rows.tobytes(), rows.shape[1], time.time())
                + (data, suffix),
            )
            self._db.commit()
            added = cursor.rowcount > 0
            if added and self._rows is not None:
                self._append(rows, landmark)
        return added

    def _append(self, rows: np.ndarray, landmark: str) -> None:
        assert self._rows is not None
        if self._count and rows.shape[1] != self._rows.shape[1]:
            return  # vectors of another feature layout cannot be compared; they stay on disk only
        needed = self._count + len(rows)
        if self._rows.shape[0] < needed or self._rows.shape[1] != rows.shape[1]:
            grown = np.zeros((max(needed, 2 * self._rows.shape[0], 64), rows.shape[1]), dtype=np.float32)
            if self._count:
                grown[: self._count] = self._rows[: self._count]
            self._rows = grown
        self._rows[self._count : needed] = rows
        self._count = needed
        self._labels.extend([landmark] * len(rows))

    def landmark_of(self, content_hash: str) -> str | None:
        """The landmark of a picture with exactly these bytes, if the gallery holds it."""
        with self._lock:
            row = self._db.execute("SELECT landmark FROM pictures WHERE content_hash = ?", (content_hash,)).fetchone()
        return None if row is None else str(row[0])

    def matrix(self) -> tuple[np.ndarray, list[str]]:
        """Every stored vector (one row each) and the landmark of each row."""
        with self._lock:
            if self._rows is None:
                self._rows = np.zeros((0, 0), dtype=np.float32)
                stored = self._db.execute(
                    "SELECT landmark, vectors, dims FROM pictures WHERE version = ? ORDER BY id", (FEATURE_VERSION,)
                ).fetchall()
                for landmark, blob, dims in stored:
                    self._append(np.frombuffer(blob, dtype=np.float32).reshape(-1, dims), str(landmark))
            return self._rows[: self._count], self._labels

    def pictures_by_landmark(self) -> dict[str, dict[str, int]]:
        """{landmark: {source: pictures}}."""
        with self._lock:
            rows = self._db.execute(
                "SELECT landmark, source, COUNT(*) FROM pictures WHERE version = ? GROUP BY landmark, source",
                (FEATURE_VERSION,),
            ).fetchall()
        found: dict[str, dict[str, int]] = {}
        for landmark, source, count in rows:
            found.setdefault(str(landmark), {})[str(source)] = int(count)
        return found

    def _select(self, columns: str, landmark: str | None) -> list[tuple[Any, ...]]:
        """`columns` of every stored picture, or of one landmark's, oldest first."""
        query = f"SELECT {columns} FROM pictures"
        with self._lock:
            if landmark is None:
                return list(self._db.execute(query + " ORDER BY id").fetchall())
            return list(self._db.execute(query + " WHERE landmark = ? ORDER BY id", (landmark,)).fetchall())

    def pictures(self, landmark: str | None = None) -> list[dict[str, object]]:
        """Every stored picture, oldest first: id, landmark, source, content hash, when it was added."""
        rows = self._select("id, landmark, source, content_hash, added_at", landmark)
        return [
            {"Id": int(row[0]), "Landmark": str(row[1]), "Source": str(row[2]), "Hash": str(row[3]), "AddedAt": row[4]}
            for row in rows
        ]

    def export_pictures(self, folder: Path, landmark: str | None = None) -> Exported:
        """Write every kept picture (or one landmark's) as FOLDER/<landmark>/<hash>.<ext>; files already there stay.

        The file name is the picture's content hash, so exporting twice writes nothing new.
        """
        exported = Exported(folder)
        for name, content_hash, picture, suffix in self._select(
            "landmark, content_hash, picture, picture_suffix", landmark
        ):
            tag = str(name)
            if picture is None:
                exported.without_picture[tag] = exported.without_picture.get(tag, 0) + 1
                continue
            target = folder / tag.replace("/", "-") / f"{str(content_hash)[:24]}.{suffix}"
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                partial = target.with_name(target.name + ".partial")
                partial.write_bytes(bytes(picture))
                partial.replace(target)  # an interrupted export leaves no half picture under a picture's name
            exported.files.setdefault(tag, []).append(target)
        return exported

    def forget(self, ids: list[int]) -> int:
        """Remove the pictures with these ids; returns how many were removed (the vectors reload on next use)."""
        with self._lock:
            removed = 0
            for picture_id in ids:
                removed += self._db.execute("DELETE FROM pictures WHERE id = ?", (picture_id,)).rowcount
            self._db.commit()
            self._rows, self._count, self._labels = None, 0, []
        return removed

    def bump(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                if value:
                    self._db.execute(
                        "INSERT INTO counters (name, value) VALUES (?, ?)"
                        " ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                        (name, value),
                    )
            self._db.commit()

    def counters(self) -> dict[str, int]:
        with self._lock:
            return {str(name): int(value) for name, value in self._db.execute("SELECT name, value FROM counters")}

    def close(self) -> None:
        with self._lock:
            self._db.close()
