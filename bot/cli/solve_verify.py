"""`rummy-vision solve --verify N`: check the built tables against solvers that share no code with the
kernel that built them (strategies.table.verify for the margin table, strategies.table.win_verify
for the win table)."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rummy import DEFAULT_RULES, RulesConfig


def verify_tables(out: Path | None, samples: int, seed: int, config: RulesConfig = DEFAULT_RULES) -> None:
    """The margin table, then the win table beside it when one is built; exit 1 on any difference,
    2 when a table cannot be read. `config` other than the arena's rules is for tests."""
    from strategies.table.win_format import default_win_table_path

    console = Console(stderr=True)
    margin_ok = _verify_margin(console, out, samples, seed, config)
    win_path = default_win_table_path(config) if out is None else out.with_suffix(".rvw")
    if not win_path.exists():
        console.print(
            f"No win table at {win_path}: not checked (`rummy-vision solve` builds it: 2.73 GB, about 22 CPU minutes).",
            highlight=False,
            soft_wrap=True,
        )
        win_ok = True
    else:
        win_ok = _verify_win(console, win_path, samples, seed, config)
    if not (margin_ok and win_ok):
        raise typer.Exit(1)


def _refused(console: Console, error: Exception) -> typer.Exit:
    console.print(Text(str(error), style="red"), soft_wrap=True)
    return typer.Exit(2)


def _verify_margin(console: Console, out: Path | None, samples: int, seed: int, config: RulesConfig) -> bool:
    from strategies.table.fileformat import TableError, default_table_path, load_table
    from strategies.table.verify import TOLERANCE, LayerCheck, verify_table

    path = out or default_table_path(config)
    began, cpu_began = time.perf_counter(), time.process_time()
    try:
        table = load_table(path, config)
    except TableError as error:
        raise _refused(console, error) from None
    console.print(f"Verifying {path} (layers 1..{table.top}, checksums passed) with {samples} states a layer")

    def shown(check: LayerCheck) -> None:
        console.print(
            f"layer {check.layer:>2}: {check.step_states} step + {check.full_states} full, "
            f"max difference {check.max_difference:.2g}, {check.seconds:.1f} s",
            highlight=False,
        )

    try:
        checks = verify_table(table, samples, seed=seed, on_layer=shown)
    except (TableError, ValueError) as error:
        raise _refused(console, error) from None
    report = Table(title=f"{path.name}: checked against the independent solver (seed {seed})")
    for column in ("layer", "states", "step checks", "full checks", "max difference", "s", "CPU s"):
        report.add_column(column, justify="right")
    for check in checks:
        report.add_row(
            str(check.layer),
            f"{check.size:,}",
            str(check.step_states),
            str(check.full_states),
            f"{check.max_difference:.2g}",
            f"{check.seconds:.1f}",
            f"{check.cpu_seconds:.1f}",
        )
    print_console = Console()
    print_console.print(report)
    worst = max(checks, key=lambda check: check.max_difference)
    total_step = sum(check.step_states for check in checks)
    total_full = sum(check.full_states for check in checks)
    print_console.print(
        f"{total_step} states checked from the layer below, {total_full} solved to the round's end; "
        f"max difference {worst.max_difference:.2g} (tolerance {TOLERANCE}); "
        f"{time.perf_counter() - began:.0f} s wall, {time.process_time() - cpu_began:.0f} s CPU",
        highlight=False,
    )
    if not all(check.passed for check in checks):
        print_console.print(f"MISMATCH: {worst.worst}", markup=False, highlight=False)
        return False
    return True


def _verify_win(console: Console, path: Path, samples: int, seed: int, config: RulesConfig) -> bool:
    from strategies.table.fileformat import TableError
    from strategies.table.win_format import load_win_table
    from strategies.table.win_verify import STEP_TOLERANCE, WinLayerCheck, verify_win_table

    began, cpu_began = time.perf_counter(), time.process_time()
    try:
        table = load_win_table(path, config)  # the checksums and the fingerprint, before any value is read
    except TableError as error:
        raise _refused(console, error) from None
    console.print(
        f"Verifying {path} (win layers 1..{table.top}, checksums passed) with {samples} reachable states a layer",
        highlight=False,
        soft_wrap=True,
    )

    def shown(check: WinLayerCheck) -> None:
        console.print(
            f"win layer {check.layer:>2}: {check.states} states, {check.step_values} values from the layer below "
            f"+ {check.full_values} to the end, max difference {check.max_step_difference:.2g}, {check.seconds:.1f} s",
            highlight=False,
        )

    try:
        checks = verify_win_table(path, config, samples, seed=seed, on_layer=shown)
    except (TableError, ValueError, OSError) as error:
        raise _refused(console, error) from None
    report = Table(title=f"{path.name}: P(win) checked against the independent win solver (seed {seed})")
    for column in ("layer", "states", "values", "settled", "full", "max step diff", "max full diff", "CPU s"):
        report.add_column(column, justify="right")
    for check in checks:
        report.add_row(
            str(check.layer),
            str(check.states),
            str(check.step_values),
            str(check.settled_values),
            str(check.full_values),
            f"{check.max_step_difference:.2g}",
            f"{check.max_full_difference:.2g}",
            f"{check.cpu_seconds:.1f}",
        )
    print_console = Console()
    print_console.print(report)
    values = sum(check.step_values for check in checks)
    full = sum(check.full_values for check in checks)
    print_console.print(
        f"win: {sum(check.states for check in checks)} states, {values} P(win) values checked from the layer below "
        f"({sum(check.settled_values for check in checks)} of them settled 0 or 1 outside the stored window), "
        f"{full} solved to the round's end; max difference "
        f"{max(check.max_step_difference for check in checks):.2g} (tolerance {STEP_TOLERANCE:.2g}: half a "
        f"16-bit step); {time.perf_counter() - began:.0f} s wall, {time.process_time() - cpu_began:.0f} s CPU",
        highlight=False,
    )
    failed = [check for check in checks if not check.passed]
    for check in failed:
        print_console.print(
            f"MISMATCH: {check.failures} in win layer {check.layer}; first: {check.worst}", markup=False
        )
    return not failed
