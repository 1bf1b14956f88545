"""`rummy-vision`: one command line, a subcommand per use.

Each area keeps its commands in its own module with a `register(app)`; `REGISTRATIONS` lists them
in the order `--help` shows them.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from bot.cli import match, play, replay, selfplay, tournament
from recognizers import commands as recognizer_commands
from server import commands as server_commands
from strategies import commands as strategy_commands

app = typer.Typer(
    name="rummy-vision",
    help="Referee, bot client, recognizers and strategies for Rummy Vision.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def root() -> None:
    """Referee, bot client, recognizers and strategies for Rummy Vision."""


REGISTRATIONS: tuple[Callable[[typer.Typer], None], ...] = (
    recognizer_commands.register,  # recognize
    server_commands.register,  # serve, bots
    strategy_commands.register,  # analyze
    selfplay.register,
    play.register,
    match.register,
    tournament.register,
    replay.register,
)

for register in REGISTRATIONS:
    register(app)


def main() -> None:
    app()
