"""Replays the bot side adds to `rummy.replay`: client replay files, and "what if" continuations.

A match in the referee's records is rebuilt by `rummy.replay.replay_record`. A replay file written
by the bot client (`bot/replay/recording.py`) holds the gamestates one player received, exactly as
received, and the moves it sent; it knows no landmarks, so a what-if needs the match's record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rummy import parse_move, render_gamestate
from rummy.replay import Replay, ReplayError, Step, labels_of, rebuild_at, replay_record, views_of

__all__ = [
    "Replay",
    "ReplayError",
    "Step",
    "continue_with",
    "final_points",
    "rebuild_at",
    "replay_file",
    "replay_record",
]


def replay_file(path: str | Path) -> Replay:
    """The steps of a bot client's replay file: its gamestates as received, with the moves it sent."""
    from bot.replay.recording import ReplayError as RecordingError
    from bot.replay.recording import read_replay

    try:
        lines = read_replay(path)
    except (RecordingError, OSError) as error:
        raise ReplayError(str(error)) from None
    header = next((line for line in lines if line.get("type") == "header"), None)
    if header is None:
        raise ReplayError(f"{path}: no header line; is this a rummy-vision replay file?")
    me = str(header.get("bot_id") or "me")
    players = (me, str(header.get("opponent_id") or "opponent"))
    steps: list[Step] = []
    pending_move: Mapping[str, Any] | None = None
    pending_result = ""
    for line in lines:
        if line.get("type") == "move":
            pending_move, pending_result = line.get("move"), str(line.get("result", ""))
        elif line.get("type") == "gamestate":
            gamestate = line["gamestate"]
            round_index = int(gamestate.get("MyScore", 0)) + int(gamestate.get("OppScore", 0))
            mover = 0 if pending_move is not None else None
            result = pending_result if pending_move is not None else str(line.get("result", ""))
            steps.append(Step(len(steps), round_index, mover, pending_move, result, (gamestate, None)))
            pending_move = None
    if not steps:
        raise ReplayError(f"{path}: the file holds no gamestate")
    return Replay(f"{Path(path).name} (game {header.get('game_id')})", players, tuple(steps))


def continue_with(
    replay: Replay, step_number: int, strategy: str, opponent: str = "greedy"
) -> tuple[Replay, tuple[int, ...]]:
    """Play on from `step_number`: the seat to move there plays `strategy`, the other seat `opponent`.

    The deck keeps its recorded order, so the draws are the ones the real match would have had.
    Returns the continuation's steps and the final rounds won by seat.
    """
    from recognizers.registry import get_recognizer
    from strategies.agent import ArenaAgent
    from strategies.registry import get_strategy

    if not 0 <= step_number < len(replay.steps):
        raise ReplayError(f"step {step_number} is out of range: the replay has steps 0 to {len(replay.steps) - 1}")
    match = rebuild_at(replay, step_number)
    if match.over:
        raise ReplayError(f"the match is already over at step {step_number}")

    def true_labels() -> dict[str, str]:
        return {card.url: card.kind for hand in match.current.hands for card in hand}

    what_if = match.current.mover
    names = {what_if: strategy, 1 - what_if: opponent}
    agents = {
        seat: ArenaAgent(get_strategy(name), get_recognizer("oracle", source=true_labels))
        for seat, name in names.items()
    }
    players = (names[0], names[1])
    steps: list[Step] = [replay.steps[step_number]]
    while not match.over:
        seat, round_index, labels = match.current.mover, match.round_index, labels_of(match)
        view = render_gamestate(match, seat, opponent_id=players[1 - seat])
        move = agents[seat].calculate_move(view)
        outcome = match.apply(seat, parse_move(move))
        note = f"+{outcome.points}" if outcome.points else ("wasted turn" if outcome.wasted else "")
        steps.append(
            Step(
                len(steps) + step_number, round_index, seat, move, "SUCCESS", views_of(match, players, 0), labels, note
            )
        )
    title = f"{replay.title}, from step {step_number}: seat {what_if} plays {strategy}, seat {1 - what_if} {opponent}"
    return Replay(title, players, tuple(steps), replay.seed, replay.rounds), tuple(match.rounds_won)


def final_points(steps: Sequence[Step]) -> tuple[int, int] | None:
    last = steps[-1].views[0]
    if last is None:
        return None
    return (int(last["MyPoints"]), int(last["OppPoints"]))
