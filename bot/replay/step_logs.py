"""The bot's log per move (what it printed while choosing, as the arena's editor shows it), for `review`.

A match in the records carries the logs of moves played in process (`match`, `tournament`); a `play`
replay file carries its own bot's. When `review FILE` grades the match from the records, the file's logs
are matched to the record's steps of that bot in the order they were played.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.replay.replays import replay_file
from rummy.rebuild import ReplayError, replay_record


def step_logs(source: str, record: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """[{"Step", "Player", "Log"}] for every step whose mover's bot printed something."""
    path = Path(source)
    from_file = None
    if not (source.isdigit() or source == "latest") and path.is_file():
        try:
            from_file = replay_file(path)
        except (ReplayError, OSError, ValueError):
            from_file = None
    try:
        replay = replay_record(record) if record is not None else from_file
    except ReplayError:
        replay = from_file
    if replay is None:
        return []
    if from_file is None or replay is from_file:
        return [
            {
                "Step": step.number,
                "Player": replay.players[step.mover] if step.mover is not None else "",
                "Log": step.log,
            }
            for step in replay.steps
            if step.log
        ]
    me = from_file.players[0]
    ours = [step.log for step in from_file.steps if step.mover == 0 and step.move is not None]
    mine = [step for step in replay.steps if step.mover is not None and replay.players[step.mover] == me]
    return [{"Step": step.number, "Player": me, "Log": log} for step, log in zip(mine, ours) if log]
