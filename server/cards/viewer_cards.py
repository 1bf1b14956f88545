"""Which card pictures the viewer shows of a recorded match, so they are drawn ahead of the page's request;
and drawing a match's opening step into the folder beside the records file, for a process that records
matches without serving them (`rummy-vision match`): a server started later on the same file shows it at once.

A round deals 40 cards but the viewer shows only the ones in a hand at some step (the dealt hands and the
cards drawn): deck cards never drawn are never drawn as pictures either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rummy.cards import token_of
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.serving import CardImages
from server.storage.records import Records

# Measured on this 2-core machine: a 20-round greedy-vs-random `match` takes 0.5 s of CPU; the pictures the
# viewer shows of its first 3 rounds (83 cards) take 3 s (36 ms a card). So `match` draws the opening step
# of its first round only (20 cards, about 0.7 s): what a person opening the run sees first. A server
# draws the others when its list, the run's page or the round's steps are asked for.
ROUNDS_DRAWN = 1
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


def leave_opening_pictures(records_path: Path, game_ids: Sequence[int], rounds: int = ROUNDS_DRAWN) -> int:
    """Draw the opening step's pictures of the first `rounds` of these matches into the records' folder;
    the number of cards drawn (not those drawn before)."""
    folder = folder_beside(records_path)
    if folder is None or not game_ids:
        return 0
    records = Records(records_path)
    try:
        found = [records.match_record(game_id) for game_id in game_ids[:rounds]]
    finally:
        records.close()
    cards = [card for record in found if record is not None for card in opening_cards(record)]
    images = CardImages(folder=PictureFolder(folder))
    try:
        images.prerender(cards, first=True)
        images.wait_prerendered(DRAW_TIMEOUT_S)
        return images.drawn
    finally:
        images.close()
