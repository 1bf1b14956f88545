"""What went wrong in a bot's move, in a form that travels: plain strings, so a worker process can build one too.

A `Fault` has a `key` (two faults with the same key are the same bug: the exception type and the line of
the user's file it came from, or a malformed-move message with its numbers blanked), a one-line
`summary`, and the formatted `traceback` from the user's code on ("" when there is none). `FaultLog`
keeps each distinct fault once, in the order first seen, with how often it happened, so a display can
show the first traceback in full and count the repeats.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Fault:
    key: str
    summary: str
    traceback: str = ""

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "reason": self.summary, "traceback": self.traceback}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        """Back from `to_json`, e.g. a fault a worker process sent over a pipe."""
        return cls(key=str(data["key"]), summary=str(data["reason"]), traceback=str(data.get("traceback") or ""))


def source_file(calculate_move: Callable[..., Any] | None) -> str | None:
    """The file a bot's calculate_move is defined in (the user's file for an arena editor bot)."""
    code = getattr(calculate_move, "__code__", None) or getattr(
        getattr(calculate_move, "__func__", None), "__code__", None
    )
    return None if code is None else str(code.co_filename)


def fault_from_exception(error: BaseException, *, user_file: str | None = None) -> Fault:
    """The exception with its traceback from the first frame in `user_file` on (all frames if none is there)."""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [index for index, frame in enumerate(frames) if user_file and _same(frame.filename, user_file)]
    shown = frames[mine[0] :] if mine else frames
    where = frames[mine[-1]] if mine else (frames[-1] if frames else None)
    at = f" at {Path(where.filename).name}:{where.lineno}" if where is not None else ""
    kind = type(error).__name__
    text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(shown))
    text += "".join(traceback.format_exception_only(type(error), error))
    key = f"{kind}{at}" if where is not None else f"{kind}: {error}"
    return Fault(key=key, summary=f"calculate_move raised {kind}: {error}{at}", traceback=text.rstrip("\n"))


def fault_from_problem(summary: str) -> Fault:
    """A fault without an exception (a malformed move, an overrun): the same message is the same fault,
    whatever card ids or timings it names."""
    return Fault(key=re.sub(r"\d+(\.\d+)?", "N", summary), summary=summary)


class FaultLog:
    """Distinct faults in the order first seen, each with its count."""

    def __init__(self, faults: Iterable[Fault] = ()) -> None:
        self._first: dict[str, Fault] = {}
        self._count: dict[str, int] = {}
        for fault in faults:
            self.add(fault)

    def add(self, fault: Fault) -> bool:
        """Count the fault; True the first time its key is seen (show it in full then)."""
        first = fault.key not in self._first
        if first:
            self._first[fault.key] = fault
        self._count[fault.key] = self._count.get(fault.key, 0) + 1
        return first

    def __len__(self) -> int:
        return sum(self._count.values())

    def entries(self) -> list[tuple[Fault, int]]:
        return [(fault, self._count[key]) for key, fault in self._first.items()]

    def to_json(self) -> list[dict[str, Any]]:
        return [{**fault.to_json(), "count": count} for fault, count in self.entries()]


def _same(first: str, second: str) -> bool:
    try:
        return Path(first).resolve() == Path(second).resolve()
    except OSError:
        return first == second
