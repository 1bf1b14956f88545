"""Recorded matches as a list of steps to walk through, and "what if" continuations.

Two sources:
- a match in the referee's SQLite records (`GameId`): the engine is deterministic given the
  match's seed, so replaying the applied moves on `Match(seed)` rebuilds both players' gamestates
  with every card's landmark; each rebuilt gamestate is checked against the one the server answered;
- a replay file written by the bot client (`bot/recording.py`): the gamestates one player received,
  exactly as received, and the moves it sent. It knows no landmarks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy import Match, parse_move, render_gamestate

# Keys that depend on when and where a gamestate was served, not on the game.
CIRCUMSTANTIAL = ("ResponseDeadline", "GameId", "OpponentId")


class ReplayError(ValueError):
    """The record cannot be replayed; the message says why."""


@dataclass(frozen=True)
class Step:
    number: int  # 0 is the deal
    round_index: int
    mover: int | None  # the seat whose move led here; None for a deal
    move: Mapping[str, Any] | None
    result: str
    views: tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]  # each seat's gamestate after the step
    labels: Mapping[int, str] = field(default_factory=dict)  # card id -> landmark, when known
    note: str = ""


@dataclass(frozen=True)
class Replay:
    title: str
    players: tuple[str, str]
    steps: tuple[Step, ...]
    seed: str | None = None  # set for records: lets a continuation rebuild the match
    rounds: int = 1
    mismatches: tuple[str, ...] = ()  # rebuilt gamestates that differ from what was served


def _labels_of(match: Match) -> dict[int, str]:
    played = match.current
    return {card.id: card.kind for card in [*played.deal.hands[0], *played.deal.hands[1], *played.deal.deck]}


def _views(match: Match, players: tuple[str, str], game_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        render_gamestate(match, 0, game_id=game_id, opponent_id=players[1]),
        render_gamestate(match, 1, game_id=game_id, opponent_id=players[0]),
    )


def comparable(gamestate: Mapping[str, Any]) -> dict[str, Any]:
    """A gamestate without its circumstances, card URLs reduced to their paths."""
    result = {key: value for key, value in gamestate.items() if key not in CIRCUMSTANTIAL}
    for hand in ("MyHand", "OppHand"):
        result[hand] = [[card_id, "/cards/" + str(url).rsplit("/cards/", 1)[-1]] for card_id, url in gamestate[hand]]
    return result


def replay_record(record: Mapping[str, Any]) -> Replay:
    """Rebuild a match from its record (`Records.match_record` or `GET /games/{GameId}`)."""
    try:
        seed, rounds, game_id = str(record["Seed"]), int(record["NumberOfRounds"]), int(record["GameId"])
        players = (str(record["Players"][0]), str(record["Players"][1]))
        moves = [move for move in record["Moves"] if move.get("Applied")]
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ReplayError(f"not a match record: missing or bad field {error}") from None
    match = Match(seed=seed, rounds=rounds)
    recorded_kinds = [tuple(round_["Landmarks"]) for round_ in record.get("Rounds", [])]
    if recorded_kinds and recorded_kinds[0] != match.current.deal.kinds:
        raise ReplayError(f"match {game_id}: its seed does not deal the recorded cards")
    steps = [Step(0, 0, None, None, "DEAL", _views(match, players, game_id), _labels_of(match))]
    mismatches: list[str] = []
    for move in moves:
        round_index, seat = match.round_index, int(move["Seat"])
        labels_before = _labels_of(match)
        outcome = match.apply(seat, parse_move(move["Move"]))
        labels = {**labels_before, **_labels_of(match)}
        views = _views(match, players, game_id)
        served = move.get("GameState")
        if served is not None and comparable(served) != comparable(views[seat]):
            mismatches.append(f"step {len(steps)}: the rebuilt gamestate differs from the one served")
        note = f"+{outcome.points}" if outcome.points else ("wasted turn" if outcome.wasted else "")
        if move.get("ErrorMessage"):
            note = f"{note} ({move['ErrorMessage']})".strip()
        steps.append(
            Step(len(steps), round_index, seat, move["Move"], str(move.get("Result", "")), views, labels, note)
        )
    statuses = record.get("GameStatus") or [None, None]
    if not match.over and "LOST_BY_TIMEOUT" in statuses:
        match.forfeit(statuses.index("LOST_BY_TIMEOUT"))
        views = _views(match, players, game_id)
        steps.append(Step(len(steps), match.round_index, None, None, "TIMEOUT", views, _labels_of(match), "timeout"))
    return Replay(f"match {game_id}", players, tuple(steps), seed, rounds, tuple(mismatches))


def replay_file(path: str | Path) -> Replay:
    """The steps of a bot client's replay file: its gamestates as received, with the moves it sent."""
    from bot.recording import ReplayError as RecordingError
    from bot.recording import read_replay

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


def rebuild_at(replay: Replay, step_number: int) -> Match:
    """The match as it stood after `step_number`, deck order included (records only)."""
    if replay.seed is None:
        raise ReplayError("a what-if needs the match's record (deck order and labels); a replay file has neither")
    match = Match(seed=replay.seed, rounds=replay.rounds)
    for step in replay.steps[1 : step_number + 1]:
        if step.move is not None and step.mover is not None:
            match.apply(step.mover, parse_move(step.move))
    return match


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
        seat, round_index, labels = match.current.mover, match.round_index, _labels_of(match)
        view = render_gamestate(match, seat, opponent_id=players[1 - seat])
        move = agents[seat].calculate_move(view)
        outcome = match.apply(seat, parse_move(move))
        note = f"+{outcome.points}" if outcome.points else ("wasted turn" if outcome.wasted else "")
        steps.append(
            Step(len(steps) + step_number, round_index, seat, move, "SUCCESS", _views(match, players, 0), labels, note)
        )
    title = f"{replay.title}, from step {step_number}: seat {what_if} plays {strategy}, seat {1 - what_if} {opponent}"
    return Replay(title, players, tuple(steps), replay.seed, replay.rounds), tuple(match.rounds_won)


def final_points(steps: Sequence[Step]) -> tuple[int, int] | None:
    last = steps[-1].views[0]
    if last is None:
        return None
    return (int(last["MyPoints"]), int(last["OppPoints"]))
