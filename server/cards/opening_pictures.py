"""Drawing the viewer's pictures of recorded matches into the folder beside their records file, for a
process that records matches without serving them (`rummy-vision match`): a server started later on the
same file shows their opening steps without drawing a picture while the page waits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rummy.records import Records, token_of
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.serving import CardImages

# A round's opening step shows both dealt hands: 20 cards, about 0.7 s of drawing on a 2-core machine.
# A 20-round `match` plays in about a second, so drawing all its rounds would multiply its time by ten:
# the first rounds are drawn (where a person starts looking); a server draws the others when its list or
# the run's page shows them.
ROUNDS_DRAWN = 3
DRAW_TIMEOUT_S = 300.0


def opening_cards(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(token, landmark) of the cards a match's opening step shows: both hands of its first round."""
    rounds = record["Rounds"]
    if not rounds:
        return []
    return [(token_of(card["Url"]), card["Landmark"]) for hand in rounds[0]["Hands"] for card in hand]


def leave_opening_pictures(records_path: Path, game_ids: Sequence[int], rounds: int = ROUNDS_DRAWN) -> int:
    """Draw the opening step's pictures of the first `rounds` of these matches into the records' folder;
    the number of cards drawn (0 for those drawn before)."""
    folder = folder_beside(records_path)
    if folder is None or not game_ids:
        return 0
    records = Records(records_path)
    try:
        found = [records.match_record(game_id) for game_id in game_ids[:rounds]]
        cards = [card for record in found if record is not None for card in opening_cards(record)]
    finally:
        records.close()
    images = CardImages(folder=PictureFolder(folder))
    try:
        images.prerender(cards, first=True)
        images.wait_prerendered(DRAW_TIMEOUT_S)
        return images.drawn
    finally:
        images.close()
