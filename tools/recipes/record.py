"""The recipes' results go to the repository's `measurements/`, with the repository's commit.

The product's recorder (bot/measure/record.py) writes under the current directory and asks git about it,
since an installed package knows no checkout; the recipes reproduce this repository's figures, so they
name the repository, found from this file, whatever directory they run in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.measure import record
from bot.measure.record import Run, read_result, start_run

REPOSITORY = Path(__file__).resolve().parents[2]
MEASUREMENTS = REPOSITORY / "measurements"

__all__ = ["MEASUREMENTS", "REPOSITORY", "Run", "read_result", "start_run", "write_result"]


def write_result(
    name: str,
    figures: Any,
    *,
    run: Run,
    seeds: Any,
    settings: dict[str, Any] | None = None,
    folder: Path = MEASUREMENTS,
    argv: list[str] | None = None,
) -> Path:
    """As bot.measure.record.write_result, into the repository's `measurements/` unless told, with its commit."""
    return record.write_result(
        name, figures, run=run, seeds=seeds, settings=settings, folder=folder, argv=argv, checkout=REPOSITORY
    )
