"""`rummy-vision match A B`: bot-vs-bot rounds with honest statistics."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

from bot.matches.local_match import NODES_HELP
from recognizers.registry import names_help
from strategies.registry import SPEC_HELP

VIEWER_URL = "http://127.0.0.1:8080/viewer"
STRICT_HELP = (
    "Play faulty moves as the arena does: a malformed or illegal move is answered INVALID_MOVE and the bot asked"
    " again; with no valid move by the deadline it loses on time. Exits 1 on any fault. Default: a safe move"
    " replaces a faulty one (the summary says what the arena would have done)."
)


def strict_exit(strict: bool, summaries: Any) -> None:
    """--strict: exit 1 when any player made a fault (after everything was printed and recorded)."""
    if strict and any(summary.faults for summary in summaries):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("match")(match)


# Long: a Typer command: 51 of its lines declare its arguments and options; run_match does the work.
def match(
    player_a: str = typer.Argument(
        ...,
        metavar="A",
        help="A strategy or character preset as "
        + SPEC_HELP
        + ", or a bot file (.py); PLAYER@RECOGNIZER gives it its own recognizer (e.g. perfect@harsh:0.1).",
    ),
    player_b: str = typer.Argument(..., metavar="B", help="The opponent, in the same forms as A."),
    rounds: int = typer.Option(20, "--rounds", min=1, help="Rounds to play (with --duplicate, rounded up to even)."),
    duplicate: bool = typer.Option(False, "--duplicate", help="Play each deal twice with the seats swapped."),
    seed: str = typer.Option("1", "--seed", help="Seed of the deals: same seed, same deals."),
    recognizer: str | None = typer.Option(
        None,
        "--recognizer",
        help="Labels for our strategies: "
        + names_help()
        + ". Default: oracle (the true labels; over --server, the referee's --oracle). One that cannot label"
        " live cards (stub, local with an empty gallery) is refused for a strategy that plays by labels.",
    ),
    time_ms: int = typer.Option(300, "--time-ms", min=1, help="Move time given to each bot, in milliseconds."),
    nodes: int | None = typer.Option(None, "--nodes", min=1, help=NODES_HELP),
    in_process: bool = typer.Option(False, "--in-process", help="Play through the engine directly (the default)."),
    server: str | None = typer.Option(
        None, "--server", help="Play over the protocol through this local server's base URL (with or without /prod/)."
    ),
    game_style: int = typer.Option(1, "--game-style", help="With --server: the GameStyleId (a one-round style)."),
    accounts: Path | None = typer.Option(
        None,
        "--accounts",
        help="With --server: a TOML file naming the two bots A and B play as ([a] and [b], each with bot_id and"
        " password), made beforehand with `rummy-vision bots add` on that server. Without it, match --server"
        " makes throwaway accounts through the admin API of your own local referee (and removes them with"
        " --no-record).",
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes playing rounds in parallel."),
    db: Path | None = typer.Option(
        None,
        "--db",
        help="SQLite records file (default: the server's data file). With --server, that server's records file,"
        " beside which its admin token is (the server keeps the rounds there itself).",
    ),
    record: bool = typer.Option(
        True,
        "--record/--no-record",
        help="Store every round in the records file. Over --server, --no-record also has the server forget the"
        " rounds it recorded and removes the accounts made for the run (both through its admin API).",
    ),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Play A against B in process and print rounds won, margins and win rates with 95% intervals.

    In process, the same --seed gives the same results bit for bit (every move and score; only the times
    differ), with any --workers, when no player follows the clock: random, greedy, a bot file that is
    deterministic itself, and search strategies given --nodes. Under a time budget (--time-ms, the default)
    a searcher goes as deep as the clock allows, so its moves can change with the machine's load.
    """
    run_match(
        MatchOptions(
            player_a,
            player_b,
            rounds,
            duplicate,
            seed,
            recognizer,
            time_ms,
            nodes,
            in_process,
            server,
            game_style,
            accounts,
            workers,
            db,
            record,
            json_output,
            strict,
        )
    )


@dataclass(frozen=True)
class MatchOptions:
    """The options of `match`, as the command was given them."""

    player_a: str
    player_b: str
    rounds: int
    duplicate: bool
    seed: str
    recognizer: str | None
    time_ms: int
    nodes: int | None
    in_process: bool
    server: str | None
    game_style: int
    accounts: Path | None
    workers: int
    db: Path | None
    record: bool
    json_output: bool
    strict: bool

    @property
    def move_time_ms(self) -> int | None:
        """The move time the bots are given: none under a node budget, which replaces the clock."""
        return None if self.nodes is not None else self.time_ms


