"""`rummy-vision tournament BOT...`: a round robin on duplicate deals with ratings."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from bot.matches.local_match import NODES_HELP
from recognizers.registry import names_help
from rummy.terminal_text import escape
from strategies.registry import SPEC_HELP


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
    app.command("ratings")(ratings)


def tournament(
    bots: list[str] = typer.Argument(
        ...,
        metavar="BOT...",
        help="Two or more strategies or presets (" + SPEC_HELP + ") or bot files; BOT@RECOGNIZER gives one its own"
        " recognizer (e.g. perfect@harsh:0.1).",
    ),
    rounds: int = typer.Option(20, "--rounds", min=1, help="Rounds per pair (rounded up to even: duplicate deals)."),
    seed: str = typer.Option("1", "--seed", help="Seed of the deals."),
    recognizer: str = typer.Option("oracle", "--recognizer", help="Labels for our strategies: " + names_help() + "."),
    time_ms: int = typer.Option(300, "--time-ms", min=1, help="Move time given to each bot, in milliseconds."),
    nodes: int | None = typer.Option(None, "--nodes", min=1, help=NODES_HELP),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes (local backend)."),
    backend: str = typer.Option("local", "--backend", help="local (worker processes) or ray (pip extra 'ray')."),
    db: Path | None = typer.Option(None, "--db", help="SQLite file for the results (default: the records file)."),
    json_output: bool = typer.Option(False, "--json", help="Print the standings as one JSON object."),
) -> None:
    """Every bot plays every other on duplicate deals; prints Bradley-Terry ratings with 95% intervals.

    The same --seed gives the same results bit for bit (every move, score and rating; only the times
    differ), with any --workers or --backend, when no player follows the clock: random, greedy, a bot
    file that is deterministic itself, and search strategies given --nodes. Under a time budget
    (--time-ms, the default) a searcher goes as deep as the clock allows, so its moves can change with
    the machine's load.
    """

    from bot.cli.interrupted import exit_if_interrupted
    from bot.matches.head_to_head import head_to_head, head_to_head_table, update_ratings
    from bot.matches.match_records import default_db_path
    from bot.matches.summary import blindness_by_name
    from bot.matches.tournament_records import store_tournament

    contenders = _checked_contenders(bots, recognizer, nodes)
    console = Console(stderr=json_output)
    move_time_ms = None if nodes is not None else time_ms
    played, table, cut_from = _play(console, contenders, rounds, seed, move_time_ms, workers, backend)
    sources = {contender.name: contender.source() for contender in contenders}
    blind = blindness_by_name(item.result for item in played)
    path = Path(db) if db is not None else default_db_path()
    tournament_id = store_tournament(path, seed, rounds, played, table)
    pairs_played = head_to_head(played)
    _store_rounds(path, tournament_id, played, table, head_to_head_table(pairs_played))
    lasting = update_ratings(path)
    if json_output:
        _print_json(tournament_id, path, table, sources, pairs_played, lasting, len(played), cut_from, blind)
    else:
        _print_tables(console, tournament_id, path, table, sources, pairs_played, lasting, len(played), cut_from)
        _print_blindness(console, blind)
        _print_contradictions(console, [item.result for item in played])
    exit_if_interrupted(console, len(played), cut_from)


def _checked_contenders(bots: list[str], recognizer: str, nodes: int | None) -> list[Any]:
    """The players, each checked it can play."""
    from bot.matches.local_match import contender_for

    if len(bots) < 2:
        raise typer.BadParameter("a tournament needs at least two bots")
    try:
        contenders = [contender_for(spec, recognizer, nodes) for spec in bots]
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    for player in contenders:
        try:
            player.check()
        except (ValueError, OSError) as error:
            raise typer.BadParameter(str(error)) from None
    return contenders


def _play(
    console: Any,
    contenders: list[Any],
    rounds: int,
    seed: str,
    move_time_ms: int | None,
    workers: int,
    backend: str,
) -> tuple[list[Any], list[Any], int | None]:
    """The rounds played, the standings, and the rounds planned when Ctrl-C cut the tournament short (else
    None); exits when Ctrl-C came before any round was played."""
    from bot.cli.ctrl_c import ctrl_c_raises
    from bot.cli.interrupted import INTERRUPTED_EXIT, interrupted_text
    from bot.cli.match import _progress
    from bot.matches.tournament import TournamentInterrupted, run_tournament

    count = len(contenders)
    pairs = count * (count - 1) // 2
    total = pairs * 2 * ((rounds + 1) // 2)
    cut_from: int | None = None
    try:
        with _progress(console, total, f"{count} bots, {pairs} pairs") as advance, ctrl_c_raises():
            played, table = run_tournament(
                contenders,
                rounds_per_pair=rounds,
                seed=seed,
                move_time_ms=move_time_ms,
                workers=workers,
                backend=backend,
                progress=advance,
            )
    except TournamentInterrupted as stop:
        played, table, cut_from = stop.played, stop.table, stop.total
        if not played:
            console.print(f"[yellow]{interrupted_text(0, cut_from)} (Ctrl-C): nothing to record[/]")
            raise typer.Exit(INTERRUPTED_EXIT) from None
    except (ValueError, RuntimeError) as error:
        raise typer.BadParameter(str(error)) from None
    return played, table, cut_from


def _print_json(
    tournament_id: int,
    path: Path,
    table: list[Any],
    sources: dict[str, Any],
    pairs_played: list[Any],
    lasting: list[Any],
    played: int,
    cut_from: int | None,
    blind: dict[str, Any],
) -> None:
    standings = [
        {
            "name": standing.rating.name,
            "rating": round(standing.rating.rating, 1),
            "ci95": [round(standing.rating.low, 1), round(standing.rating.high, 1)],
            "wins": standing.wins,
            "rounds": standing.rounds,
            "source": sources.get(standing.rating.name),
            **(blind[standing.rating.name].to_json() if standing.rating.name in blind else {}),
        }
        for standing in table
    ]
    typer.echo(
        json.dumps(
            {
                "tournament_id": tournament_id,
                "db": str(path),
                "standings": standings,
                "head_to_head": [pair.to_json() for pair in pairs_played],
                "ratings": [rating.to_json() for rating in lasting],
                **({} if cut_from is None else {"interrupted": {"rounds_played": played, "rounds_planned": cut_from}}),
            }
        )
    )


def _print_tables(
    console: Any,
    tournament_id: int,
    path: Path,
    table: list[Any],
    sources: dict[str, Any],
    pairs_played: list[Any],
    lasting: list[Any],
    played: int,
    cut_from: int | None,
) -> None:

    from bot.cli.interrupted import with_interruption
    from bot.cli.match_output import print_sources
    from bot.matches.head_to_head import HEAD_TO_HEAD_COLUMNS

    title = f"Tournament {tournament_id}: {played} rounds on duplicate deals"
    view = Table(title=with_interruption(title, played, cut_from))
    for column in ("rank", "bot", "rating", "95% CI", "won", "win rate"):
        view.add_column(column, justify="left" if column == "bot" else "right", overflow="fold")
    for rank, standing in enumerate(table, start=1):
        rating = standing.rating
        view.add_row(
            str(rank),
            escape(rating.name),
            f"{rating.rating:.0f}",
            f"{rating.low:.0f} - {rating.high:.0f}",
            f"{standing.wins}/{standing.rounds}",
            f"{standing.win_rate:.1%}",
        )
    console.print(view)
    pair_view = Table(title="Head to head (first named bot's view; 95% intervals)")
    for column in HEAD_TO_HEAD_COLUMNS:
        pair_view.add_column(column, justify="left" if column == "pair" else "right", overflow="fold")
    for pair in pairs_played:
        pair_view.add_row(*pair.row())
    console.print(pair_view)
    console.print(ratings_table(lasting))
    print_sources(console, list(sources), list(sources.values()))
    console.print(f"Stored as tournament {tournament_id} in {path}, every round included (the viewer shows them)")


def _print_blindness(console: Any, blind: dict[str, Any]) -> None:
    """A warning for each player whose recognizer left a noticeable share of its cards unknown, with why."""
    from bot.cli.match_output import blindness_warning

    for name, blindness in blind.items():
        warning = blindness_warning(name, blindness)
        if warning:
            console.print(warning, style="yellow", soft_wrap=True, highlight=False, markup=False)


def _print_contradictions(console: Any, results: list[Any]) -> None:
    """A warning for each player whose belief found its recognizer's answers contradicting the game."""
    from bot.cli.match_output import contradiction_warning
    from bot.matches.summary import contradictions, played_by_name

    for name, rounds in played_by_name(results).items():
        found = contradictions(rounds)
        warning = contradiction_warning(name, found["contradicted"], found["contradiction"])
        if warning:
            console.print(warning, style="yellow", soft_wrap=True, highlight=False, markup=False)


