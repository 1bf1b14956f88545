"""Which card pictures the viewer shows of a recorded match, so they are drawn ahead of the page's request;
and drawing them into the folder beside the records file, for a process that records matches without
serving them (`rummy-vision match`): a server started later on the same file shows them at once.

A round deals 40 cards but the viewer shows only the ones in a hand at some step (the dealt hands and the
cards drawn): deck cards never drawn are never drawn as pictures either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rummy.records import Records, token_of
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.serving import CardImages

# A `match` round's shown cards are about 30: a second of drawing on a 2-core machine, while a 20-round
# `match` plays in about a second. Drawing all its rounds would multiply its time by ten or more: the first
# rounds are drawn (a person starts looking there); a server draws the others when its list, the run's page
# or the round's steps are asked for.
ROUNDS_DRAWN = 3
DRAW_TIMEOUT_S = 300.0

Card = tuple[str, str]  # (token, landmark)


def landmarks_by_url(record: Mapping[str, Any]) -> dict[str, str]:
    return {
        card["Url"]: card["Landmark"]
        for round_ in record["Rounds"]
        for part in (*round_["Hands"], round_["Deck"])
        for card in part
    }


def opening_cards(record: Mapping[str, Any]) -> list[Card]:
    """The cards a match's opening step shows: both hands of its first round."""
    rounds = record["Rounds"]
    if not rounds:
        return []
    return [(token_of(card["Url"]), card["Landmark"]) for hand in rounds[0]["Hands"] for card in hand]


def shown_cards(record: Mapping[str, Any], hands: Iterable[Iterable[str]]) -> list[Card]:
    """The cards of these hands (card URLs, step by step) in the order they first show, with their landmarks."""
    landmarks = landmarks_by_url(record)
    seen: dict[str, Card] = {}
    for hand in hands:
        for url in hand:
            if url not in seen and url in landmarks:
                seen[url] = (token_of(url), landmarks[url])
    return list(seen.values())


def replayed_cards(record: Mapping[str, Any]) -> list[Card]:
    """Every card the viewer shows of a recorded match (its steps rebuilt); the opening step's if it cannot be."""
    from rummy.rebuild import ReplayError, replay_record

    try:
        replay = replay_record(record)
    except ReplayError:
        return opening_cards(record)
    return shown_cards(
        record, ([url for _id, url in view["MyHand"]] for step in replay.steps for view in step.views if view)
    )


def leave_shown_pictures(records_path: Path, game_ids: Sequence[int], rounds: int = ROUNDS_DRAWN) -> int:
    """Draw the pictures the viewer shows of the first `rounds` of these matches into the records' folder;
    the number of cards drawn (not those drawn before)."""
    folder = folder_beside(records_path)
    if folder is None or not game_ids:
        return 0
    records = Records(records_path)
    try:
        found = [records.match_record(game_id) for game_id in game_ids[:rounds]]
    finally:
        records.close()
    cards = [card for record in found if record is not None for card in replayed_cards(record)]
    images = CardImages(folder=PictureFolder(folder))
    try:
        images.prerender(cards, first=True)
        images.wait_prerendered(DRAW_TIMEOUT_S)
        return images.drawn
    finally:
        images.close()
