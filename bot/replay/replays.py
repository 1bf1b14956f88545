"""Replays the bot side adds to `rummy.rebuild`: client replay files, and "what if" continuations.

A match in the referee's records is rebuilt by `rummy.rebuild.replay_record`. A replay file written
by the bot client (`bot/replay/recording.py`) holds the gamestates one player received, exactly as
received, and the moves it sent; it knows no landmarks, so a what-if needs the match's record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bot.replay.recording import read_replay
from recognizers.registry import get_recognizer
from rummy import parse_move, render_gamestate
from rummy.rebuild import Replay, ReplayError, Step, labels_of, rebuild_at, replay_record, views_of
from rummy.replay_steps import drawn_card, opponent_move, replay_lines
from strategies.agent import ArenaAgent
from strategies.registry import get_strategy

__all__ = [
    "Replay",
    "ReplayError",
    "Step",
    "continue_with",
    "drawn_card",
    "final_points",
    "opponent_move",
    "rebuild_at",
    "replay_file",
    "replay_lines",
    "replay_record",
]


def replay_file(path: str | Path) -> Replay:
    """The steps of a bot client's replay file: its gamestates as received, with the moves it sent, the
    opponent's moves worked out from how the hands changed, and the labels the bot's recognizer gave."""
    try:
        lines = read_replay(path)
    except OSError as error:
        raise ReplayError(str(error)) from None
    return replay_lines(lines, str(path))


def continue_with(
    replay: Replay, step_number: int, strategy: str, opponent: str = "greedy"
) -> tuple[Replay, tuple[int, ...]]:
    """Play on from `step_number`: the seat to move there plays `strategy`, the other seat `opponent`.

    The deck keeps its recorded order, so the draws are the ones the real match would have had.
    Returns the continuation's steps and the final rounds won by seat.
    """
    if not 0 <= step_number < len(replay.steps):
        raise ReplayError(f"step {step_number} is out of range: the replay has steps 0 to {len(replay.steps) - 1}")
    match = rebuild_at(replay, step_number)
    if match.over:
        raise ReplayError(f"the match is already over at step {step_number}")

    what_if = match.current.mover
    names = {what_if: strategy, 1 - what_if: opponent}
    agents = {
        seat: ArenaAgent(get_strategy(name), get_recognizer("oracle", source=lambda: match.current.landmarks_by_url()))
        for seat, name in names.items()
    }
    players = (names[0], names[1])
    steps: list[Step] = [replay.steps[step_number]]
    while not match.over:
        seat, round_index, played = match.current.mover, match.round_index, match.current
        labels_before = labels_of(match)
        view = render_gamestate(match, seat, opponent_id=players[1 - seat])
        move = agents[seat].calculate_move(view)
        outcome = match.apply(seat, parse_move(move))
        note = f"+{outcome.points}" if outcome.points else ("wasted turn" if outcome.wasted else "")
        drawn = None if outcome.drawn is None else outcome.drawn.id
        views = views_of(match, players, 0)
        step = Step(len(steps) + step_number, round_index, seat, move, "SUCCESS", views, labels_of(match), note, drawn)
        # A move that dealt the next round: its cards are named by its own round's labels.
        steps.append(step if match.current is played else replace(step, move_labels=labels_before))
    title = f"{replay.title}, from step {step_number}: seat {what_if} plays {strategy}, seat {1 - what_if} {opponent}"
    return Replay(title, players, tuple(steps), replay.seed, replay.rounds), tuple(match.rounds_won)


def final_points(steps: Sequence[Step]) -> tuple[int, int] | None:
    last = steps[-1].views[0]
    if last is None:
        return None
    return (int(last["MyPoints"]), int(last["OppPoints"]))
