"""The recipes of the referee and what it serves: throughput and latency, the lock-out attack, the viewer's
cold load, Azure's pace and coaches under load (`python tools/measure.py server | server-processes | lockout |
viewer-load | azure-pace | coach-load`)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import typer

from bot.cli.measuring import NAME_HELP, SaveOption, emit
from tools.recipes.azure_pace import azure_pace as measure_pace
from tools.recipes.browser import BrowserMissing
from tools.recipes.coach_load import COACH_MS, GAMES
from tools.recipes.coach_load import measure as measure_coaches
from tools.recipes.lockout import measure as measure_lockout
from tools.recipes.lockout import survived
from tools.recipes.record import REPOSITORY
from tools.recipes.running import MEASUREMENTS, OutOption, run_recipe
from tools.recipes.server_load import server_load
from tools.recipes.server_processes import server_processes as measure_processes
from tools.recipes.viewer_load import CASES, MATCH_ROUNDS
from tools.recipes.viewer_load import viewer_load as measure_viewer

recipes = typer.Typer()


@recipes.command()
def server(
    ctx: typer.Context,
    levels: str = typer.Option("1,10,50", help="Concurrent matches to measure, comma separated."),
    min_moves: int = typer.Option(600, min=1, help="Moves to time at each level (at least)."),
    client_processes: int = typer.Option(4, min=1, help="Processes the bots are spread over."),
    name: str = typer.Option("server", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Referee throughput and GM-MakeMove latency over loopback HTTP at several loads, against in-process work."""
    try:
        wanted = [int(level) for level in levels.split(",")]
    except ValueError:
        raise typer.BadParameter(f"a comma-separated list of numbers, got {levels!r}", param_hint="--levels") from None
    settings = {"levels": wanted, "min_moves": min_moves, "client_processes": client_processes}
    run_recipe(
        ctx,
        name,
        lambda: server_load(wanted, min_moves, client_processes, emit),
        seeds={"random_moves": "wave * 1000 + client"},
        settings=settings,
        out=out,
        save=save,
    )


@recipes.command("viewer-load")
def viewer_load(
    ctx: typer.Context,
    repeats: int = typer.Option(5, min=1, max=10, help="Cold-browser visits per case (each a different step)."),
    seed: int = typer.Option(1, help="Seed of the two random bots' moves."),
    name: str = typer.Option("viewer-load-cases", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """A viewer step of 20 cards in a cold chromium (fresh profile) on loopback: time until every card shows,
    for a match the server dealt, after a restart, recorded by `match`, and drawn by nobody before."""
    run_recipe(
        ctx,
        name,
        lambda: measure_viewer(repeats, seed, emit),
        seeds={"random_moves": seed},
        settings={
            "repeats": repeats,
            "server": "in this process, 127.0.0.1",
            "viewport": "1280x900",
            "cases": list(CASES),
            "match": f"greedy vs random, {MATCH_ROUNDS} rounds",
        },
        out=out,
        save=save,
        refused=(BrowserMissing,),
    )


@recipes.command("server-processes")
def server_processes(
    ctx: typer.Context,
    matches: int = typer.Option(50, min=1, help="Matches played at once."),
    clients: int = typer.Option(4, min=1, help="Client processes the bots are spread over."),
    min_moves: int = typer.Option(2000, min=1, help="Moves to time (at least)."),
    login_flood: float = typer.Option(0.0, min=0.0, help="Wrong-password logins per second meanwhile."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """GM-MakeMove latency with many matches at once, bots in separate processes, optionally under a login flood."""
    settings = {"matches": matches, "clients": clients, "min_moves": min_moves, "login_flood": login_flood}
    flood = f"-flood{login_flood:g}" if login_flood else ""
    run_recipe(
        ctx,
        name or f"server-processes-{matches}{flood}",
        lambda: measure_processes(matches, clients, min_moves, login_flood, emit),
        seeds={"random_moves": "wave * clients + client"},
        settings=settings,
        out=out,
        save=save,
    )


@recipes.command()
def lockout(
    ctx: typer.Context,
    duration_s: float = typer.Option(900.0, min=1.0, help="How long the attack runs, in seconds."),
    rate: float = typer.Option(1.0, min=0.01, help="Wrong-password logins per second."),
    name: str = typer.Option("lockout", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """A real `serve` and `play --forever` under a wrong-password attack on the player's BotId.

    Exits 1 (after storing the result) when the victim lost a match on time or its client stopped.
    """

    def work() -> Any:
        with tempfile.TemporaryDirectory(prefix="lockout-") as workdir:
            figures = measure_lockout(duration_s, rate, Path(workdir))
        emit(json.dumps(figures, indent=2))
        return figures

    seeds = "none: the server deals at random; the attack and the count do not depend on the deal"
    figures = run_recipe(
        ctx, name, work, seeds=seeds, settings={"duration_s": duration_s, "rate": rate}, out=out, save=save
    )
    if not survived(figures):
        typer.echo("the attack cost the victim a match or stopped its client", err=True)
        raise typer.Exit(1)


@recipes.command("azure-pace")
def azure_pace(
    ctx: typer.Context,
    latency_ms: int = typer.Option(200, min=0, help="The fake endpoint's answer time per call, in ms."),
    budget_s: float = typer.Option(
        4.0,
        min=0.1,
        max=59.0,
        help="The free tier's time for a hand, in s: a 5 s move less the answer's margin. Below the rate "
        "limit's 60 s window, so a second match in the same minute still finds the calls spent.",
    ),
    name: str = typer.Option("azure_pace", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Azure labelling of a first hand of 20 unseen cards per tier, and the free tier's fallback to the local gallery.

    Against a fake Azure endpoint on loopback (no key, no internet); wall times depend on the machine's load.
    """
    seeds = "none: fixed card pictures (variants pace-ID) and fixed card ids"
    run_recipe(
        ctx,
        name,
        lambda: measure_pace(latency_ms, emit, budget_s),
        seeds=seeds,
        settings={"latency_ms": latency_ms, "budget_s": budget_s},
        out=out,
        save=save,
    )


@recipes.command("coach-load")
def coach_load(
    ctx: typer.Context,
    minutes: float = typer.Option(10.0, min=0.1, help="How long the load runs, in minutes."),
    tree: Path = typer.Option(REPOSITORY, help="The checkout whose code is served (e.g. main, unpacked beside)."),
    coach: str = typer.Option("exact", help="The coaches' strategy (exact searches until its time is up)."),
    name: str = typer.Option("coach-load", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Coaches at their maximum beside house bots and fresh pictures: can they starve `housebot-expert` or the pages?

    Serves TREE's code with 8 coached /play games, two random bots playing `housebot-expert` and page
    reloads; `source` in the result is this checkout's commit, so say in a note which code TREE held.
    """

    def work() -> Any:
        figures, _said = measure_coaches(tree, minutes, coach)
        emit(json.dumps(figures, indent=2))
        return figures

    settings = {"minutes": minutes, "games": GAMES, "coach_ms": COACH_MS, "coach": coach, "tree": str(tree)}
    seeds = "arena bots: random moves seeded 0 and 1; the server deals at random"
    run_recipe(ctx, name, work, seeds=seeds, settings=settings, out=out, save=save)
