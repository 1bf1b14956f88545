"""`review FILE`'s review of a replay file alone: the file read, then graded by
`strategies.coaching.file_review` (which the server's viewer uses too, for a file sent to it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.replay.recording import read_replay
from rummy.rebuild import ReplayError
from strategies.coaching.file_review import review_lines
from strategies.coaching.game_review import GameReview, ReviewError
from strategies.coaching.grading import Grader


def review_file(path: str | Path, grader: Grader, *, progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Grade every decision of a replay file that its gamestates and labels let us rebuild."""
    try:
        lines = read_replay(path)
    except (ReplayError, OSError) as error:
        raise ReviewError(f"{path}: not a readable replay file: {error}") from None
    return review_lines(lines, str(path), grader, progress=progress)
