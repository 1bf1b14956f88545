"""`rummy-vision selfplay`: one seeded round between two random players, turn by turn."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command(name="selfplay")(selfplay)


def selfplay(
    seed: int = typer.Option(1, help="Deal seed: the same seed replays the same round."),
) -> None:
    """Play one seeded round between two random players and print it turn by turn."""
    from rich.console import Console
    from rich.table import Table

    from bot.matches.selfplay import self_play

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
