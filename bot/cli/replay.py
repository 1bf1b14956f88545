"""`rummy-vision replay FILE|GAMEID`: step through a recorded match in the terminal."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from rummy.terminal_text import escape

DEFAULT_SERVER = "http://127.0.0.1:8080"


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)


# Long: a Typer command: 32 of its lines declare its options; its body loads the match and shows it.
def replay(
    source: str = typer.Argument(..., metavar="FILE|GAMEID", help="A replay file (.jsonl) or a GameId in the records."),
    turn: int | None = typer.Option(None, "--turn", min=0, help="Show this step only (0 is the deal)."),
    db: Path | None = typer.Option(
        None,
        "--db",
        help="Records file for a GameId (default: the server's data file); with --viewer, the server's records"
        " file, beside which its admin token is.",
    ),
    continue_with: str | None = typer.Option(
        None,
        "--continue-with",
        help="What if: from --turn on, the player to move plays this strategy (GameId replays only: needs the deck).",
    ),
    opponent: str = typer.Option("greedy", "--opponent", help="Who plays the other seat in a what-if."),
    viewer: bool = typer.Option(
        False,
        "--viewer",
        help="Send the replay FILE to your local server's viewer (any file, its match recorded there or not) and"
        " print where it shows, with its review.",
    ),
    server: str = typer.Option(
        DEFAULT_SERVER, "--server", help="With --viewer: the local server's URL (`rummy-vision serve`)."
    ),
    position: Path | None = typer.Option(
        None,
        "--position",
        metavar="OUT.json",
        help="With --turn N: write the position of the player to move after step N as an `analyze` position"
        " (then `rummy-vision analyze OUT.json`, or `rummy-vision positions add OUT.json --best MOVE --why TEXT`).",
    ),
) -> None:
    """Step through a recorded match: hands with landmarks, each move, points and the deck.

    In a terminal and without --turn, single keys step through it: right/n/space next, left/p back,
    Home/End first and last, digits then Enter jump to a step, q quits. Otherwise every step is printed.
    """

    from bot.replay.replays import ReplayError
    from bot.replay.view import render_step

    console = Console()
    err = Console(stderr=True, highlight=False)
    if viewer:
        _to_viewer(source, server, console, err, db)
        return
    try:
        recorded = _load(source, db)
        if turn is not None and turn >= len(recorded.steps):
            raise ReplayError(f"step {turn} is out of range: this match has steps 0 to {len(recorded.steps) - 1}")
        if continue_with is not None:
            _what_if(console, recorded, turn if turn is not None else 0, continue_with, opponent)
            return
    except (ReplayError, ValueError) as error:
        err.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(2) from None
    for problem in recorded.mismatches:
        err.print(f"[yellow]warning:[/yellow] {escape(str(problem))}", soft_wrap=True)
    hint = viewer_hint(source, db)
    if hint:
        err.print(hint, soft_wrap=True, highlight=False)
    if position is not None:
        _write_position(source, recorded, turn, position, console, err)
        return
    if turn is not None:
        console.print(render_step(recorded, recorded.steps[turn]))
        return
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        for step in recorded.steps:
            console.print(render_step(recorded, step))
        return
    _interactive(console, recorded)


def _what_if(console: Any, recorded: Any, start: int, strategy: str, opponent: str) -> None:
    """--continue-with: the match played on from step START by STRATEGY, and how it ends against the recorded one."""
    from bot.replay.replays import continue_with as play_on
    from bot.replay.view import render_step

    what_if, rounds_won = play_on(recorded, start, strategy, opponent)
    for step in what_if.steps:
        console.print(render_step(what_if, step))
    console.print(compare_outcomes(recorded, what_if, rounds_won, start))


def _to_viewer(source: str, server: str, console: Any, err: Any, db: Path | None) -> None:
    from bot.cli.replay_viewer import ViewerRefused, send_to_viewer

    if source.isdigit() and not Path(source).exists():
        err.print(
            f"[red]error:[/red] --viewer sends a replay file; match {source} of the records is in the viewer already,"
            f" at {server.rstrip('/')}/viewer#game/{source}",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    try:
        sent = send_to_viewer(Path(source), server, db)
    except ViewerRefused as error:
        err.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(2) from None
    root = server.rstrip("/")
    kept = "was in the viewer already" if sent.get("Existing") else "is in the viewer"
    said = {key: escape(sent.get(key, "?")) for key in ("FileId", "Name", "Viewer", "Review")}  # the server's words
    console.print(f"Replay file {said['FileId']} ({said['Name']}) {kept}:", highlight=False)
    console.print(f"  {escape(root)}{said['Viewer']}", highlight=False, soft_wrap=True)
    console.print(f"  review: {escape(root)}{said['Review']}", highlight=False, soft_wrap=True)
    console.print(
        "Its card pictures are drawn by the server from the labels the bot's recognizer recorded, not the arena's"
        " photos; a card the file never labelled shows as unknown.",
        highlight=False,
    )


def viewer_hint(source: str, db: Path | None) -> str:
    """For a replay file whose match is in the records: where the viewer shows it, with every landmark."""
    if source.isdigit() or not Path(source).is_file():
        return ""
    from bot.cli.review import load_record

    try:
        record = load_record(source, db)
    except (ValueError, OSError):
        return ""
    if record is None:
        return (
            f"`rummy-vision review {source}` grades this match from the file alone (it is not in the records);"
            f" `rummy-vision replay {source} --viewer` shows it and its review in your local server's viewer."
        )
    game_id = record["GameId"]
    return (
        f"Match {game_id} is in the records: the viewer shows it at /viewer#game/{game_id} of `rummy-vision serve` "
        f"(http://127.0.0.1:8080/viewer#game/{game_id} by default); `rummy-vision review {game_id}` grades it."
    )


def compare_outcomes(recorded: Any, what_if: Any, rounds_won: tuple[int, ...], start: int) -> Table:
    """The what-if's end beside the recorded match's end: rounds won and the last round's points, by seat."""
    actual = recorded.steps[-1].views
    played = [view for view in actual if view is not None]
    table = Table(title=f"What if, from step {start}, against what happened")
    table.add_column("")
    table.add_column("seat 0", justify="right")
    table.add_column("seat 1", justify="right")
    table.add_row("recorded players", *map(escape, recorded.players))
    if played:
        view, seat = played[0], actual.index(played[0])
        mine, theirs = (int(view["MyScore"]), int(view["OppScore"])), (int(view["MyPoints"]), int(view["OppPoints"]))
        won = mine if seat == 0 else mine[::-1]
        points = theirs if seat == 0 else theirs[::-1]
        table.add_row("recorded rounds won", str(won[0]), str(won[1]))
        table.add_row("recorded last-round points", str(points[0]), str(points[1]))
    table.add_row("what-if players", *map(escape, what_if.players))
    table.add_row("what-if rounds won", str(rounds_won[0]), str(rounds_won[1]))
    final = what_if.steps[-1].views[0]
    if final is not None:
        table.add_row("what-if last-round points", str(final["MyPoints"]), str(final["OppPoints"]))
    return table


