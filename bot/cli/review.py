"""`rummy-vision review GAME|FILE`: grade every decision of a recorded match against the engine."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from rummy.belief import EXPECTED
from rummy.terminal_text import escape


def register(app: typer.Typer) -> None:
    app.command("review")(review)


def review(
    source: str = typer.Argument(
        ..., metavar="GAME|FILE", help="A GameId in the records, `latest`, or a replay file written by `play`."
    ),
    objective: str = typer.Option("win", "--objective", help="win (probability of winning the round) or margin."),
    json_output: bool = typer.Option(False, "--json", help="Print the review as one JSON object."),
    html: Path | None = typer.Option(None, "--html", help="Also write the review as a self-contained HTML page."),
    db: Path | None = typer.Option(None, "--db", help="Records file (default: the server's data file)."),
    nodes: int | None = typer.Option(
        None,
        "--nodes",
        min=1,
        help="Search nodes per decision where no exact value is at hand (default 20000; without the perfect-play"
        " table: with it, `perfect` grades every decision).",
    ),
    recognizer: str | None = typer.Option(
        None,
        "--recognizer",
        help="For a replay FILE whose labels do not name its cards (a bot file's recording): label the card "
        "pictures with this recognizer (e.g. local:azure, azure, customvision; the file's own labels come first).",
    ),
) -> None:
    """Grade every decision of both players of a finished match: its loss against the engine's best move,
    the biggest mistakes with the better move, each player's totals, and a chart of the win probability
    (in the HTML page). Grades with `perfect` once `rummy-vision solve` has built its table, else with the
    coach's search. Says which values are exact and which are estimates.
    """

    console = Console(stderr=True, highlight=False)
    if objective not in ("win", "margin"):
        raise typer.BadParameter("--objective must be win or margin")
    record, result = _graded(console, source, db, objective, nodes, recognizer)
    data = result.to_json()
    from bot.replay.step_logs import step_logs

    data["Logs"] = step_logs(source, record)  # each move's bot log, as the arena's editor shows it
    if html is not None:
        from strategies.coaching.review_page import review_html

        html.write_text(review_html(data), encoding="utf-8")
        console.print(f"wrote {escape(html)}")
    if json_output:
        typer.echo(json.dumps(data, indent=1))
        return
    print_review(data)


def _graded(
    console: Any, source: str, db: Path | None, objective: str, nodes: int | None, recognizer: str | None
) -> tuple[dict[str, Any] | None, Any]:
    """The match's record (None for a replay file not in the records) and its review, graded under a
    progress bar; exits 2 when it cannot be reviewed."""
    from strategies.coaching.game_review import ReviewError, review_record
    from strategies.coaching.grading import SEARCH_NODES, default_grader

    try:
        record = load_record(source, db)
        grader = default_grader(objective, search_nodes=nodes or SEARCH_NODES)

        with Progress(console=console, transient=True) as bar:
            what = f"match {record['GameId']}" if record is not None else source
            task = bar.add_task(f"grading {what}", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            if record is not None:
                return record, review_record(record, grader, progress=progress)
            from bot.replay.file_review import review_file

            console.print(f"match not in the records: reviewing {escape(source)} from the file alone")
            return record, review_file(source, grader, progress=progress, recognizer=recognizer)
    except (ReviewError, ValueError, OSError) as error:
        console.print(f"[red]error:[/red] {escape(error)}", soft_wrap=True)
        raise typer.Exit(2) from None


def load_record(source: str, db: Path | None) -> dict[str, Any] | None:
    """The match record of a GameId, `latest`, or the game of a replay file, from the records; None for a
    replay file whose match is not in them (it is then reviewed from the file alone)."""
    from bot.matches.match_records import default_db_path
    from server.storage.recorded_games import recorded_games
    from strategies.coaching.game_review import ReviewError

    path = Path(db) if db is not None else default_db_path()
    players: tuple[str, str] | None = None
    game_id: int | None = None
    if source == "latest":
        pass
    elif source.isdigit() and not Path(source).exists():
        game_id = int(source)
    else:
        game_id, players = _file_game(Path(source))
    if not path.exists():
        if players is not None:
            return None
        raise ReviewError(f"no records file at {path} (give --db, or play a match first)")
    with recorded_games(path) as games:
        if game_id is None:
            finished = [game for game in games.list_matches() if game["Status"] != "RUNNING"]
            if not finished:
                raise ReviewError(f"no finished match in {path}")
            game_id = int(finished[0]["GameId"])
        record = games.match_record(game_id)
    if players is not None and (record is None or set(players) != set(record["Players"])):
        return None  # not this file's match (another server's game of the same number, or none)
    if record is None:
        raise ReviewError(f"no match {game_id} in {path}; give the --db the match was recorded in")
    return record


def _file_game(path: Path) -> tuple[int, tuple[str, str]]:
    """The game id and the two bots' names of a replay file."""
    from bot.replay.recording import ReplayError as RecordingError
    from bot.replay.recording import read_replay
    from strategies.coaching.game_review import ReviewError

    try:
        lines = read_replay(path)
    except (RecordingError, OSError) as error:
        raise ReviewError(f"{path}: not a GameId, `latest` or a readable replay file: {error}") from None
    header = next((line for line in lines if line.get("type") == "header"), {})
    game_id = header.get("game_id")
    if not isinstance(game_id, int):
        raise ReviewError(f"{path}: the replay file names no game id")
    return game_id, (str(header.get("bot_id")), str(header.get("opponent_id")))


