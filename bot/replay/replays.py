"""Replays the bot side adds to `rummy.rebuild`: client replay files, and "what if" continuations.

A match in the referee's records is rebuilt by `rummy.rebuild.replay_record`. A replay file written
by the bot client (`bot/replay/recording.py`) holds the gamestates one player received, exactly as
received, and the moves it sent; it knows no landmarks, so a what-if needs the match's record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rummy import parse_move, render_gamestate
from rummy.rebuild import Replay, ReplayError, Step, labels_of, rebuild_at, replay_record, views_of

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
    """The steps of a bot client's replay file: its gamestates as received, with the moves it sent, the
    opponent's moves worked out from how the hands changed, and the labels the bot's recognizer gave."""
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
    # The recognizer's labels of every card the file saw, so that even the deal shows landmarks.
    labels: dict[int, str] = {
        int(card_id): str(name)
        for line in lines
        if line.get("type") in ("move", "labels")
        for card_id, name in (line.get("labels") or {}).items()
    }
    pending_move: Mapping[str, Any] | None = None
    pending_result = ""
    previous: Mapping[str, Any] | None = None
    for line in lines:
        if line.get("type") == "move":
            if line.get("applied", True):
                pending_move, pending_result = line.get("move"), str(line.get("result", ""))
        elif line.get("type") == "gamestate":
            gamestate = line["gamestate"]
            round_index = int(gamestate.get("MyScore", 0)) + int(gamestate.get("OppScore", 0))
            if pending_move is not None:
                step = Step(len(steps), round_index, 0, pending_move, pending_result, (gamestate, None), dict(labels))
                steps.append(replace(_with_note(step, previous), drawn=drawn_card(previous, gamestate, "MyHand")))
            elif previous is None:
                steps.append(Step(0, round_index, None, None, "DEAL", (gamestate, None), dict(labels)))
            elif _turn_of(gamestate) != _turn_of(previous):
                move, note = opponent_move(previous, gamestate)
                steps.append(
                    Step(
                        len(steps),
                        round_index,
                        1 if move or note else None,
                        move,
                        "SUCCESS" if move or note else "NEW ROUND",
                        (gamestate, None),
                        dict(labels),
                        note,
                        drawn_card(previous, gamestate, "OppHand"),
                    )
                )
            pending_move, previous = None, gamestate
    if not steps:
        raise ReplayError(f"{path}: the file holds no gamestate")
    return Replay(f"{Path(path).name} (game {header.get('game_id')})", players, tuple(steps))


def drawn_card(before: Mapping[str, Any] | None, after: Mapping[str, Any], hand: str) -> int | None:
    """The card that came into `hand` from the deck between two gamestates of the same round, if one did."""
    if before is None or not _same_deal(before, after):
        return None
    seen = set(_ids(before, "MyHand")) | set(_ids(before, "OppHand"))
    new = [card_id for card_id in _ids(after, hand) if card_id not in seen]
    return new[0] if len(new) == 1 else None


def _turn_of(gamestate: Mapping[str, Any]) -> tuple[Any, ...]:
    return (gamestate.get("RemainingRounds"), gamestate.get("RemainingMoves"), gamestate.get("GameStatus"))


def _same_deal(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    # Every round deals fresh card ids, so shared ids mean the two gamestates show the same round.
    cards = set(_ids(before, "MyHand")) | set(_ids(before, "OppHand"))
    return bool(cards & (set(_ids(after, "MyHand")) | set(_ids(after, "OppHand"))))


def _ids(gamestate: Mapping[str, Any], key: str) -> list[int]:
    return [int(card[0]) for card in gamestate.get(key) or []]


def _with_note(step: Step, before: Mapping[str, Any] | None) -> Step:
    """Our own move, with its points or "wasted turn" worked out from the gamestates around it."""
    after = step.views[0]
    if before is None or after is None or step.move is None or "Lay" not in step.move:
        return step
    if not _same_deal(before, after):
        return step
    gained = int(after.get("MyPoints", 0)) - int(before.get("MyPoints", 0))
    note = (
        f"+{gained}" if gained > 0 else ("wasted turn" if set(step.move["Lay"]) <= set(_ids(after, "MyHand")) else "")
    )
    return Step(step.number, step.round_index, step.mover, step.move, step.result, step.views, step.labels, note)


def opponent_move(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The opponent's move between two of our gamestates of the same round, from how the hands changed:
    (move, note); (None, "") when it cannot be told (a new round was dealt in between)."""
    if not _same_deal(before, after):
        return None, ""
    mine_before, theirs_before = set(_ids(before, "MyHand")), set(_ids(before, "OppHand"))
    mine_after, theirs_after = set(_ids(after, "MyHand")), set(_ids(after, "OppHand"))
    taken = sorted((mine_before - mine_after) & theirs_after)
    if taken:
        return {"Take": taken[0]}, ""
    given = sorted((theirs_before - theirs_after) & mine_after)
    if given:
        return {"Give": given[0]}, ""
    laid = [card for card in _ids(before, "OppHand") if card in theirs_before - theirs_after - mine_after]
    gained = int(after.get("OppPoints", 0)) - int(before.get("OppPoints", 0))
    if laid:
        return {"Lay": laid}, f"+{gained}" if gained > 0 else ""
    return {"Lay": []}, "wasted turn"


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

    what_if = match.current.mover
    names = {what_if: strategy, 1 - what_if: opponent}
    agents = {
        seat: ArenaAgent(get_strategy(name), get_recognizer("oracle", source=lambda: match.current.landmarks_by_url()))
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
        drawn = None if outcome.drawn is None else outcome.drawn.id
        views = views_of(match, players, 0)
        steps.append(Step(len(steps) + step_number, round_index, seat, move, "SUCCESS", views, labels, note, drawn))
    title = f"{replay.title}, from step {step_number}: seat {what_if} plays {strategy}, seat {1 - what_if} {opponent}"
    return Replay(title, players, tuple(steps), replay.seed, replay.rounds), tuple(match.rounds_won)


def final_points(steps: Sequence[Step]) -> tuple[int, int] | None:
    last = steps[-1].views[0]
    if last is None:
        return None
    return (int(last["MyPoints"]), int(last["OppPoints"]))
