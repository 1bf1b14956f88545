"""A table of results as it is shown (a run's standings, a tournament's head-to-head): plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Standings:
    """A table as it is shown: column names and one row per player."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str | int | float, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"Columns": list(self.columns), "Rows": [list(row) for row in self.rows]}
