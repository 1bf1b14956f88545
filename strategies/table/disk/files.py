"""What both tables' files share: the error a table that cannot be used raises, the rule options their
fingerprints name, the first read of a file, and what each build costs."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from rummy import RulesConfig

# What the table commands build and cost (measurements/table-build.json, measurements/win-table-build.json).
MARGIN_COST = "1.1 GB, a few CPU minutes"
WIN_COST = "2.73 GB, about 22 CPU minutes"
SOLVE_BUILDS = f"the margin table ({MARGIN_COST}), then the win table ({WIN_COST})"


class TableError(ValueError):
    """A table that cannot be used; the message is one line saying why."""


def rules_fields(config: RulesConfig) -> dict[str, Any]:
    """The options that change values (the catalog only names the types)."""
    fields = dataclasses.asdict(config)
    fields.pop("catalog")
    return {key: [list(pair) for pair in value] if isinstance(value, tuple) else value for key, value in fields.items()}


def read_head(path: Path, size: int, what: str, hint: str) -> bytes:
    """The first `size` bytes of the `what` (a kind of table) at `path`; TableError says why not."""
    try:
        with path.open("rb") as file:
            return file.read(size)
    except FileNotFoundError:
        raise TableError(f"no {what} at {path}; {hint}") from None
    except OSError as error:
        raise TableError(f"cannot read the {what} {path}: {error.strerror}") from None
