"""`rummy-vision replay FILE|GAMEID`: step through a recorded match in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)


def replay(
    source: str = typer.Argument(..., metavar="FILE|GAMEID", help="A replay file (.jsonl) or a GameId in the records."),
    turn: int | None = typer.Option(None, "--turn", min=0, help="Show this step only (0 is the deal)."),
    db: Path | None = typer.Option(None, "--db", help="Records file for a GameId (default: the server's data file)."),
    continue_with: str | None = typer.Option(
        None, "--continue-with", help="What if: from --turn on, the player to move plays this strategy."
    ),
    opponent: str = typer.Option("greedy", "--opponent", help="Who plays the other seat in a what-if."),
) -> None:
    """Step through a recorded match: hands with landmarks, each move, points and the deck.

    With a terminal and no --turn, keys step through it (Enter/n next, p back, a number jumps, q quits);
    otherwise every step is printed.
    """
    from rich.console import Console

    from bot.replay.replays import ReplayError
    from bot.replay.replays import continue_with as play_on
    from bot.replay.view import render_step

    console = Console()
    try:
        recorded = _load(source, db)
        if continue_with is not None:
            start = turn if turn is not None else 0
            what_if, rounds_won = play_on(recorded, start, continue_with, opponent)
            for step in what_if.steps:
                console.print(render_step(what_if, step))
            console.print(f"What-if result: rounds won {rounds_won[0]} - {rounds_won[1]} ({what_if.players[0]} first)")
            return
    except (ReplayError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    for problem in recorded.mismatches:
        console.print(f"[yellow]warning:[/yellow] {problem}")
    if turn is not None:
        if turn >= len(recorded.steps):
            console.print(f"[red]error:[/red] step {turn} is out of range (0 to {len(recorded.steps) - 1})")
            raise typer.Exit(2)
        console.print(render_step(recorded, recorded.steps[turn]))
        return
    if not sys.stdin.isatty():
        for step in recorded.steps:
            console.print(render_step(recorded, step))
        return
    _interactive(console, recorded)


def _load(source: str, db: Path | None):  # type: ignore[no-untyped-def]
    from bot.replay.replays import ReplayError, replay_file, replay_record

    if source.isdigit() and not Path(source).exists():
        from bot.matches.match_records import default_db_path
        from rummy.records import Records

        path = Path(db) if db is not None else default_db_path()
        if not path.exists():
            raise ReplayError(f"no records file at {path}")
        records = Records(path)
        try:
            record = records.match_record(int(source))
        finally:
            records.close()
        if record is None:
            raise ReplayError(f"no match {source} in {path}")
        if record.get("Status") == "RUNNING":
            raise ReplayError(f"match {source} is still running; replays show finished matches")
        return replay_record(record)
    return replay_file(source)


def _interactive(console, recorded) -> None:  # type: ignore[no-untyped-def]
    from bot.replay.view import render_step

    position = 0
    while True:
        console.print(render_step(recorded, recorded.steps[position]))
        answer = console.input("[dim]Enter/n next, p back, number jump, q quit[/dim] ").strip().lower()
        if answer in ("q", "quit"):
            return
        if answer == "p":
            position = max(0, position - 1)
        elif answer.isdigit():
            position = min(len(recorded.steps) - 1, int(answer))
        elif position == len(recorded.steps) - 1:
            return
        else:
            position += 1
