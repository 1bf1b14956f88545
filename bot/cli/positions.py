"""`rummy-vision positions add FILE --best MOVE --why TEXT`: grow the suite of positions taken from games."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from bot.replay.positions import DEFAULT_SUITE, add_to_suite
from strategies.position import PositionError


def register(app: typer.Typer) -> None:
    positions = typer.Typer(
        help="The position suite: positions taken from games (`replay ... --turn N --position OUT.json`), each with"
        " its best move and why; `pytest tests/positions` runs a strategy on it.",
        no_args_is_help=True,
    )
    positions.command("add")(add)
    app.add_typer(positions, name="positions")


def add(
    file: Path = typer.Argument(..., metavar="OUT.json", help="A position written by `replay --position`."),
    best: str = typer.Option(
        ..., "--best", metavar="MOVE", help="The best move, as the arena writes it: '{\"Give\": 12}'."
    ),
    why: str = typer.Option(..., "--why", metavar="TEXT", help="Why it is best: the suite's comment."),
    objective: str = typer.Option("win", "--objective", help="win or margin: what the move is best for."),
    suite: Path | None = typer.Option(
        None, "--suite", help="The suite file (JSON Lines; default: fixtures/positions/from_games.jsonl)."
    ),
) -> None:
    """Append a position with its best move and why to the position suite."""
    if objective not in ("win", "margin"):
        raise typer.BadParameter("must be win or margin", param_hint="--objective")
    try:
        position = json.loads(file.read_text(encoding="utf-8"))
        move = json.loads(best)
    except OSError as error:
        raise typer.BadParameter(f"cannot read {file}: {error.strerror}") from None
    except ValueError as error:
        raise typer.BadParameter(f"not JSON: {error}") from None
    if not isinstance(position, dict) or not isinstance(move, dict):
        raise typer.BadParameter("the file must hold one position object and --best one move object")
    target = suite or DEFAULT_SUITE
    try:
        number = add_to_suite(position, move, why, target, objective)
    except PositionError as error:
        raise typer.BadParameter(str(error)) from None
    typer.echo(f"Added as position {number} of {target}; `pytest tests/positions` checks a strategy finds it.")