def run_match(options: MatchOptions) -> None:
    """The work of `match`: check the players, play the rounds, record them and print the results."""

    from bot.cli.interrupted import exit_if_interrupted
    from bot.matches.summary import summarize

    console = Console(stderr=options.json_output)
    contenders = _checked_contenders(options)
    names = _distinct_names(contenders[0].name, contenders[1].name)
    played, admin, cut_from = _play_rounds(console, options, contenders, names)
    summaries = summarize(names, played, options.move_time_ms)
    sources = [contender.source() for contender in contenders]
    stored = _record(console, options, played, names, summaries, admin, cut_from)
    if options.json_output:
        _print_json(options, contenders, summaries, sources, played, stored, admin, cut_from)
    else:
        _print_tables(console, options, names, summaries, sources, played, stored, admin, cut_from)
    exit_if_interrupted(console, len(played), cut_from)
    strict_exit(options.strict, summaries)


def _checked_contenders(options: MatchOptions) -> list[Any]:
    """The two players, each checked it can play, and the options checked against each other."""
    from bot.matches.local_match import contender_for

    try:
        contenders = [
            contender_for(spec, options.recognizer, options.nodes, options.server)
            for spec in (options.player_a, options.player_b)
        ]
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    for contender in contenders:
        try:
            contender.check()
        except (ValueError, OSError) as error:
            raise typer.BadParameter(str(error)) from None
    if options.strict and options.server is not None:
        raise typer.BadParameter("--strict plays in process; over --server the bot client plays safe moves")
    if options.server is not None:
        if options.in_process:
            raise typer.BadParameter("choose --in-process or --server, not both")
        if options.duplicate:
            raise typer.BadParameter("the server deals the cards, so duplicate deals need --in-process")
    elif options.accounts is not None:
        raise typer.BadParameter("--accounts are the bots' accounts on a --server", param_hint="--accounts")
    return contenders


def _play_rounds(
    console: Any, options: MatchOptions, contenders: list[Any], names: tuple[str, str]
) -> tuple[list[Any], Any, int | None]:
    """The rounds played (each with the seat of A), the server's admin client if any, and the rounds planned
    when Ctrl-C cut the run short (else None)."""
    from bot.cli.interrupted import play_rounds
    from bot.matches.executors import RoundTask
    from bot.matches.local_match import schedule

    if options.server is not None:
        played, admin = _over_server(
            console,
            options.server,
            contenders,
            options.rounds,
            options.game_style,
            names,
            options.record,
            options.accounts,
            options.db,
        )
        return played, admin, None
    plan = schedule(contenders[0], contenders[1], options.rounds, options.seed, options.duplicate)
    tasks = [
        RoundTask(
            deal,
            (contenders[0], contenders[1]) if seat_of_a == 0 else (contenders[1], contenders[0]),
            move_time_ms=options.move_time_ms,
            strict=options.strict,
        )
        for deal, seat_of_a in plan
    ]
    with _progress(console, len(tasks), f"{names[0]} vs {names[1]}") as advance:
        results, cut_from = play_rounds(tasks, workers=options.workers, progress=advance)
    return list(zip(results, [seat for _deal, seat in plan])), None, cut_from


def _record(
    console: Any,
    options: MatchOptions,
    played: list[Any],
    names: tuple[str, str],
    summaries: list[Any],
    admin: Any,
    cut_from: int | None,
) -> tuple[Path | str, list[int]] | None:
    """Store the rounds (or, over a server with --no-record, have it forget them); closes the admin client."""
    from bot.cli.interrupted import with_interruption

    server = options.server
    stored: tuple[Path | str, list[int]] | None = None
    try:
        if server is not None and not options.record:
            _forget_over_server(console, admin, played)
        if options.record and played:
            dealing = "on the server" if server else "duplicate deals" if options.duplicate else "random seats"
            title = with_interruption(
                f"{names[0]} vs {names[1]}: {len(played)} rounds, {dealing}", len(played), cut_from
            )
            stored = _store(options.db, played, names, summaries, title, server=server, admin=admin)
            if server is None:
                from server.cards.viewer_cards import leave_opening_pictures

                # The first round's opening pictures, so a server started on the file shows it at once.
                leave_opening_pictures(Path(stored[0]), stored[1])
    except RuntimeError as error:
        raise typer.BadParameter(str(error)) from None
    finally:
        if admin is not None:
            admin.close()
    return stored


def _print_json(
    options: MatchOptions,
    contenders: list[Any],
    summaries: list[Any],
    sources: list[Any],
    played: list[Any],
    stored: tuple[Path | str, list[int]] | None,
    admin: Any,
    cut_from: int | None,
) -> None:
    from bot.matches.summary import summary_json

    extra: dict[str, Any] = {
        "duplicate": options.duplicate,
        "seed": options.seed,
        "recognizer": contenders[0].recognizer,
    }
    if cut_from is not None:
        extra["interrupted"] = {"rounds_played": len(played), "rounds_planned": cut_from}
    if stored is not None:
        where = "server" if options.server is not None else "db"
        extra["records"] = {where: str(stored[0]), "game_ids": stored[1]}
        if options.server is not None:
            extra["records"]["grouped"] = admin is not None
    answer = summary_json(summaries, len(played), **extra)
    for player, source in zip(answer["players"], sources):
        player["source"] = source
    typer.echo(json.dumps(answer))