def ratings_table(lasting: list[Any]) -> Any:

    view = Table(title="Ratings over every tournament in the records (Bradley-Terry, 95% bootstrap intervals)")
    for column in ("rank", "bot", "rating", "95% CI", "won", "rounds", "tournaments"):
        view.add_column(column, justify="left" if column == "bot" else "right", overflow="fold")
    for rank, rating in enumerate(lasting, start=1):
        view.add_row(
            str(rank),
            rating.name,
            f"{rating.rating:.0f}",
            f"{rating.low:.0f} - {rating.high:.0f}",
            str(rating.wins),
            str(rating.rounds),
            str(rating.tournaments),
        )
    return view


def ratings(
    db: Path | None = typer.Option(None, "--db", help="Records file (default: the server's data file)."),
    json_output: bool = typer.Option(False, "--json", help="Print the rating list as one JSON object."),
) -> None:
    """The rating list over every tournament stored in the records, with 95% intervals; each
    `tournament` run refits it on all rounds so far. The same name is one player across runs."""

    from bot.matches.head_to_head import load_ratings
    from bot.matches.match_records import default_db_path

    path = Path(db) if db is not None else default_db_path()
    lasting = load_ratings(path) if path.exists() else []
    if json_output:
        typer.echo(json.dumps({"db": str(path), "ratings": [rating.to_json() for rating in lasting]}))
        return
    console = Console()
    if not lasting:
        console.print(f"No tournament in {path} yet: run `rummy-vision tournament BOT BOT` first.")
        return
    console.print(ratings_table(lasting))


