"""A bot client's replay file rebuilt step by step, from its lines (`rummy.replay_lines`).

The file holds the gamestates one player received, exactly as received, and the moves it sent; the
opponent's moves are worked out from how the hands changed, and each step carries the labels the bot's
recognizer gave the cards (never the referee's: a file knows no landmarks of its own). Read by the
terminal replay (bot/replay/replays.py) and by the server's viewer for a file sent to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from rummy.rebuild import Replay, ReplayError, Step


def replay_lines(lines: list[dict[str, Any]], name: str) -> Replay:
    """The steps of a bot client's replay file (its lines, `rummy.replay_lines.parse_replay`): its gamestates
    as received, with the moves it sent, the opponent's moves worked out from how the hands changed, and the
    labels the bot's recognizer gave. `name` (the file's path or name) titles it and starts error messages."""
    header = next((line for line in lines if line.get("type") == "header"), None)
    if header is None:
        raise ReplayError(f"{name}: no header line; is this a rummy-vision replay file?")
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
    logs: list[str] = []  # the bot's prints for our next step (refused tries' first, marked with their result)
    for line in lines:
        if line.get("type") == "move":
            if line.get("log"):
                applied = line.get("applied", True)
                logs.append(str(line["log"]) if applied else f"[{line.get('result', '')}] {line['log']}")
            if line.get("applied", True):
                pending_move, pending_result = line.get("move"), str(line.get("result", ""))
        elif line.get("type") == "gamestate":
            gamestate = line["gamestate"]
            # A move belongs to the round it was made in (as in the records), not to the one its answer shows:
            # the answer to a round's last move is the next round's deal, or the match's end.
            round_index = _round_of(gamestate if previous is None else previous)
            if pending_move is not None:
                step = Step(len(steps), round_index, 0, pending_move, pending_result, (gamestate, None), dict(labels))
                drawn = drawn_card(previous, gamestate, "MyHand")
                steps.append(replace(_with_note(step, previous, labels), drawn=drawn, log="\n".join(logs)))
                logs = []
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
        raise ReplayError(f"{name}: the file holds no gamestate")
    if logs:  # tries that were never played (a match lost on time): shown with the last step
        steps[-1] = replace(steps[-1], log="\n".join(filter(None, [steps[-1].log, *logs])))
    return Replay(f"{PurePath(name).name} (game {header.get('game_id')})", players, tuple(steps))


def drawn_card(before: Mapping[str, Any] | None, after: Mapping[str, Any], hand: str) -> int | None:
    """The card that came into `hand` from the deck between two gamestates of the same round, if one did."""
    if before is None or not _same_deal(before, after):
        return None
    seen = set(_ids(before, "MyHand")) | set(_ids(before, "OppHand"))
    new = [card_id for card_id in _ids(after, hand) if card_id not in seen]
    return new[0] if len(new) == 1 else None


def _round_of(gamestate: Mapping[str, Any]) -> int:
    """The round a gamestate shows, 0 first: the rounds already decided."""
    return int(gamestate.get("MyScore", 0)) + int(gamestate.get("OppScore", 0))


def _turn_of(gamestate: Mapping[str, Any]) -> tuple[Any, ...]:
    return (gamestate.get("RemainingRounds"), gamestate.get("RemainingMoves"), gamestate.get("GameStatus"))


def _same_deal(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    # Every round deals fresh card ids, so shared ids mean the two gamestates show the same round.
    cards = set(_ids(before, "MyHand")) | set(_ids(before, "OppHand"))
    return bool(cards & (set(_ids(after, "MyHand")) | set(_ids(after, "OppHand"))))


def _ids(gamestate: Mapping[str, Any], key: str) -> list[int]:
    return [int(card[0]) for card in gamestate.get(key) or []]


def _with_note(step: Step, before: Mapping[str, Any] | None, labels: Mapping[int, str] | None = None) -> Step:
    """Our own move, with its points or "wasted turn" worked out from the gamestates around it: within a
    round from the points it gained; for a round's last move (whose answer has the hand penalty taken off,
    or shows the next deal) from the rules' points for the laid cards' labels, as the records score it."""
    after = step.views[0]
    if before is None or after is None or step.move is None or "Lay" not in step.move:
        return step
    laid = [int(card_id) for card_id in step.move["Lay"]]
    if _same_deal(before, after) and not _round_over(after):
        gained = int(after.get("MyPoints", 0)) - int(before.get("MyPoints", 0))
        wasted = set(laid) <= set(_ids(after, "MyHand"))
    else:
        gained = _set_points(laid, labels or {})
        wasted = gained == 0 and laid != [] and all(card_id in (labels or {}) for card_id in laid)
    note = f"+{gained}" if gained > 0 else ("wasted turn" if wasted else "")
    return Step(step.number, step.round_index, step.mover, step.move, step.result, step.views, step.labels, note)


def _round_over(gamestate: Mapping[str, Any]) -> bool:
    return gamestate.get("GameStatus", "RUNNING") != "RUNNING" or int(gamestate.get("RemainingMoves", 1)) <= 0


def _set_points(laid: list[int], labels: Mapping[int, str]) -> int:
    """The default rules' points for laying these cards, from their labels; 0 when one is not labelled."""
    from collections import Counter

    from rummy.config import DEFAULT_RULES

    if not laid or any(card_id not in labels for card_id in laid):
        return 0
    return DEFAULT_RULES.set_points(tuple(Counter(labels[card_id] for card_id in laid).values()))


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
