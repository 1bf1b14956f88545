"""A measurement of many rows, each of many rounds (`measure noise-cost`): progress while a row plays, each
row stored as it finishes, and Ctrl-C keeping the rows that finished.

Such a run can take hours (the default noise-cost table is twenty rows of a thousand rounds). Without this
it printed nothing until its first row was done and lost every row if it was cut short.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import typer

from bot.cli.ctrl_c import ctrl_c_raises
from bot.cli.interrupted import INTERRUPTED_EXIT
from bot.cli.measuring import emit
from bot.matches.executors import Progress, RoundsInterrupted

Plan = TypeVar("Plan")
PROGRESS_STEPS = 5  # progress lines a row prints (plus its last)


def row_progress(label: str, total: int) -> Progress:
    """A Progress that prints `label: done/total rounds` a few times a row, and at its end."""
    step = max(1, total // PROGRESS_STEPS)
    done = 0

    def advance(rounds: int) -> None:
        nonlocal done
        before, done = done, done + rounds
        if done // step != before // step or done == total:
            emit(f"{label}: {done}/{total} rounds")

    return advance


def unfinished(rows: list[dict[str, Any]], planned: int) -> dict[str, Any]:
    """The figures of a run still going (or cut short): its rows so far, saying so."""
    return {"rows": rows, "unfinished": f"{len(rows)} of {planned} rows measured; the run did not finish"}


def measure_rows(
    plans: Sequence[Plan],
    measure: Callable[[Plan, Progress], Any],
    *,
    label: Callable[[Plan], str],
    line: Callable[[Any], str],
    keep: Callable[[Any], Path | None],
    rounds: int,
) -> dict[str, Any]:
    """Each plan's row, measured in turn: `measure(plan, progress)` returns a dataclass row. After each row but
    the last the rows so far are kept (`keep`, marked unfinished); on Ctrl-C the row being played is dropped,
    the command says where the finished rows are and exits 130."""
    rows: list[dict[str, Any]] = []
    for number, plan in enumerate(plans, 1):
        title = f"row {number} of {len(plans)}, {label(plan)}"
        try:
            with ctrl_c_raises():
                row = measure(plan, row_progress(title, rounds))
        except (RoundsInterrupted, KeyboardInterrupt):
            _stopped(rows, len(plans), keep)
        rows.append(asdict(row))
        emit(line(row))
        if number < len(plans):
            keep(unfinished(rows, len(plans)))
    return {"rows": rows}


def _stopped(rows: list[dict[str, Any]], planned: int, keep: Callable[[Any], Path | None]) -> None:
    where = keep(unfinished(rows, planned)) if rows else None
    kept = f": the {len(rows)} finished rows are in {where}" if where else ""
    emit(f"interrupted during row {len(rows) + 1} of {planned} (Ctrl-C){kept}")
    raise typer.Exit(INTERRUPTED_EXIT)
