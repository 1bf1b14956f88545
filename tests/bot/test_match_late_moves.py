"""`match` says when our strategies' moves took longer than the move time: they are played in process,
unstopped (so seeds replay the same), where online the bot client would have sent a safe move."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bot.cli import app
from bot.matches.local_match import MoveRecord, RoundResult
from bot.matches.summary import summarize

SLOW = '''
import time


class Slow:
    name = "slow"

    def __init__(self, inner):
        self.inner = inner

    def recognize(self, cards, catalog):
        time.sleep(0.08)  # longer than the match's move time below, whatever the machine
        return self.inner.recognize(cards, catalog)


def make_recognizer(inner, **options):
    return Slow(inner)
'''


def _match(tmp_path, time_ms: int, *extra: str):
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW, encoding="utf-8")
    args = ["match", f"greedy@{slow}", "greedy", "--rounds", "2", "--duplicate", "--no-record", "--time-ms"]
    result = CliRunner().invoke(app, [*args, str(time_ms), *extra], env={"HOME": str(tmp_path), "COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    return result


def test_moves_longer_than_the_move_time_are_counted_and_said(tmp_path):
    answer = json.loads(_match(tmp_path, 20, "--json").stdout)
    slow = answer["players"][0]
    assert slow["name"].startswith("greedy@") and slow["late_moves"] >= 2, "each of its moves waits on the recognizer"
    text = " ".join(_match(tmp_path, 20).output.split())
    assert "moves took longer than the move time (20 ms; the longest" in text
    assert "online, `play` sends a safe move at the deadline instead" in text


def test_no_word_when_every_move_came_in_time(tmp_path):
    text = " ".join(_match(tmp_path, 60_000).output.split())
    assert "longer than the move time" not in text


def test_the_longest_late_move_is_one_that_was_played():
    """A faulted move (replaced by a safe one) is neither counted late nor reported as the longest."""
    moves = (
        MoveRecord(0, {"Give": 1}, 500.0, "", 0, False),
        MoveRecord(0, {"Give": 2}, 9_000.0, "timed out", 0, False),
        MoveRecord(1, {"Give": 3}, 5.0, "", 0, False),
    )
    result = RoundResult("d:0", ("a", "b"), 0, (0, -3), 0, moves, ("x", "y", "z", "w"))
    mine = summarize(("a", "b"), [(result, 0)], move_time_ms=100)[0]
    assert mine.late_moves == 1 and mine.longest_ms == 500.0