def _load(source: str, db: Path | None):  # type: ignore[no-untyped-def]
    from bot.replay.replays import ReplayError, replay_file, replay_record

    if source.isdigit() and not Path(source).exists():
        from bot.matches.match_records import default_db_path
        from server.storage.recorded_games import recorded_games

        path = Path(db) if db is not None else default_db_path()
        if not path.exists():
            raise ReplayError(f"no records file at {path}")
        with recorded_games(path) as games:
            record = games.match_record(int(source))
        if record is None:
            raise ReplayError(f"no match {source} in {path}")
        if record.get("Status") == "RUNNING":
            raise ReplayError(f"match {source} is still running; replays show finished matches")
        return replay_record(record)
    return replay_file(source)


def _write_position(source: str, recorded: Any, turn: int | None, out: Path, console: Any, err: Any) -> None:

    from bot.replay.positions import step_position
    from bot.replay.recording import read_replay
    from bot.replay.replays import ReplayError

    if turn is None:
        raise typer.BadParameter("--position needs --turn N (the step whose position to write)")
    try:
        lines = None if recorded.seed is not None else read_replay(source)
        found = step_position(recorded, turn, lines=lines)
    except (ReplayError, ValueError) as error:
        err.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(2) from None
    out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    console.print(f"Wrote {out}: {found['Comment']}. Rank its moves: rummy-vision analyze {out}", soft_wrap=True)


KEYS_HELP = "keys: \u2192/n/space next, \u2190/p back, Home/End first/last, digits+Enter jump, q quit"
NEXT = {"right", "down", "pagedown", "n", " ", "\n", "\r", "j", "l"}
BACK = {"left", "up", "pageup", "p", "k", "h", "\x7f"}


def _interactive(console: Any, recorded: Any) -> None:
    """Step with single keys; an unknown key gets the list of keys."""
    from bot.replay.keys import KeyReader
    from bot.replay.view import render_step

    last = len(recorded.steps) - 1
    position, typed, message = 0, "", ""
    with KeyReader(sys.stdin.fileno()) as keys:
        while True:
            console.clear()
            console.print(render_step(recorded, recorded.steps[position]))
            status = f"jump to step {typed}_ (Enter)" if typed else message or KEYS_HELP
            console.print(f"[dim]{status}[/dim]", highlight=False)
            message = ""
            key = keys.read() or "q"
            if key.isdigit():
                typed += key
            elif typed and key in ("\n", "\r"):
                position, typed = min(last, int(typed)), ""
            elif key in ("q", "Q", "escape", "\x04"):
                return
            elif key in NEXT:
                typed = ""
                if position == last:
                    message = f"this is the last step ({KEYS_HELP})"
                position = min(last, position + 1)
            elif key in BACK:
                typed = ""
                position = max(0, position - 1)
            elif key in ("home", "g"):
                position, typed = 0, ""
            elif key in ("end", "G"):
                position, typed = last, ""
            else:
                typed = ""
                message = f"unknown key {key!r}; {KEYS_HELP}"