STANDING_COLUMNS = ("rank", "bot", "rating", "95% CI", "won", "win rate")


def _store_rounds(path: Path, tournament_id: int, played: list[Any], table: list[Any], pairs: Any = None) -> None:
    """Each round as a one-round match, grouped under the tournament with its standings for the viewer."""
    from bot.matches.match_records import store_seated
    from bot.matches.run_spec import RunSpec
    from rummy.standings import Standings

    rows = tuple(
        (
            str(rank),
            standing.rating.name,
            f"{standing.rating.rating:.0f}",
            f"{standing.rating.low:.0f} - {standing.rating.high:.0f}",
            f"{standing.wins}/{standing.rounds}",
            f"{standing.win_rate:.1%}",
        )
        for rank, standing in enumerate(table, start=1)
    )
    names = tuple(standing.rating.name for standing in table)
    spec = RunSpec(
        "tournament",
        f"Tournament {tournament_id}: {len(names)} bots, {len(played)} rounds on duplicate deals",
        names,
        Standings(STANDING_COLUMNS, rows),
        tournament_id=tournament_id,
        head_to_head=pairs,
    )
    seated = [(game.result, (game.a, game.b) if game.seat_of_a == 0 else (game.b, game.a)) for game in played]
    store_seated(path, seated, run=spec)
