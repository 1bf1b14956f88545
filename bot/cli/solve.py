"""`rummy-vision solve`: build the perfect-play tables (margin, then win), with progress, resumably."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

if TYPE_CHECKING:
    from strategies.table.objective import TableObjective


def register(app: typer.Typer) -> None:
    app.command()(solve)


WIN_SIZE_TEXT = "2.73 GB and about 22 CPU minutes (measured: measurements/win-table-build.json)"


# Long: a Typer command: 48 of its lines declare its options and 11 are the docstring; the body is short.
def solve(
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Where to write the margin table (the win table goes beside it, .rvw); default: the user data "
        "directory, where `perfect` looks.",
    ),
    workers: int = typer.Option(2, "--workers", min=1, help="Threads that share each layer's work."),
    top: int | None = typer.Option(
        None,
        "--top",
        min=1,
        help=(
            "Build the margin table's layers 1..TOP only, and no win table (positions with up to TOP+1 turns "
            "left; deeper ones are solved on demand above them: with --top 7, 359 MB, 95% of positions with 12 "
            "turns left solve in about a second); default: the whole round."
        ),
    ),
    margin_only: bool = typer.Option(
        False,
        "--margin-only",
        help="Build only the margin table (1.1 GB, a few CPU minutes): `perfect:objective=margin` is then exact "
        "everywhere, and default `perfect` exact only where its win values say so.",
    ),
    verify: int | None = typer.Option(
        None,
        "--verify",
        min=1,
        metavar="N",
        help=(
            "Check the tables already built instead of building: N random states of every layer of the margin "
            "table, then of the win table when it is built, against second solvers that share no code with the "
            "kernel (each from the layer below; near the end of the round also solved to the round's end). "
            "Exit 1 if any value differs."
        ),
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the states --verify samples."),
    win_top: int | None = typer.Option(
        None,
        "--win-top",
        min=1,
        help=(
            "Build the win table's layers 1..WIN_TOP only (exact P(win) for every banked difference a deal "
            "reaches); positions above them are solved on demand when few turns are left, else estimated. "
            "Default: the whole win table, unless --top or --margin-only."
        ),
    ),
) -> None:
    """Solve the round exactly and write the tables `perfect` plays from: the margin table (1.1 GB, a few
    CPU minutes), then the win table that default `perfect` (objective win) needs (2.73 GB, about 22 CPU
    minutes: measurements/win-table-build.json).

    Long: the whole build is about half an hour of CPU. Each table is built layer by layer (layer d holds every
    position with d cards in the deck and needs only layer d-1); each finished layer is kept with its
    checksum, so Ctrl-C loses at most the layer in progress and the same command resumes. With --verify,
    check the built tables instead.
    """
    if verify is not None:
        from bot.cli.solve_verify import verify_tables

        verify_tables(out, verify, seed)
        return

    from bot.cli.ctrl_c import ctrl_c_raises
    from rummy import DEFAULT_RULES
    from strategies.table.margin.build import planned_sizes

    console = Console(stderr=True)
    sizes = planned_sizes(DEFAULT_RULES)
    try:
        with ctrl_c_raises():
            _build_margin(console, out, workers, top, sizes)
            if win_top is not None or (top is None and not margin_only):
                _build_win(console, out, workers, len(sizes) - 1 if win_top is None else win_top, sizes)
    except KeyboardInterrupt:
        console.print(
            "Interrupted: every finished layer is kept, checked; run the same command to resume.",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(130) from None


def _progress(console: Any) -> Any:

    return Progress(
        TextColumn("[bold]{task.fields[layer]}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f}%"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
    )


def _compile_notice(console: Any, what: str, modules: tuple[str, ...]) -> None:
    """Before a first build: its kernel is compiled first, while the bar stands at 0%."""
    from strategies.kernel.jit import compile_notice

    notice = compile_notice(what, modules)
    if notice is not None:
        console.print(f"{notice}: the bar moves once it is done.", soft_wrap=True, highlight=False)


def _fail(console: Any, error: Exception) -> NoReturn:

    console.print(Text(str(error), style="red"), soft_wrap=True)
    raise typer.Exit(2) from None


def _resume(console: Any, objective: TableObjective, path: Path, last: int, sizes: list[int]) -> tuple[int, int]:
    """The top layer to build and the layers already built: an unfinished build resumes to the depth it was
    started with, a finished one can grow."""
    from strategies.table.disk.files import TableError

    if not path.exists():
        return last, 0
    try:
        header = objective.read_header(path)
    except TableError as error:
        _fail(console, error)
    last = max(last, min(header["top"], len(sizes) - 1))
    return last, min(header["done"], last)


def _build_margin(console: Any, out: Path | None, workers: int, top: int | None, sizes: list[int]) -> None:

    from rummy import DEFAULT_RULES
    from strategies.kernel import KernelUnsupported
    from strategies.search import Objective
    from strategies.table.disk.files import TableError
    from strategies.table.margin.build import table_bytes
    from strategies.table.objective import OBJECTIVES

    margin = OBJECTIVES[Objective.MARGIN]
    path = out or margin.default_path(DEFAULT_RULES)
    last, already = _resume(console, margin, path, len(sizes) - 1 if top is None else min(top, len(sizes) - 1), sizes)
    layer_states = {d: sizes[d] for d in range(1, last + 1)}
    done_before = sum(layer_states[d] for d in range(1, already + 1))
    console.print(plan_line(path, sizes, last, already, table_bytes(DEFAULT_RULES, last)), soft_wrap=True)
    _compile_notice(console, "the table builder", ("layers",))
    began = time.perf_counter()
    with _progress(console) as progress:
        task = progress.add_task("solve", total=sum(layer_states.values()), completed=done_before, layer="", rate="")

        def report(d: int, finished: int, units: int, rate: float) -> None:
            completed = sum(layer_states[e] for e in range(1, d)) + layer_states[d] * finished / units
            progress.update(task, completed=completed, layer=f"layer {d}/{last}", rate=f"{rate / 2:,.0f} states/s")

        try:
            header = margin.build(path, DEFAULT_RULES, top=last, workers=workers, on_progress=report)
        except (TableError, KernelUnsupported) as error:
            _fail(console, error)
    seconds = time.perf_counter() - began
    console.print(f"Done in {seconds:.0f} s: {path} holds layers 1..{header['done']}.")
    print(path)


def _build_win(console: Any, out: Path | None, workers: int, top: int, sizes: list[int]) -> None:

    from rummy import DEFAULT_RULES
    from strategies.search import Objective
    from strategies.table.disk.files import TableError
    from strategies.table.objective import OBJECTIVES

    win = OBJECTIVES[Objective.WIN]
    path = win.default_path(DEFAULT_RULES) if out is None else win.beside(out)
    last, already = _resume(console, win, path, min(top, len(sizes) - 1), sizes)
    console.print(
        f"Win table: {path} (layers 1..{last} of {len(sizes) - 1}; {already} win layer(s) already built; "
        f"the whole table is {WIN_SIZE_TEXT})",
        soft_wrap=True,
        highlight=False,
    )
    _compile_notice(console, "the win table builder", ("win_layers",))
    began = time.perf_counter()
    with _progress(console) as progress:
        task = progress.add_task("win", total=sum(sizes[already + 1 : last + 1]), completed=0, layer="", rate="")
        finished = [sum(sizes[already + 1 : d]) for d in range(last + 2)]

        def report(d: int, done: int, size: int, rate: float) -> None:
            progress.update(
                task, completed=finished[d] + done, layer=f"win layer {d}/{last}", rate=f"{rate:,.0f} states/s"
            )

        def kept(d: int, timing: dict[str, float]) -> None:
            console.print(
                f"win layer {d}/{last} done: {sizes[d]:,} states, {timing['cpu_seconds']:.0f} CPU s", highlight=False
            )

        try:
            header = win.build(path, DEFAULT_RULES, top=last, workers=workers, on_progress=report, on_layer=kept)
        except TableError as error:
            _fail(console, error)
    whole = " (the whole round)" if header["done"] == len(sizes) - 1 else ""
    console.print(
        f"Done in {time.perf_counter() - began:.0f} s: {path} holds win layers 1..{header['done']}{whole}.",
        highlight=False,
    )
    print(path)


def plan_line(path: Path, sizes: list[int], last: int, already: int, size_bytes: int) -> str:
    """What a build will store. Layer 0 (an empty deck: the round is over) is scored, never stored, so
    the stored count is the state count less layer 0's."""
    stored = sum(sizes[1 : last + 1])
    return (
        f"Table: {path} ({size_bytes / 1e9:.2f} GB, layers 1..{last}, {stored:,} states stored; "
        f"layer 0's {sizes[0]:,} end-of-round states are scored, not stored; {already} layer(s) already built)"
    )
