"""Ctrl-C in `match` and `tournament`: the rounds that finished are kept, recorded and counted.

The round being played when Ctrl-C comes is dropped; every finished one is stored in the records like the
rounds of a run that ended, the standings so far are printed, titled "interrupted after N of M rounds",
and the command exits 130 (the shell's code for Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

from bot.cli.ctrl_c import ctrl_c_raises
from bot.matches.executors import Progress, RoundsInterrupted, RoundTask, run_tasks

INTERRUPTED_EXIT = 130


def play_rounds(
    tasks: Sequence[RoundTask], *, workers: int, progress: Progress | None = None
) -> tuple[list[Any], int | None]:
    """The rounds' results, and None, or on Ctrl-C the rounds that finished and how many were planned."""
    with ctrl_c_raises():
        try:
            return run_tasks(tasks, workers=workers, progress=progress), None
        except RoundsInterrupted as stop:
            return stop.results, stop.total


def interrupted_text(done: int, total: int | None) -> str:
    return "" if total is None else f"interrupted after {done} of {total} rounds"


def with_interruption(title: str, done: int, total: int | None) -> str:
    """A standings title, saying when the run was cut short."""
    return title if total is None else f"{title}; {interrupted_text(done, total)}"


def exit_if_interrupted(console: Any, done: int, total: int | None) -> None:
    """After the standings are printed and the rounds stored: say so and exit 130 when Ctrl-C cut the run."""
    if total is None:
        return
    console.print(
        f"[yellow]{interrupted_text(done, total)} (Ctrl-C): the {done} finished rounds are recorded and counted"
        " above[/]",
        soft_wrap=True,
        highlight=False,
    )
    raise typer.Exit(INTERRUPTED_EXIT)
