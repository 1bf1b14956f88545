"""Rich tables for match results."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from bot.matches.summary import PlayerSummary


def summary_table(summaries: Sequence[PlayerSummary], rounds: int, dealing: str) -> Table:
    table = Table(title=f"{rounds} rounds, {dealing}")
    for column in ("player", "won", "win rate", "95% CI", "margin", "ms/move", "faults"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for summary in summaries:
        low, high = summary.ci95
        table.add_row(
            summary.name,
            str(summary.wins),
            f"{summary.win_rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{summary.mean_margin:+.1f}",
            f"{summary.ms_per_move:.1f}",
            str(summary.faults),
        )
    return table