def _totals_table(data: dict[str, Any], loss: Any) -> Any:
    """Each player's totals: decisions, best moves, and the losses (graded per decision under win)."""

    totals = Table(title="Totals")
    win = data["Objective"] == "win"
    columns = ("player", "decisions", "best moves", "accuracy", "mean loss", "inacc./mistakes/blunders", "exact")
    for column in columns if win else ("player", "decisions", "best moves", "total loss", "mean loss", "exact"):
        totals.add_column(column, overflow="fold")
    for row in data["Totals"]:
        if win:  # per decision and on average: a sum of P(win) losses is no probability
            grades = f"{row['Inaccuracies']}/{row['Mistakes']}/{row['Blunders']}"
            accuracy = "-" if row["Accuracy"] is None else f"{row['Accuracy']:.0f} %"
            figures: tuple[str, ...] = (accuracy, loss(row["MeanLoss"]), grades)
        else:
            figures = (loss(row["TotalLoss"]), loss(row["MeanLoss"]))
        totals.add_row(
            escape(row["Player"]), str(row["Decisions"]), str(row["BestMoves"]), *figures, str(row["ExactDecisions"])
        )
    return totals


def _print_beliefs(console: Any, data: dict[str, Any]) -> None:
    """Each decision made or graded on an uncertain belief, with what that belief held of the unsure cards."""

    rows = [decision for decision in data["Decisions"] if decision.get("Belief") or decision.get("PlayerBelief")]
    if not rows:
        return
    table = Table(title=f"Decisions on an uncertain belief (their values {EXPECTED})")
    for column in ("step", "player", "the review's values are expected over", "what the player believed"):
        table.add_column(column, overflow="fold")
    for decision in rows:
        table.add_row(
            str(decision["Step"]),
            escape(decision["Player"]),
            "\n".join(escape(line) for line in decision.get("Belief") or ()),
            "\n".join(escape(line) for line in decision.get("PlayerBelief") or ()),
        )
    console.print(table)


def print_review(data: dict[str, Any]) -> None:

    console = Console()
    objective = data["Objective"]
    unit = "win probability" if objective == "win" else "points of margin"

    def loss(value: float) -> str:
        return f"{value * 100:.1f} %" if objective == "win" else f"{value:.1f}"

    def kind(decision: dict[str, Any]) -> str:
        expected = f", {EXPECTED}" if decision.get("Expected") else ""
        return (
            f"exact{expected} ({escape(decision['Source'])})"
            if decision["Exact"]
            else f"[yellow]estimate[/yellow]{expected} ({escape(decision['Source'])})"
        )

    console.print(f"[bold]Review of {escape(data['Title'])}[/bold] ({objective} objective, loss in {unit})")
    console.print(f"Values: {escape(data['Grader'])}.", highlight=False)
    for note in data["Notes"]:
        console.print(escape(note) if data["AllExact"] else f"[yellow]{escape(note)}[/yellow]", highlight=False)
    totals = _totals_table(data, loss)
    console.print(totals)
    for row in data["Totals"]:
        console.print(f"{escape(row['Player'])}: {escape(row['Summary'])}", highlight=False, soft_wrap=True)
    for title, decisions in (("Biggest mistakes", data["Worst"]), ("Every decision", data["Decisions"])):
        table = Table(title=title)
        for column in ("step", "player", "played", "better move", "loss", "value"):
            table.add_column(column, overflow="fold")
        for decision in decisions:
            table.add_row(
                str(decision["Step"]),
                escape(decision["Player"]),
                escape(decision["Played"]),
                escape(decision["Best"]),
                loss(decision["loss"]),
                kind(decision),
            )
        console.print(table)
    _print_beliefs(console, data)
    if data.get("Logs"):
        logs = Table(title="The bots' logs, per move (what each printed while choosing)")
        for column in ("step", "player", "log"):
            logs.add_column(column, overflow="fold")
        for entry in data["Logs"]:
            logs.add_row(str(entry["Step"]), entry["Player"], entry["Log"].rstrip("\n"))
        console.print(logs)
