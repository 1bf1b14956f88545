"""The processes a user's bot file started, including those that left its process group.

Killing the bot's process group stops its ordinary children, but a child that calls `os.setsid()` starts a
session (and group) of its own and outlived every match (2 a match in `play`, 2 a round in `match`).
On Linux, /proc shows each process's parent and, for this user's processes, its environment: a process
belongs to the bot when it descends from the worker, or when its environment holds the mark the worker
was started with (so an orphan adopted by init is found too, as long as it kept its environment).
Elsewhere this finds nothing and the process group is all that is stopped.
"""

from __future__ import annotations

import os
from pathlib import Path

MARK_VARIABLE = "RUMMY_VISION_BOT_RUN"


def _processes() -> dict[int, int]:
    """{pid: parent pid} of every process /proc shows."""
    parents = {}
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else ():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and fields[1].isdigit():
            parents[int(entry.name)] = int(fields[1])
    return parents


def _marked(pid: int, mark: bytes) -> bool:
    try:
        return mark in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:  # another user's process, or gone
        return False


def bot_descendants(root: int, mark: str) -> set[int]:
    """The live processes below `root`, and every process of ours whose environment holds `mark`
    ("NAME=value"); never `root` itself nor this process."""
    parents = _processes()
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    stack = list(children.get(root, ()))
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack.extend(children.get(pid, ()))
    wanted = mark.encode()
    uid = os.getuid()
    for pid in parents:
        if pid in found or pid == root:
            continue
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
        except OSError:
            continue
        if _marked(pid, wanted):
            found.add(pid)
    found.discard(os.getpid())
    found.discard(root)
    return found
