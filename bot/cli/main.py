"""`rummy-vision`: one command line, a subcommand per use.

Each area keeps its commands in a module with a `register(app)`; `REGISTRATIONS` lists them in the
order `--help` shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from bot.cli import (
    analyze,
    check_recording,
    match,
    measure,
    new_bot,
    play,
    play_human,
    positions,
    recognize,
    replay,
    review,
    solve,
    tournament,
    train,
)
from bot.matches.selfplay import self_play
from server import commands as server_commands
from server.storage.schema import RecordsTooNew


class Commands(TyperGroup):
    """Every command: a records file that a newer rummy-vision wrote is refused in one line, not a traceback."""

    def invoke(self, ctx: Any) -> Any:  # typer's own (vendored) click.Context
        try:
            return super().invoke(ctx)
        except RecordsTooNew as error:
            Console(stderr=True, highlight=False).print(f"[red]{escape(str(error))}[/]", soft_wrap=True)
            raise typer.Exit(1) from None


app = typer.Typer(
    cls=Commands,
    name="rummy-vision",
    help="Referee, bot client, recognizers and strategies for Rummy Vision.",
    no_args_is_help=True,
    add_completion=False,
    # Docstrings are wrapped for the source; Markdown reflows each paragraph to the terminal's width
    # (so help texts write placeholders as IMAGES/LANDMARK, never <landmark>, which Markdown drops).
    rich_markup_mode="markdown",
)


@app.callback()
def root() -> None:
    """Referee, bot client, recognizers and strategies for Rummy Vision."""


def selfplay(
    seed: int = typer.Option(1, help="Deal seed: the same seed replays the same round."),
) -> None:
    """Play one seeded round between two random players and print it turn by turn."""
    console = Console()
    match, turns = self_play(seed)
    table = Table(title=f"Self-play, seed {seed}: landmarks {', '.join(match.current.deal.kinds)}")
    for column in ("turn", "player", "move", "points P0", "points P1", "deck"):
        table.add_column(column)
    for report in turns:
        table.add_row(
            str(report.turn),
            f"P{report.player}",
            report.move,
            str(report.points[0]),
            str(report.points[1]),
            str(report.cards_in_deck),
        )
    console.print(table)
    finished = match.finished_rounds[-1]
    console.print(
        f"Final scores (after -{match.rules.hand_penalty} per card in hand): "
        f"P0 {finished.points[0]}, P1 {finished.points[1]}; winner P{finished.winner()}"
    )


def register_selfplay(app: typer.Typer) -> None:
    app.command()(selfplay)


REGISTRATIONS: tuple[Callable[[typer.Typer], None], ...] = (
    recognize.register,  # recognize, recognizers import|stats
    server_commands.register,  # serve, bots
    analyze.register,
    solve.register,
    train.register,
    register_selfplay,
    play.register,
    match.register,
    tournament.register,
    replay.register,
    review.register,
    play_human.register,  # play-human
    measure.register,  # measure NAME
    new_bot.register,  # new-bot
    check_recording.register,  # check-recording
    positions.register,  # positions add
)

for register in REGISTRATIONS:
    register(app)


def main() -> None:
    app()
