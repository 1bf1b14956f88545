"""The viewer's steps of a replay file sent to it, in the step format of server/viewer_routes.py.

A file is one player's view: seat 0 is the file's bot (its MyHand), seat 1 its opponent (OppHand), both
hands as far as the gamestates show them. A card's landmark is the label the bot's recognizer gave it, as
the file recorded it (`rummy.replay_lines.labels_by_round`), never the referee's: the file has no other.
A labelled card's picture is drawn by this server from that label (`/cards/<file token>.png`, see
`file_card_token`), not the arena's photo; a card the file never labelled has no picture and no landmark
(`"Url": null, "Landmark": null`): the page shows it as unknown, never a guess.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rummy.messages import MAX_ROUNDS  # a file naming more rounds is refused: the steps build one per round
from rummy.moves import named_card_ids
from rummy.rebuild import Step
from rummy.replay_lines import labels_by_round
from rummy.replay_steps import replay_lines

PICTURES_NOTE = (
    "Recorded by a bot client, not by this server: the card pictures are drawn here from the labels its"
    " recognizer gave (the caption is that label), not the arena's photos, and may be wrong where the"
    " recognizer was; a card the file never labelled is shown as unknown."
)
TOKEN = re.compile(r"^file(\d{1,18})-r(\d{1,6})-c(-?\d{1,18})-([0-9a-f]{8})$")
OTHER_SIDE = {"WON": "LOST", "LOST": "WON", "WON_BY_TIMEOUT": "LOST_BY_TIMEOUT", "LOST_BY_TIMEOUT": "WON_BY_TIMEOUT"}

Labels = dict[int, dict[int, str]]  # RemainingRounds of a round -> card id -> landmark


def _digest(landmark: str) -> str:
    return hashlib.blake2b(landmark.encode(), digest_size=4).hexdigest()


def file_card_token(file_id: int, round_key: int, card_id: int, landmark: str) -> str:
    """A labelled card's picture token: the file, the round (its RemainingRounds), the card and a digest of the
    label, so a token always names one landmark (a cached picture can never show another)."""
    return f"file{file_id}-r{round_key}-c{card_id}-{_digest(landmark)}"


def file_card_landmark(store: Any, token: str) -> str | None:
    """The label a file token's picture shows, from the stored file; None for no such file card."""
    found = TOKEN.match(token)
    if found is None:
        return None
    lines = store.lines(int(found[1]))
    if lines is None:
        return None
    landmark = labels_by_round(lines).get(int(found[2]), {}).get(int(found[3]))
    return landmark if landmark is not None and _digest(landmark) == found[4] else None


