"""What a strategy is: something that picks a count-level move id for a state."""

from __future__ import annotations

from typing import Protocol

from rummy import CountState


class Strategy(Protocol):
    name: str

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        """A legal move id of `state` for its mover; `deadline` is a time.monotonic() instant, or None."""
        ...
