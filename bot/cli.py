"""`rummy-vision`: one command line, a subcommand per use."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from recognizers.commands import register as register_recognizers

app = typer.Typer(
    name="rummy-vision",
    help="Referee, bot client, recognizers and strategies for Rummy Vision.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def root() -> None:
    """Referee, bot client, recognizers and strategies for Rummy Vision."""


register_recognizers(app)

from server.commands import register as register_server  # noqa: E402

register_server(app)

from strategies.commands import register as register_strategies  # noqa: E402

register_strategies(app)


@app.command()
def selfplay(
    seed: int = typer.Option(1, help="Deal seed: the same seed replays the same round."),
) -> None:
    """Play one seeded round between two random players and print it turn by turn."""
    from bot.selfplay import self_play

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


from bot.commands import register as register_play  # noqa: E402 -- commands register after the app exists

register_play(app)

from bot.match_command import register as register_match  # noqa: E402

register_match(app)

from bot.tournament_command import register as register_tournament  # noqa: E402

register_tournament(app)

from bot.replay_command import register as register_replay  # noqa: E402

register_replay(app)

from bot.play_human_command import register as register_play_human  # noqa: E402

register_play_human(app)


def main() -> None:
    app()
