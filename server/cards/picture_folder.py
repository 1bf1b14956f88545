"""The pages' small card pictures kept on disk beside the records file, so a restarted server (or one showing
a match another process recorded) answers with pictures drawn before instead of drawing them on request.

Each picture is one file, named by a hash of its token and variant, holding a check value and the WebP bytes.
The check value covers the drawing code, the token, the variant and the bytes: a file cut short, altered,
copied from another card or drawn by other drawing code does not match, and is deleted and drawn again,
never served. Files are written to a temporary name and renamed, so a reader never sees half a file. The
folder is bounded in bytes: past the bound, the files used longest ago go first.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import threading
import time
from pathlib import Path

log = logging.getLogger("server.cards")

# A small picture is 2-4 KB: 128 MB holds both variants of some 600 deals of 40 cards.
FOLDER_BYTES = 128 * 1024 * 1024
SUFFIX = ".card"
CHECK_BYTES = 32
TEMP_PREFIX = ".drawing-"
STALE_TEMP_S = 600.0  # a temporary file this old was left by a process that stopped while writing
# Once past the bound, files are removed down to this share of it, so a full folder is not swept on every write.
KEEP_AFTER_SWEEP = 0.9
# The modules whose code decides a drawn card's pixels: pictures drawn by other code are not served.
DRAWING_MODULES = ("caption", "drawing", "families", "halls", "landscapes", "render", "towers", "variation")


def drawing_code_digest() -> bytes:
    """A digest of the card-drawing code, so pictures drawn by an older version of it are drawn again."""
    digest = hashlib.blake2b(digest_size=16)
    here = Path(__file__).parent
    for name in DRAWING_MODULES:
        digest.update((here / f"{name}.py").read_bytes())
    return digest.digest()


def folder_beside(records_path: Path | str) -> Path | None:
    """The pictures' folder of a records file (`records.sqlite3` -> `records.sqlite3.cards`); None for an
    in-memory database."""
    text = str(records_path)
    if text == ":memory:" or text.startswith("file:"):
        return None
    path = Path(records_path)
    return path.with_name(path.name + ".cards")


class PictureFolder:
    """Small card pictures per (token, captioned) in one folder, bounded to `max_bytes` on disk.

    Every failure to read or write (a full disk, a read-only folder) is logged and answered as a miss: the
    picture is drawn instead. Safe to use from several threads; several processes may share the folder.
    """

    def __init__(self, folder: Path, *, max_bytes: int = FOLDER_BYTES, code: bytes | None = None) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self._code = drawing_code_digest() if code is None else code
        self._lock = threading.Lock()
        self._bytes: int | None = None  # this process's running total, from a scan of the folder
        self.rejected = 0  # files found broken or foreign (and deleted), for the tests
        self._warned = False

    def get(self, token: str, captioned: bool) -> bytes | None:
        path = self.path_of(token, captioned)
        try:
            content = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            self._warn(f"cannot read {path}: {error}")
            return None
        check, data = content[:CHECK_BYTES], content[CHECK_BYTES:]
        if not data or check != self._check(token, captioned, data):
            with self._lock:
                self.rejected += 1
            log.warning("card picture %s is broken or not this card's: drawn again", path.name)
            path.unlink(missing_ok=True)
            return None
        with contextlib.suppress(OSError):  # used now: the bound removes the pictures used longest ago first
            os.utime(path)
        return data

    def put(self, token: str, captioned: bool, data: bytes) -> None:
        content = self._check(token, captioned, data) + data
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=self.folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(content)
                os.replace(temp, self.path_of(token, captioned))
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as error:
            self._warn(f"cannot keep card pictures in {self.folder}: {error}")
            return
        with self._lock:
            if self._bytes is None:
                self._bytes = self._scan_total()
            else:
                self._bytes += len(content)
            over = self._bytes > self.max_bytes
        if over:
            self.sweep()

    def sweep(self) -> None:
        """Remove the pictures used longest ago until the folder holds at most KEEP_AFTER_SWEEP of its bound."""
        with self._lock:
            files = []
            now = time.time()
            for entry in self._entries():
                try:
                    stat = entry.stat()
                except OSError:  # removed meanwhile by another process sharing the folder
                    continue
                if entry.name.startswith(TEMP_PREFIX):
                    if now - stat.st_mtime > STALE_TEMP_S:
                        Path(entry.path).unlink(missing_ok=True)
                    continue
                files.append((stat.st_mtime, stat.st_size, entry.path))
            total = sum(size for _, size, _ in files)
            keep = self.max_bytes * KEEP_AFTER_SWEEP
            for _, size, path in sorted(files):
                if total <= keep:
                    break
                Path(path).unlink(missing_ok=True)
                total -= size
            self._bytes = total

    def total_bytes(self) -> int:
        """The bytes of pictures in the folder now (a scan)."""
        return self._scan_total()

    def _scan_total(self) -> int:
        total = 0
        for entry in self._entries():
            try:
                total += entry.stat().st_size if entry.name.endswith(SUFFIX) else 0
            except OSError:
                continue
        return total

    def _entries(self) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(self.folder) as entries:
                return [entry for entry in entries if entry.is_file()]
        except OSError:
            return []

    def path_of(self, token: str, captioned: bool) -> Path:
        """The file of a card's picture (named by a hash: the folder's listing names no token)."""
        name = hashlib.blake2b(f"{token}\0{int(captioned)}".encode(), digest_size=16).hexdigest()
        return self.folder / f"{name}{SUFFIX}"

    def _check(self, token: str, captioned: bool, data: bytes) -> bytes:
        digest = hashlib.blake2b(self._code, digest_size=CHECK_BYTES)
        digest.update(f"\0{token}\0{int(captioned)}\0".encode())
        digest.update(data)
        return digest.digest()

    def _warn(self, message: str) -> None:
        if not self._warned:  # once: a read-only folder would otherwise log every picture
            self._warned = True
            log.warning("%s; drawing card pictures instead", message)
