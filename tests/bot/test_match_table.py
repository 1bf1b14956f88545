"""Result tables keep each player's whole name, recognizer included, on a terminal of 80 columns."""

from __future__ import annotations

from rich.console import Console

from bot.cli.match_output import summary_table
from bot.matches.summary import PlayerSummary


def test_a_long_player_name_folds_and_loses_no_character_at_80_columns() -> None:
    names = ("expectimax:nodes=459000@harsh:0.1", "perfect")
    summaries = [PlayerSummary(name, 1, 0.5, (0.095, 0.905), 0.0, 120.0, 0) for name in names]
    console = Console(width=80, record=True, color_system=None)
    console.print(summary_table(summaries, 2, "duplicate deals"))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    first_cells = "".join(line.split("│")[1].strip() for line in lines if line.startswith("│"))
    assert names[0] in first_cells and "…" not in "".join(lines)
    assert "faults" in "".join(lines), "every column is still shown"


def test_the_ratings_table_keeps_a_long_bot_name_whole_at_80_columns() -> None:
    from types import SimpleNamespace

    from bot.cli.tournament import ratings_table

    name = "expectimax:nodes=459000@harsh:0.1"
    rating = SimpleNamespace(name=name, rating=1512.0, low=1480.0, high=1544.0, wins=30, rounds=60, tournaments=2)
    console = Console(width=80, record=True, color_system=None)
    console.print(ratings_table([rating]))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert name in "".join(line.split("│")[2].strip() for line in lines if line.startswith("│"))
    assert "…" not in "".join(lines)
