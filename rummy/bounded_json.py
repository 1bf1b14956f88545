"""The one JSON reader for text from elsewhere: request bodies, replay files, a server's or a bot's answers.

Python's json module accepts what JSON has no room for and what the project cannot hold: NaN and Infinity,
numbers that overflow to them, integers far beyond SQLite's 64 bits (an OverflowError, a 500, once one
reaches a query), and nesting thousands deep (a RecursionError, not a ValueError, that every caller let
through). `loads` refuses all of them, and text longer than a caller's limit, with a ValueError whose
message quotes no more than an excerpt. Depth is checked on the text before anything is parsed.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 64  # the deepest line the project writes (a replay line) nests 6 levels
MAX_INT = 2**63 - 1  # SQLite's integer range
_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)  # possessive: no backtracking
_BRACKETS = re.compile(r"[\[\]{}]")


class JSONRefused(ValueError):
    """Text that is not JSON this project reads (malformed, too deep, too long, a number out of range)."""


def _excerpt(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _refuse_constant(name: str) -> Any:
    raise JSONRefused(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise JSONRefused(f"{_excerpt(text)} is too large for a JSON number here")
    return number


def _bounded_int(text: str) -> int:
    if len(text) > 20:
        raise JSONRefused(f"{_excerpt(text)} is too large an integer here")
    number = int(text)
    if not -MAX_INT - 1 <= number <= MAX_INT:
        raise JSONRefused(f"{_excerpt(text)} is too large an integer here")
    return number


def too_deep(text: str, max_depth: int) -> bool:
    """Whether lists and objects nest more than `max_depth` levels in the JSON `text` (brackets in strings
    do not count); cheap, and without recursion."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)):
        if bracket in "[{":
            level += 1
            if level > max_depth:
                return True
        else:
            level -= 1
    return False


def loads(raw: str | bytes, *, max_depth: int = MAX_DEPTH, max_chars: int | None = None) -> Any:
    """json.loads of `raw`, or JSONRefused (a ValueError) for anything the module's doc lists."""
    if max_chars is not None and len(raw) > max_chars:
        raise JSONRefused(f"{len(raw)} characters of JSON; the limit is {max_chars}")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes | bytearray) else raw
    except UnicodeDecodeError as error:
        raise JSONRefused(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    if too_deep(text, max_depth):
        raise JSONRefused(f"nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_bounded_int)
    except JSONRefused:
        raise
    except RecursionError:  # too_deep counts what the parser nests; this is a last guard
        raise JSONRefused(f"nested more than {max_depth} levels deep") from None
    except ValueError as error:
        raise JSONRefused(str(error)[:200]) from None