def _print_tables(
    console: Any,
    options: MatchOptions,
    names: tuple[str, str],
    summaries: list[Any],
    sources: list[Any],
    played: list[Any],
    stored: tuple[Path | str, list[int]] | None,
    admin: Any,
    cut_from: int | None,
) -> None:
    from bot.cli.interrupted import with_interruption
    from bot.cli.match_output import (
        print_blindness,
        print_contradictions,
        print_faults,
        print_late,
        print_sources,
        summary_table,
    )

    server = options.server
    dealing = "dealt by the server" if server else "duplicate deals" if options.duplicate else "random seats"
    console.print(summary_table(summaries, len(played), with_interruption(dealing, len(played), cut_from)))
    print_sources(console, names, sources)
    print_blindness(console, summaries)
    print_contradictions(console, summaries)
    if server is None:  # over a server the bot clients keep the deadlines
        print_late(console, summaries, options.move_time_ms)
    print_faults(console, summaries)
    if stored is not None and stored[1] and server is not None:
        grouping = (
            "this run is one entry there, with its standings and rounds"
            if admin is not None
            else "one entry per round: grouping them into one run needs the server's admin token"
        )
        console.print(
            f"The server recorded {len(stored[1])} rounds (GameIds {stored[1][0]}-{stored[1][-1]}); open"
            f" {stored[0]}viewer ({grouping})",
            soft_wrap=True,
        )
    elif stored is not None and stored[1]:
        console.print(f"Recorded {len(stored[1])} rounds (GameIds {stored[1][0]}-{stored[1][-1]}) in {stored[0]}")
        from bot.cli.command_name import command_name

        tool = command_name()
        on_db = "" if options.db is None else f" --db {stored[0]}"
        console.print(
            f"Step through one: `{tool} replay {stored[1][0]}{on_db}`, or run `{tool} serve{on_db}` and open"
            f" {VIEWER_URL} (this run is one entry there, with its standings and rounds)",
            soft_wrap=True,
        )


def _distinct_names(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first != second else (f"{first} (A)", f"{second} (B)")


@contextmanager
def _progress(console: Any, total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar; yields the function that advances it."""

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        bar = progress.add_task(label, total=total)
        yield lambda done: progress.advance(bar, done)


def _over_server(
    console: Any,
    server: str,
    contenders: list[Any],
    rounds: int,
    style: int,
    names: tuple[str, str],
    record: bool,
    accounts_file: Path | None,
    records: Path | None,
) -> tuple[list[Any], Any]:
    """The rounds played over the server, and its admin client if this user may use it (the caller groups the
    rounds with it and closes it). Without --accounts the admin client is needed to make the accounts."""
    from bot.matches.match_accounts import read_accounts
    from bot.matches.server_admin import AdminUnavailable, ServerAdmin
    from bot.matches.server_match import play_over_server

    given = None
    if accounts_file is not None:
        try:
            given = read_accounts(accounts_file)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--accounts") from None
    try:
        admin = ServerAdmin.find(server, records=records)
    except AdminUnavailable as error:
        if given is None:
            raise typer.BadParameter(str(error), param_hint="--server") from None
        admin = None
    with _progress(console, rounds, f"{names[0]} vs {names[1]} on {server}") as advance:
        try:
            played = play_over_server(
                server,
                (contenders[0], contenders[1]),
                rounds,
                admin=admin,
                accounts=given,
                keep_accounts=record,
                game_style_id=style,
                progress=advance,
            )
        except RuntimeError as error:
            if admin is not None:
                admin.close()
            raise typer.BadParameter(str(error)) from None
    return played, admin


def _forget_over_server(console: Any, admin: Any, played: list[Any]) -> None:
    """--no-record over a server: the server recorded every round as it refereed it, so ask it to forget them."""
    game_ids = [result.game_id for result, _seat in played if result.game_id is not None]
    if not game_ids:
        return
    if admin is None:
        console.print(
            f"[yellow]The server keeps the {len(game_ids)} rounds it recorded: forgetting them needs its admin"
            " token (your own local referee).[/yellow]"
        )
        return
    admin.forget_games(game_ids)


def _store(
    db: Path | None,
    played: list[Any],
    names: tuple[str, str],
    summaries: list[Any],
    title: str,
    *,
    server: str | None,
    admin: Any,
) -> tuple[Path | str, list[int]]:
    """Store the rounds under one run; a server recorded its rounds itself, so then only group them there
    (when its admin API is ours to use)."""
    from bot.cli.match_output import COLUMNS, summary_rows
    from bot.matches.run_spec import RunSpec
    from rummy.standings import Standings

    run = RunSpec("match", title, names, Standings(COLUMNS, tuple(summary_rows(summaries))))
    if server is not None:
        from bot.matches.server_admin import server_root
        from bot.matches.server_match import group_rounds

        if admin is None:
            return server_root(server), [result.game_id for result, _seat in played if result.game_id is not None]
        return server_root(server), group_rounds(admin, played, names, run)
    from bot.matches.match_records import store_rounds

    return store_rounds(db, played, names, run=run)
