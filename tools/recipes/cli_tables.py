"""The recipes of the perfect-play tables: build, look-up, verify and solve timings, the win table's count
and the margin-to-win fit (`python tools/measure.py table-build | table-lookup | table-verify | table-solve |
win-count | calibrate`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from bot.cli.measuring import NAME_HELP, SaveOption, TableOption, bad, emit, table_errors
from bot.measure.sampling import parse_turns
from rummy import DEFAULT_RULES
from strategies.search import Objective
from strategies.table import TableError
from tools.recipes.calibrate import CHECK_SEED, FIT_SEED
from tools.recipes.calibrate import calibrate as fit
from tools.recipes.running import MEASUREMENTS, OutOption, run_recipe
from tools.recipes.table import build_figures, lookup, solve_times, timed_build, verify_figures
from tools.recipes.win_count import count_pairs
from tools.recipes.win_table import LOOKUP_SEED, win_build_figures, win_lookup, win_verify_figures

recipes = typer.Typer()


@recipes.command()
def calibrate(
    ctx: typer.Context,
    positions: int = typer.Option(40, min=1, help="Positions per number of turns left."),
    max_turns: int = typer.Option(6, min=1, help="Positions from 1 to this many turns left."),
    name: str = typer.Option("calibrate", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Fit the margin-to-win mapping on exact endgame values (needs the perfect-play table)."""
    seeds = {"fit": f"{FIT_SEED}+turns", "held_out": f"{CHECK_SEED}+turns"}
    settings = {"positions": positions, "max_turns": max_turns}
    run_recipe(
        ctx,
        name,
        lambda: fit(positions, max_turns, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
        refused=table_errors(),
    )


OBJECTIVE_HELP = (
    "Which table: margin (RUMMY_VISION_TABLE) or win (RUMMY_VISION_WIN_TABLE, the one default `perfect` plays from)."
)


def _is_win(objective: str) -> bool:

    if objective not in {item.value for item in Objective}:
        raise typer.BadParameter(f"must be margin or win, got {objective!r}", param_hint="--objective")
    return Objective(objective) is Objective.WIN


@recipes.command("table-build")
def table_build(
    ctx: typer.Context,
    table: TableOption = None,
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    build: Path | None = typer.Option(
        None,
        help="Build the whole table afresh in this folder (a new file; ~3 min for margin, ~16 for win, both "
        "cores) and time that build: the result's wall and CPU seconds are then the build's own. Without it, "
        "the figures are read from a built table's header and the run times only that read.",
    ),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """A table's build figures per layer (time, CPU; for the win table its values and peak memory too), as
    the build recorded them in the table's header, and its size on disk; with --build, of a build timed here."""
    win = _is_win(objective)
    figures = win_build_figures if win else build_figures

    def measured() -> dict[str, Any]:
        path = table if build is None else timed_build(build, win, emit)
        return {**figures(path, emit), "timed": "this run built the table" if build else "a header read"}

    run_recipe(
        ctx,
        name or ("win-table-build" if win else "table-build"),
        measured,
        seeds="none: a built table",
        settings={"table": str(table), "objective": objective, "build": str(build) if build else None},
        out=out,
        save=save,
        refused=(*table_errors(), ValueError),
    )


@recipes.command("table-lookup")
def table_lookup(
    ctx: typer.Context,
    table: TableOption = None,
    positions: int = typer.Option(
        20, min=1, help="Look-ups timed, in fifties (20: 1000 positions; with --objective win, per turns left)."
    ),
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Time reading exact values from a perfect-play table: one state's, and every move's (for the win
    table, by turns left)."""
    win = _is_win(objective)
    settings = {"table": str(table), "positions": positions * 50, "objective": objective}
    run_recipe(
        ctx,
        name or ("win-table-lookup" if win else "table-lookup"),
        (lambda: win_lookup(table, positions * 50, emit)) if win else (lambda: lookup(table, positions * 50, emit)),
        seeds={"positions": f"{LOOKUP_SEED} + turns left"} if win else {"positions": 77},
        settings=settings,
        out=out,
        save=save,
        refused=table_errors(),
    )


@recipes.command("table-verify")
def table_verify(
    ctx: typer.Context,
    table: TableOption = None,
    samples: int = typer.Option(200, min=1, help="States a layer (as `rummy-vision solve --verify N`)."),
    seed: int = typer.Option(0, help="Seed of the sampled states."),
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Check a built table against the independent solver (as `solve --verify`) and keep the result: the
    margin table, or with --objective win the win table (states of each layer that a deal can reach, at
    several banked differences each)."""
    win = _is_win(objective)
    figures = run_recipe(
        ctx,
        name or ("win-table-verify" if win else "table-verify"),
        (lambda: win_verify_figures(table, samples, seed, emit))
        if win
        else (lambda: verify_figures(table, samples, seed, emit)),
        seeds={"states": seed},
        settings={"table": str(table), "samples": samples, "objective": objective},
        out=out,
        save=save,
        refused=(TableError, ValueError, OSError),
    )
    if not figures["passed"]:
        raise typer.Exit(1)


@recipes.command("table-solve")
def table_solve(
    ctx: typer.Context,
    objective: str = typer.Option("margin", help="margin or win."),
    turns: str = typer.Option("1-8", help="Turns left, e.g. 1-8 or 4,6,8."),
    positions: int = typer.Option(20, min=1, help="Positions per row."),
    seed: int = typer.Option(900, help="Positions of row T come from seed SEED + T."),
    method: str = typer.Option("auto", help="auto, or sorted: the sort-based solver."),
    table_top: int | None = typer.Option(
        None, min=1, help="margin: read the table's layers 1..N below the enumeration."
    ),
    limit_s: float = typer.Option(10.0, min=0.0, help="Stop once the median solve takes more CPU seconds than this."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Time the kernel's on-demand exact solver by turns left (wall p50/p95, CPU, states enumerated)."""
    if objective not in ("margin", "win"):
        raise typer.BadParameter(f"margin or win, got {objective!r}", param_hint="--objective")
    if method not in ("auto", "sorted"):
        raise typer.BadParameter(f"auto or sorted, got {method!r}", param_hint="--method")
    try:
        wanted = list(parse_turns(turns))
    except ValueError as error:
        raise bad(error, "--turns") from None
    top = f"-top{table_top}" if table_top else ""
    settings = {"objective": objective, "turns": wanted, "positions": positions, "method": method}
    settings |= {"table_top": table_top, "limit_s": limit_s}
    run_recipe(
        ctx,
        name or f"table-solve-{objective}-{method}{top}",
        lambda: solve_times(
            objective, wanted, positions, limit_s, method=method, table_top=table_top, seed=seed, emit=emit
        ),
        seeds={"positions": f"{seed}+turns left"},
        settings=settings,
        out=out,
        save=save,
        refused=table_errors(),
    )


@recipes.command("win-count")
def win_count(
    ctx: typer.Context,
    workers: int = typer.Option(2, min=1, help="Threads of the swing-bound passes."),
    top: int | None = typer.Option(None, min=1, help="Count layers 1..TOP only (default: every layer)."),
    name: str = typer.Option("win_table_count", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Open (state, banked difference) pairs of an exact win table per layer, and its size per storage choice.

    Counted over every canonical state of the arena's rules, then within the laid-cards bound (the D
    the cards laid so far can make); both are upper bounds on what a deal can reach.
    """

    def work() -> Any:
        figures = count_pairs(DEFAULT_RULES, workers=workers, top=top, emit=emit)
        layers = figures["layers"]
        states = sum(layer["states"] for layer in layers)
        for count, meaning in figures["counts"].items():
            emit(f"{sum(layer[count] for layer in layers):,} pairs over {states:,} states: {meaning}")
        return figures

    settings = {"workers": workers, "top": top, "rules": "the arena's (rummy.DEFAULT_RULES)"}
    run_recipe(ctx, name, work, seeds="none: every canonical state is counted", settings=settings, out=out, save=save)