def file_steps(file_id: int, lines: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """The steps answer of a stored file (raises ValueError, KeyError or TypeError for one that does not replay)."""
    replay = replay_lines(lines, name)
    labels = labels_by_round(lines)
    states = [line["gamestate"] for line in lines if line["type"] == "gamestate"]
    number_of_rounds = max(1, max(int(state["RemainingRounds"]) for state in states))
    if number_of_rounds > MAX_ROUNDS:  # a file kept before uploads were bounded
        raise ValueError(f"RemainingRounds {number_of_rounds} is more than a match has ({MAX_ROUNDS} at most)")
    cards = _Cards(file_id, labels)
    rounds = _rounds(replay.steps, labels, number_of_rounds)
    steps = []
    for number, step in enumerate(replay.steps):
        previous = replay.steps[number - 1] if number else None
        steps.append(_step_json(step, previous, cards, number_of_rounds, replay.players))
    return {"Rounds": rounds, "Steps": steps, "NumberOfRounds": number_of_rounds, "Players": list(replay.players)}


class _Cards:
    def __init__(self, file_id: int, labels: Labels) -> None:
        self.file_id, self.labels = file_id, labels

    def card(self, card_id: int, round_key: int) -> dict[str, Any]:
        landmark = self.labels.get(round_key, {}).get(card_id)
        url = None if landmark is None else f"/cards/{file_card_token(self.file_id, round_key, card_id, landmark)}.png"
        return {"Id": card_id, "Url": url, "Landmark": landmark}


def _view_round(view: Mapping[str, Any], number_of_rounds: int) -> int:
    return max(0, min(number_of_rounds - 1, number_of_rounds - int(view["RemainingRounds"])))


def _rounds(steps: Sequence[Step], labels: Labels, number_of_rounds: int) -> list[dict[str, Any]]:
    """Each round as the page reads it: its landmarks as labelled, who moved first, how it ended if shown."""
    firsts: dict[int, int] = {}
    for step in steps:
        view = step.views[0]
        if view is not None and view["GameStatus"] == "RUNNING":
            firsts.setdefault(_view_round(view, number_of_rounds), 0 if view["IsMover"] else 1)
    return [
        {
            "RoundIndex": index,
            # The landmarks the recognizer named in the round (the page colours cards by them).
            "Landmarks": sorted(set(labels.get(number_of_rounds - index, {}).values())),
            "FirstMover": firsts.get(index, 0),
            "Points": None,
            "Winner": None,
        }
        for index in range(number_of_rounds)
    ]


def _seats(view: Mapping[str, Any], cards: _Cards, players: tuple[str, str]) -> list[dict[str, Any]]:
    round_key = int(view["RemainingRounds"])
    status = str(view["GameStatus"])
    running = status == "RUNNING"
    sides = (("MyHand", "MyPoints", "MyScore"), ("OppHand", "OppPoints", "OppScore"))
    return [
        {
            "Name": players[seat],
            "Hand": [cards.card(int(card[0]), round_key) for card in view.get(hand) or []],
            "Points": view.get(points, 0),
            "Score": view.get(score, 0),
            "IsMover": running and bool(view["IsMover"]) == (seat == 0),
            "GameStatus": status if seat == 0 else OTHER_SIDE.get(status, status),
        }
        for seat, (hand, points, score) in enumerate(sides)
    ]


def _step_json(
    step: Step, previous: Step | None, cards: _Cards, number_of_rounds: int, players: tuple[str, str]
) -> dict[str, Any]:
    view = step.views[0]
    assert view is not None
    before = previous.views[0] if previous is not None else None
    view_round = _view_round(view, number_of_rounds)
    move_round = _view_round(before, number_of_rounds) if before is not None and step.move is not None else view_round
    over = view["GameStatus"] != "RUNNING"
    note = step.note
    if step.move is None and step.result == "NEW ROUND":
        note = f"Round {view_round + 1} is dealt (the last move of round {view_round} is not in the file)"
    move_cards = []
    if step.move is not None and before is not None:
        in_view = {int(card[0]) for hand in ("MyHand", "OppHand") for card in before.get(hand) or []}
        round_key = int(before["RemainingRounds"])
        move_cards = [cards.card(card_id, round_key) for card_id in named_card_ids(step.move) if card_id in in_view]
    round_ended = None
    mine, theirs = int(view.get("MyPoints", 0)), int(view.get("OppPoints", 0))
    if over and step.move is not None and mine != theirs:
        round_ended = {"Round": view_round, "Points": [mine, theirs], "Winner": 0 if mine > theirs else 1}
    result: dict[str, Any] = {
        "Step": step.number,
        "Round": move_round,
        "ViewRound": view_round,
        "Mover": step.mover,
        "Player": players[step.mover] if step.mover is not None else None,
        "Move": step.move,
        "Result": step.result,
        "Note": note,
        "MoveCards": move_cards,
        "RoundEnded": round_ended,
        "Seats": _seats(view, cards, players),
        "CardsInDeck": view.get("CardsInDeck"),
        "RemainingMoves": view.get("RemainingMoves"),
        "RemainingRounds": view["RemainingRounds"],
    }
    if step.log:
        result["Log"] = step.log  # what the mover's bot printed while choosing (the arena's editor shows it)
    if step.drawn is not None and step.mover is not None:
        result["Drawn"] = cards.card(step.drawn, int(view["RemainingRounds"]))
    return result
