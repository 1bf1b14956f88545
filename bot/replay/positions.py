"""Positions out of games: a replay step as an `analyze` position, and the suite of positions taken so.

`step_position(replay, n)` is the position of the player to move after step `n` (what the viewer shows at
that step), in `analyze`'s format: the mover's gamestate, the landmark of every card in both hands, the
deck's make-up. From the records the landmarks and the deck are the referee's; from a `play` replay file
they are its bot's recognizer's labels, and the deck is 10 of each of the round's 4 landmarks less the
cards seen in a hand so far this round (as `review FILE` rebuilds them).

`add_to_suite` appends a position with its best move and why to a suite file (JSON Lines), which
`tests/positions/test_position_suite.py` runs against a strategy.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rummy import DEFAULT_RULES
from rummy.gamestate import render_gamestate
from rummy.rebuild import Replay, ReplayError, rebuild_at

DEFAULT_SUITE = Path(__file__).resolve().parents[2] / "fixtures" / "positions" / "from_games.jsonl"
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
    from rummy.replay_lines import labels_by_round

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


def check_position(position: Mapping[str, Any]) -> Any:
    """The parsed position (strategies.position.Position); PositionError saying what is wrong."""
    from strategies.position import parse_position

    return parse_position(dict(position))


def add_to_suite(position: Mapping[str, Any], best: Mapping[str, Any], why: str, suite: Path, objective: str) -> int:
    """Append the position with its best move (`Expected`) and why (`Comment`) to `suite`; its line number."""
    from strategies.position import PositionError

    entry = {key: value for key, value in position.items() if key not in ("Expected", "Objective")}
    parsed = check_position(entry)
    parsed.move_id(best)  # a move of this position's hands, or PositionError
    mine = {card[0] for card in entry["GameState"]["MyHand"]}
    if ("Give" in best and best["Give"] not in mine) or ("Lay" in best and not set(best["Lay"]) <= mine):
        raise PositionError(f"{json.dumps(dict(best))} names a card not in the mover's hand")
    entry["Expected"] = dict(best)
    entry["Objective"] = objective
    entry["Comment"] = why
    suite.parent.mkdir(parents=True, exist_ok=True)
    existing = suite.read_text(encoding="utf-8").splitlines() if suite.exists() else []
    with suite.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
    return len([line for line in existing if line.strip()]) + 1
