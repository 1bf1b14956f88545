"""Rebuild a recorded match step by step.

The engine is deterministic given a match's seed, so a record that keeps the seed and the moves
(the referee's records do) can be replayed on `Match(seed)`: every gamestate of both players comes
back, with every card's landmark, and each gamestate the server answered can be checked against
the rebuilt one. Replay viewers in the terminal and the browser both read these steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rummy.engine import Match
from rummy.gamestate import render_gamestate
from rummy.moves import parse_move

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
    labels: Mapping[int, str] = field(default_factory=dict)  # card id -> landmark in the views' round, when known
    note: str = ""
    drawn: int | None = None  # the id of the card the mover drew after the move, when known
    log: str = ""  # what the mover's bot printed while choosing the move (a bot file's; refused tries first)
    # Card id -> landmark in the round the move (and the card drawn after it) was played in, when that is not the
    # views' round: a round's last move, whose views show the next deal. Ids are a round's own (the arena deals
    # 0..39 in every round), so the two rounds' labels cannot share one map.
    move_labels: Mapping[int, str] | None = None

    @property
    def labels_of_move(self) -> Mapping[int, str]:
        """Card id -> landmark for the move's cards and the card drawn after it."""
        return self.labels if self.move_labels is None else self.move_labels


@dataclass(frozen=True)
class Replay:
    title: str
    players: tuple[str, str]
    steps: tuple[Step, ...]
    seed: str | None = None  # set for records: lets a continuation rebuild the match
    rounds: int = 1
    mismatches: tuple[str, ...] = ()  # rebuilt gamestates that differ from what was served


def labels_of(match: Match) -> dict[int, str]:
    played = match.current
    return {card.id: card.kind for card in [*played.deal.hands[0], *played.deal.hands[1], *played.deal.deck]}


def views_of(match: Match, players: tuple[str, str], game_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
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
        logs = _logs_by_applied_move(record["Moves"])
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ReplayError(f"not a match record: missing or bad field {error}") from None
    match = Match(seed=seed, rounds=rounds)
    recorded_kinds = [tuple(round_["Landmarks"]) for round_ in record.get("Rounds", [])]
    if recorded_kinds and recorded_kinds[0] != match.current.deal.kinds:
        raise ReplayError(f"match {game_id}: its seed does not deal the recorded cards")
    steps = [Step(0, 0, None, None, "DEAL", views_of(match, players, game_id), labels_of(match))]
    mismatches: list[str] = []
    for index, move in enumerate(moves):
        round_index, seat, played = match.round_index, int(move["Seat"]), match.current
        labels_before = labels_of(match)
        outcome = match.apply(seat, parse_move(move["Move"]))
        labels = labels_of(match)
        move_labels = None if match.current is played else labels_before  # the move dealt the next round
        views = views_of(match, players, game_id)
        served = move.get("GameState")
        if served is not None and comparable(served) != comparable(views[seat]):
            mismatches.append(f"step {len(steps)}: the rebuilt gamestate differs from the one served")
        note = f"+{outcome.points}" if outcome.points else ("wasted turn" if outcome.wasted else "")
        if move.get("ErrorMessage"):
            note = f"{note} ({move['ErrorMessage']})".strip()
        drawn = None if outcome.drawn is None else outcome.drawn.id
        result = str(move.get("Result", ""))
        step = Step(len(steps), round_index, seat, move["Move"], result, views, labels, note, drawn, logs[index])
        steps.append(replace(step, move_labels=move_labels))
    statuses = record.get("GameStatus") or [None, None]
    if not match.over and "LOST_BY_TIMEOUT" in statuses:
        match.forfeit(statuses.index("LOST_BY_TIMEOUT"))
        views = views_of(match, players, game_id)
        late = logs[len(moves)] if len(logs) > len(moves) else ""
        steps.append(
            Step(len(steps), match.round_index, None, None, "TIMEOUT", views, labels_of(match), "timeout", log=late)
        )
    return Replay(f"match {game_id}", players, tuple(steps), seed, rounds, tuple(mismatches))


def _logs_by_applied_move(moves: list[Mapping[str, Any]]) -> list[str]:
    """The bot's log for each applied move, the logs of the refused tries before it first; one more entry
    when refused tries come after the last applied move (a match lost on time)."""
    logs: list[str] = []
    pending: list[str] = []
    for move in moves:
        if move.get("Log"):
            pending.append(str(move["Log"]) if move.get("Applied") else f"[{move.get('Result')}] {move['Log']}")
        if move.get("Applied"):
            logs.append("\n".join(pending))
            pending = []
    if pending:
        logs.append("\n".join(pending))
    return logs


def rebuild_at(replay: Replay, step_number: int) -> Match:
    """The match as it stood after `step_number`, deck order included (records only)."""
    if replay.seed is None:
        raise ReplayError("a what-if needs the match's record (deck order and labels); a replay file has neither")
    match = Match(seed=replay.seed, rounds=replay.rounds)
    for step in replay.steps[1 : step_number + 1]:
        if step.move is not None and step.mover is not None:
            match.apply(step.mover, parse_move(step.move))
    return match
