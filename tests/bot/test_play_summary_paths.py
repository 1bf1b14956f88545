"""`play`'s summary prints every replay path whole, however narrow the terminal."""

from __future__ import annotations

from rich.console import Console

from bot.cli.play_output import replay_lines, summary_table
from bot.client.runner import MatchSummary


def test_replay_paths_are_never_cut_short():
    path = "/home/someone/.local/share/rummy-vision/replays/2026-11-23T19-40-00-game-123456-vs-housebot-hard.jsonl"
    summary = MatchSummary(123456, "housebot-hard", "WON", 1, 0, 20, 0, 3.2, record_path=path)
    console = Console(width=60, record=True)
    console.print(summary_table([summary]))
    for line in replay_lines([summary]):
        console.print(line, soft_wrap=True, highlight=False, markup=False)
    assert path in console.export_text()
