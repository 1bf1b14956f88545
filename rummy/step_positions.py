"""A replay step as an `analyze` position: the position of the player to move after step N.

In `analyze`'s format: the mover's gamestate, the landmark of every card in both hands, the deck's make-up.
From the records the landmarks and the deck are the referee's; from a `play` replay file they are its bot's
recognizer's labels, and the deck is 10 of each of the round's 4 landmarks less the cards seen in a hand so
far this round (as `review FILE` rebuilds them). Used by `replay --position` and the viewer's "analyse this
position" (server/viewer_positions.py), so both give the same position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rummy.config import DEFAULT_RULES
from rummy.gamestate import render_gamestate
from rummy.rebuild import Replay, ReplayError, rebuild_at
from rummy.replay_lines import labels_by_round

SWAPPED = (("MyHand", "OppHand"), ("MyPoints", "OppPoints"), ("MyScore", "OppScore"))


def step_position(replay: Replay, step_number: int, *, lines: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The analysis position of the player to move after step `step_number`; ReplayError when there is none.

    `lines` are the replay file's lines when `replay` comes from a file (its labels); None for the records."""
    if not 0 <= step_number < len(replay.steps):
        raise ReplayError(f"step {step_number} is out of range: steps 0 to {len(replay.steps) - 1}")
    if replay.seed is not None:
        position = _from_records(replay, step_number)
    else:
        if lines is None:
            raise ReplayError("a file's position needs the file's lines")
        position = _from_file(replay, step_number, lines)
    seat = int(position["GameState"].pop("_seat", 0))
    mover = replay.players[seat]
    position["Comment"] = f"{replay.title}, step {step_number}: {mover} to move"
    return position


def _from_records(replay: Replay, step_number: int) -> dict[str, Any]:
    match = rebuild_at(replay, step_number)
    if match.over:
        raise ReplayError(f"the match is over at step {step_number}: there is no move to analyse")
    mover = match.current.mover
    played = match.current
    game_id = _game_id(replay.title)
    gamestate = render_gamestate(match, mover, game_id=game_id, opponent_id=replay.players[1 - mover])
    labels = {str(card.id): card.kind for card in [*played.hands[0], *played.hands[1]]}
    deck = Counter(card.kind for card in played.deck)
    return {"GameState": {**gamestate, "_seat": mover}, "CardLabels": labels, "DeckCounts": dict(deck)}


def _from_file(replay: Replay, step_number: int, lines: list[dict[str, Any]]) -> dict[str, Any]:
    view = replay.steps[step_number].views[0]
    if view is None or view.get("GameStatus") != "RUNNING":
        raise ReplayError(f"the match is over at step {step_number}: there is no move to analyse")
    round_key = int(view.get("RemainingRounds", 0))
    names = labels_by_round(lines).get(round_key, {})
    seen: set[int] = set()
    for step in replay.steps[: step_number + 1]:
        shown = step.views[0]
        if shown is not None and int(shown.get("RemainingRounds", 0)) == round_key:
            seen.update(_hand_ids(shown))
    unlabelled = sorted(card_id for card_id in seen if card_id not in names)
    if unlabelled:
        raise ReplayError(f"card {unlabelled[0]} was never labelled by the file's recognizer: no position")
    kinds = sorted({names[card_id] for card_id in seen})
    if len(kinds) != DEFAULT_RULES.types_per_round:
        raise ReplayError(f"the file's labels name {len(kinds)} landmarks in the round, not 4: no position")
    counts = Counter(names[card_id] for card_id in seen)
    deck = {kind: DEFAULT_RULES.cards_per_type - counts[kind] for kind in kinds}
    seat = 0 if view.get("IsMover") else 1
    gamestate = dict(view) if seat == 0 else _opponents_view(view)
    labels = {str(card_id): names[card_id] for card_id in _hand_ids(view)}
    return {"GameState": {**gamestate, "_seat": seat}, "CardLabels": labels, "DeckCounts": deck}


def _hand_ids(gamestate: Mapping[str, Any]) -> list[int]:
    return [int(card[0]) for key in ("MyHand", "OppHand") for card in gamestate.get(key) or []]


def _opponents_view(gamestate: Mapping[str, Any]) -> dict[str, Any]:
    view = dict(gamestate)
    for mine, theirs in SWAPPED:
        view[mine], view[theirs] = gamestate.get(theirs), gamestate.get(mine)
    view["IsMover"] = not gamestate.get("IsMover")
    view["OpponentId"] = None
    return view


def _game_id(title: str) -> int:
    words = title.split()
    return int(words[1]) if len(words) > 1 and words[0] == "match" and words[1].isdigit() else 0
