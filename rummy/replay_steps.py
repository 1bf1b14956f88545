"""A bot client's replay file rebuilt step by step, from its lines (`rummy.replay_lines`).

The file holds the gamestates one player received, exactly as received, and the moves it sent; the
opponent's moves are worked out from how the hands changed, and each step carries the labels the bot's
recognizer gave the cards (never the referee's: a file knows no landmarks of its own). Read by the
terminal replay (bot/replay/replays.py) and by the server's viewer for a file sent to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from rummy.config import DEFAULT_RULES
from rummy.rebuild import Replay, ReplayError, Step
from rummy.replay_lines import labels_by_round


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
    labels = _FileLabels(lines)
    pending_move: Mapping[str, Any] | None = None
    pending_result = ""
    previous: Mapping[str, Any] | None = None
    previous_key: int | None = None  # the round (RemainingRounds) of the previous gamestate's cards
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
            key = _round_key(previous, previous_key, gamestate)
            shown = dict(labels.of(key))
            # The labels of the round the move was made in, when the answer shows another round's cards.
            before = None if previous_key is None or labels.same(previous_key, key) else dict(labels.of(previous_key))
            if pending_move is not None:
                step = Step(len(steps), round_index, 0, pending_move, pending_result, (gamestate, None), shown)
                drawn = drawn_card(previous, gamestate, "MyHand")
                step = replace(step, move_labels=before, drawn=drawn, log="\n".join(logs))
                steps.append(_with_note(step, previous))
                logs = []
            elif previous is None:
                steps.append(Step(0, round_index, None, None, "DEAL", (gamestate, None), shown))
            elif _turn_of(gamestate) != _turn_of(previous):
                steps.append(_opponent_step(len(steps), round_index, previous, gamestate, shown, before))
            pending_move, previous, previous_key = None, gamestate, key
    if not steps:
        raise ReplayError(f"{name}: the file holds no gamestate")
    if logs:  # tries that were never played (a match lost on time): shown with the last step
        steps[-1] = replace(steps[-1], log="\n".join(filter(None, [steps[-1].log, *logs])))
    return Replay(f"{PurePath(name).name} (game {header.get('game_id')})", players, tuple(steps))


def _opponent_step(
    number: int,
    round_index: int,
    previous: Mapping[str, Any],
    gamestate: Mapping[str, Any],
    shown: dict[int, Any],
    before: dict[int, Any] | None,
) -> Step:
    """The opponent's move (or a new round's deal), worked out from how the hands changed since `previous`."""
    move, note = opponent_move(previous, gamestate)
    return Step(
        number,
        round_index,
        1 if move or note else None,
        move,
        "SUCCESS" if move or note else "NEW ROUND",
        (gamestate, None),
        shown,
        note,
        drawn_card(previous, gamestate, "OppHand"),
        move_labels=before,
    )


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
    """Whether `after` (received after `before`) shows the same round's cards. Shared ids alone said so while
    ids were unique across a match; the arena deals 0..39 in every round, so the round must agree too."""
    cards = set(_ids(before, "MyHand")) | set(_ids(before, "OppHand"))
    shared = bool(cards & (set(_ids(after, "MyHand")) | set(_ids(after, "OppHand"))))
    return shared and _same_round(before, after)


def _same_round(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    if after.get("GameStatus", "RUNNING") == "RUNNING":
        return before.get("RemainingRounds") == after.get("RemainingRounds")
    # The match's end (RemainingRounds 0) shows the round it ended in: `before`'s, unless a new deal came in
    # between (a forfeit on the next round's first move), whose turns and deck start again.
    return int(after.get("RemainingMoves", 0)) <= int(before.get("RemainingMoves", 0)) and int(
        after.get("CardsInDeck", 0)
    ) <= int(before.get("CardsInDeck", 0))


def _round_key(before: Mapping[str, Any] | None, before_key: int | None, gamestate: Mapping[str, Any]) -> int:
    """The round (RemainingRounds) whose cards `gamestate` shows: its own, but the match's end shows the round it
    ended in (the gamestate before it's, when the same deal)."""
    over = gamestate.get("GameStatus", "RUNNING") != "RUNNING"
    if over and before is not None and before_key is not None and _same_deal(before, gamestate):
        return before_key
    return int(gamestate.get("RemainingRounds") or 0)


class _FileLabels:
    """The labels a file's recognizer gave, for the cards of one round (its RemainingRounds): each round has its
    own card ids (the arena deals 0..39 in every round). A file whose ids never repeat across rounds (recorded
    before the referee dealt 0..39) names each card by id alone, as its replays always did: a label counts
    whichever round it was filed under (moves whose answer was lost once filed theirs under the next round)."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.by_round = labels_by_round(lines)
        self.by_id_alone = _ids_unique_across_rounds(lines)
        self.every: dict[int, str] = {
            int(card_id): str(name)
            for line in lines
            if line.get("type") in ("move", "labels")
            for card_id, name in (line.get("labels") or {}).items()
        }

    def of(self, round_key: int) -> Mapping[int, str]:
        return self.every if self.by_id_alone else self.by_round.get(round_key, {})

    def same(self, round_key: int, other: int) -> bool:
        return self.by_id_alone or round_key == other


def _ids_unique_across_rounds(lines: list[dict[str, Any]]) -> bool:
    round_of: dict[int, int] = {}
    for line in lines:
        if line.get("type") != "gamestate" or line["gamestate"].get("GameStatus", "RUNNING") != "RUNNING":
            continue
        gamestate = line["gamestate"]
        key = int(gamestate.get("RemainingRounds") or 0)
        for card_id in [*_ids(gamestate, "MyHand"), *_ids(gamestate, "OppHand")]:
            if round_of.setdefault(card_id, key) != key:
                return False
    return True


def _ids(gamestate: Mapping[str, Any], key: str) -> list[int]:
    return [int(card[0]) for card in gamestate.get(key) or []]


def _with_note(step: Step, before: Mapping[str, Any] | None) -> Step:
    """Our own move, with its points or "wasted turn" worked out from the gamestates around it: within a
    round from the points it gained; for a round's last move (whose answer has the hand penalty taken off,
    or shows the next deal) from the rules' points for the laid cards' labels (in the move's round), as the
    records score it."""
    after = step.views[0]
    if before is None or after is None or step.move is None or "Lay" not in step.move:
        return step
    laid = [int(card_id) for card_id in step.move["Lay"]]
    labels = step.labels_of_move
    if _same_deal(before, after) and not _round_over(after):
        gained = int(after.get("MyPoints", 0)) - int(before.get("MyPoints", 0))
        wasted = set(laid) <= set(_ids(after, "MyHand"))
    else:
        gained = _set_points(laid, labels)
        wasted = gained == 0 and laid != [] and all(card_id in labels for card_id in laid)
    note = f"+{gained}" if gained > 0 else ("wasted turn" if wasted else "")
    return replace(step, note=note)


def _round_over(gamestate: Mapping[str, Any]) -> bool:
    return gamestate.get("GameStatus", "RUNNING") != "RUNNING" or int(gamestate.get("RemainingMoves", 1)) <= 0


def _set_points(laid: list[int], labels: Mapping[int, str]) -> int:
    """The default rules' points for laying these cards, from their labels; 0 when one is not labelled."""
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
