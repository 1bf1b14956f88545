"""Files only their owner may read: the records file, its admin token, its lock.

Other users of the machine must neither read them (a running game's deck order, password hashes, the
admin token) nor plant them: a file or a symbolic link another user made first at the same path would
otherwise receive our secrets, or hand us theirs. So a folder made for them is 0700, a file is created
0600 with O_EXCL and O_NOFOLLOW, and a file read back must be a regular file of ours that nobody else
can read or write.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


class NotPrivate(OSError):
    """The path is not a private file of this user (another user's, a link, readable by others, ...)."""


def private_folder(folder: Path) -> None:
    """Make `folder` (and missing parents) 0700 when it does not exist yet; an existing folder is left as is."""
    if not folder.exists():
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)


def create_private(path: Path, data: bytes) -> None:
    """Write `data` to a new file at `path`, 0600, replacing an older file of ours; never through a link and
    never into a file another user created there first (NotPrivate then)."""
    private_folder(path.parent)
    try:
        old = os.lstat(path)
    except FileNotFoundError:
        old = None
    if old is not None:
        if not stat.S_ISREG(old.st_mode) or old.st_uid != os.getuid():
            raise NotPrivate(f"{path} exists and is not a file of this user: remove it first")
        path.unlink()
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        raise NotPrivate(f"{path} was created by someone else meanwhile: remove it first") from None
    try:
        os.fchmod(handle, FILE_MODE)  # whatever the umask
        os.write(handle, data)
    finally:
        os.close(handle)


def ensure_private(path: Path) -> None:
    """Create an empty 0600 file at `path` unless one exists (SQLite gives the files it adds beside it, the
    journal and the WAL, the same mode), and take group and other access away from an existing file of
    ours; a file (or a link) another user put there is refused."""
    private_folder(path.parent)
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        link, target = os.lstat(path), os.stat(path)
        if link.st_uid != os.getuid() or target.st_uid != os.getuid():
            raise NotPrivate(f"{path} belongs to another user") from None
        if not stat.S_ISREG(target.st_mode):
            raise NotPrivate(f"{path} is not a regular file") from None
        if target.st_mode & 0o077:
            os.chmod(path, stat.S_IMODE(target.st_mode) & ~0o077)
        return
    os.fchmod(handle, FILE_MODE)
    os.close(handle)


def check_private(path: Path, status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise NotPrivate(f"{path} is not a regular file")
    if status.st_uid != os.getuid():
        raise NotPrivate(f"{path} belongs to another user")
    if status.st_mode & 0o077:
        raise NotPrivate(f"{path} may be read or written by other users (chmod 600 it)")


def read_private(path: Path, limit: int) -> bytes:
    """The contents of `path`, a regular file of this user that nobody else can read or write, at most
    `limit` bytes; NotPrivate (an OSError) otherwise. Never follows a symbolic link."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        status = os.fstat(handle)
        check_private(path, status)
        if status.st_size > limit:
            raise NotPrivate(f"{path} is larger than {limit} bytes")
        return os.read(handle, limit + 1)[:limit]
    finally:
        os.close(handle)
