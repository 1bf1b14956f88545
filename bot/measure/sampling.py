"""What the measurements share: seeded position sets, turns-left ranges, nearest-rank percentiles."""

from __future__ import annotations

import math
import random

from rummy import CountState, random_decision


def position_set(count: int, seed: int, turns_left: int | None = None) -> list[CountState]:
    """Random deals advanced by random play to `turns_left` turns before the end (default: 8 to 20 at random)."""
    rng = random.Random(seed)
    return [
        random_decision(rng, turns_left=turns_left if turns_left is not None else rng.randint(8, 20))
        for _ in range(count)
    ]


def parse_turns(text: str) -> tuple[int, ...]:
    """Turns-left values given as a range (`4-8`) or a list (`1,2,3`)."""
    try:
        if "-" in text:
            low, high = (int(part) for part in text.split("-"))
            return tuple(range(low, high + 1))
        return tuple(int(item) for item in text.split(","))
    except ValueError:
        raise ValueError(f"turns left are a range such as 4-8 or a list such as 1,2,3, got {text!r}") from None


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `share` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
