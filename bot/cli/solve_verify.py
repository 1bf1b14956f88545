"""`rummy-vision solve --verify N`: check the built tables against solvers that share no code with the
kernel that built them (strategies.table.margin.verify for the margin table, strategies.table.win.verify
for the win table), each through the one objective interface (strategies.table.objective)."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rummy import DEFAULT_RULES, RulesConfig

if TYPE_CHECKING:
    from strategies.table.objective import TableObjective


def verify_tables(out: Path | None, samples: int, seed: int, config: RulesConfig = DEFAULT_RULES) -> None:
    """The margin table, then the win table beside it when one is built; exit 1 on any difference,
    2 when a table cannot be read. `config` other than the arena's rules is for tests."""
    from strategies.search import Objective
    from strategies.table.objective import OBJECTIVES

    console = Console(stderr=True)
    margin = OBJECTIVES[Objective.MARGIN]
    margin_ok = _verify(console, margin, out or margin.default_path(config), samples, seed, config)
    win = OBJECTIVES[Objective.WIN]
    win_path = win.default_path(config) if out is None else win.beside(out)
    if not win_path.exists():
        console.print(
            f"No win table at {win_path}: not checked (`rummy-vision solve` builds it: 2.73 GB, about 22 CPU minutes).",
            highlight=False,
            soft_wrap=True,
        )
        win_ok = True
    else:
        win_ok = _verify(console, win, win_path, samples, seed, config)
    if not (margin_ok and win_ok):
        raise typer.Exit(1)


def _refused(console: Console, error: Exception) -> typer.Exit:
    console.print(Text(str(error), style="red"), soft_wrap=True)
    return typer.Exit(2)


def _verify(
    console: Console, objective: TableObjective, path: Path, samples: int, seed: int, config: RulesConfig
) -> bool:
    from strategies.table.disk.files import TableError

    began, cpu_began = time.perf_counter(), time.process_time()
    try:
        table = objective.load(path, config)  # the checksums and the fingerprint, before any value is read
    except TableError as error:
        raise _refused(console, error) from None
    console.print(
        f"Verifying {path} ({objective.title} layers 1..{table.top}, checksums passed) with {samples} "
        f"{objective.sampled} a layer",
        highlight=False,
        soft_wrap=True,
    )

    def shown(check: Any) -> None:
        console.print(objective.check_line(check), highlight=False)

    try:
        checks = objective.verify(table, samples, seed=seed, on_layer=shown)
    except (TableError, ValueError, OSError) as error:
        raise _refused(console, error) from None
    report = Table(title=f"{path.name}: {objective.check_title} (seed {seed})")
    for column in objective.check_columns:
        report.add_column(column, justify="right")
    for check in checks:
        report.add_row(*objective.check_row(check))
    print_console = Console()
    print_console.print(report)
    print_console.print(
        f"{objective.check_summary(checks)}; "
        f"{time.perf_counter() - began:.0f} s wall, {time.process_time() - cpu_began:.0f} s CPU",
        highlight=False,
    )
    mismatches = objective.mismatches(checks)
    for line in mismatches:
        print_console.print(line, markup=False, highlight=False)
    return not mismatches
