"""`rummy-vision solve`: build the perfect-play margin table, with progress, resumably."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command()(solve)


def solve(
    out: Path | None = typer.Option(
        None, "--out", help="Where to write the table (default: the user data directory, where `perfect` looks)."
    ),
    workers: int = typer.Option(2, "--workers", min=1, help="Threads that share each layer's work."),
    top: int | None = typer.Option(
        None,
        "--top",
        min=1,
        help=(
            "Build layers 1..TOP only (positions with up to TOP+1 turns left; deeper ones are solved on demand "
            "above them: with --top 7, 359 MB, 95% of positions with 12 turns left solve in about a second); "
            "default: the whole round."
        ),
    ),
    verify: int | None = typer.Option(
        None,
        "--verify",
        min=1,
        metavar="N",
        help=(
            "Check the table already built instead of building: N random states of every layer against a "
            "second solver that shares no code with the kernel (each from the layer below; near the end of "
            "the round also solved to the round's end). Exit 1 if any value differs."
        ),
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the states --verify samples."),
    win_top: int | None = typer.Option(
        None,
        "--win-top",
        min=1,
        help=(
            "Also build the win table's layers 1..WIN_TOP (exact P(win) for every open banked difference), "
            "which `perfect:objective=win` then plays from, solving on demand above it. Not built by default: "
            "the whole win table does not fit this machine's budget (see the README)."
        ),
    ),
) -> None:
    """Solve the round exactly (margin objective) and write the table `perfect` plays from.

    Layer d holds every position with d cards in the deck; it needs only layer d-1, so layers are
    built in order and each finished layer is kept: run the command again to resume after an
    interruption (or to extend a --top build). With --verify, check a built table instead.
    """
    import time

    if verify is not None:
        _verify(out, verify, seed)
        return

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.text import Text

    from rummy import DEFAULT_RULES
    from strategies.kernel import KernelUnsupported
    from strategies.table.build import build_table, planned_sizes, table_bytes
    from strategies.table.fileformat import TableError, default_table_path, read_header

    console = Console(stderr=True)
    path = out or default_table_path(DEFAULT_RULES)
    sizes = planned_sizes(DEFAULT_RULES)
    last = len(sizes) - 1 if top is None else min(top, len(sizes) - 1)
    already = 0
    if path.exists():
        try:
            header = read_header(path)
            # An unfinished build resumes to the depth it was started with, a finished one can grow.
            last = max(last, min(header["top"], len(sizes) - 1))
            already = min(header["done"], last)
        except TableError as error:
            console.print(Text(str(error), style="red"), soft_wrap=True)
            raise typer.Exit(2) from None
    layer_states = {d: sizes[d] for d in range(1, last + 1)}
    total = sum(layer_states.values())
    done_before = sum(layer_states[d] for d in range(1, already + 1))
    console.print(plan_line(path, sizes, last, already, table_bytes(DEFAULT_RULES, last)), soft_wrap=True)
    began = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.fields[layer]}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f}%"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("solve", total=total, completed=done_before, layer="starting", rate="")

        def report(d: int, finished: int, units: int, rate: float) -> None:
            completed = sum(layer_states[e] for e in range(1, d)) + layer_states[d] * finished / units
            progress.update(
                task,
                completed=completed,
                layer=f"layer {d}/{last}",
                rate=f"{rate / 2:,.0f} states/s",
            )

        try:
            header = build_table(path, DEFAULT_RULES, top=last, workers=workers, on_progress=report)
        except (TableError, KernelUnsupported) as error:
            console.print(Text(str(error), style="red"), soft_wrap=True)
            raise typer.Exit(2) from None
    seconds = time.perf_counter() - began
    console.print(f"Done in {seconds:.0f} s: {path} holds layers 1..{header['done']}.")
    print(path)
    if win_top is not None:
        from strategies.table.win_build import build_win_table
        from strategies.table.win_format import default_win_table_path

        win_path = default_win_table_path(DEFAULT_RULES) if out is None else out.with_suffix(".rvw")
        console.print(f"Win table: {win_path}, layers 1..{win_top}")
        try:
            win_header = build_win_table(
                win_path,
                DEFAULT_RULES,
                top=win_top,
                workers=workers,
                on_progress=lambda d, done, size, rate: progress_line(console, d, done, size, rate),
            )
        except TableError as error:
            console.print(f"[red]{error}[/red]")
            raise typer.Exit(2) from None
        console.print(f"Done: {win_path} holds win layers 1..{win_header['done']}.")
        print(win_path)


def plan_line(path: Path, sizes: list[int], last: int, already: int, size_bytes: int) -> str:
    """What a build will store. Layer 0 (an empty deck: the round is over) is scored, never stored, so
    the stored count is the state count less layer 0's."""
    stored = sum(sizes[1 : last + 1])
    return (
        f"Table: {path} ({size_bytes / 1e9:.2f} GB, layers 1..{last}, {stored:,} states stored; "
        f"layer 0's {sizes[0]:,} end-of-round states are scored, not stored; {already} layer(s) already built)"
    )


def _verify(out: Path | None, samples: int, seed: int) -> None:
    import time

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from rummy import DEFAULT_RULES
    from strategies.table.fileformat import TableError, default_table_path, load_table
    from strategies.table.verify import TOLERANCE, LayerCheck, verify_table

    console = Console(stderr=True)
    path = out or default_table_path(DEFAULT_RULES)
    began, cpu_began = time.perf_counter(), time.process_time()
    try:
        table = load_table(path, DEFAULT_RULES)
    except TableError as error:
        console.print(Text(str(error), style="red"), soft_wrap=True)
        raise typer.Exit(2) from None
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
        console.print(Text(str(error), style="red"), soft_wrap=True)
        raise typer.Exit(2) from None
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
        raise typer.Exit(1)


def progress_line(console: object, d: int, done: int, size: int, rate: float) -> None:
    from rich.console import Console

    if isinstance(console, Console) and done == size:
        console.print(f"  win layer {d}: {size:,} states, {rate:,.0f} states/s")
