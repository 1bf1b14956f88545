"""The labels of a gamestate the bot does not move on, for its replay file.

The bot's strategy labels the cards in view on its own turns; a card the opponent lays before the
bot's next turn (a set laid on the opponent's first move of a round, before the bot ever moved) would
be named by no label, and a review of the file could not rebuild the round's deck. So on the
opponent's turn the cards in view are labelled once each and the landmarks handed to the recorder.

Cost, only when the match is recorded (a paid recognizer's bot labels the opponent's turn anyway, to
have the answers ready: bot/players/prefetch.py). Recognizers that cache by picture URL (oracle, noisy,
stub, and the paid ones through the label cache) answer again from the cache: the cards still in view on
the bot's next turn cost nothing more, and the only calls made for the record alone are for cards that
leave view before then (a set the opponent lays before the bot's first move of a round, the card drawn
before an opponent's move that ends the round): at most a few a round. `local` keeps no such cache (it
looks at every picture in view at each move already): it looks at each card at most once more. A
recognizer that learns from what it is asked (`corrected`) also learns from these cards, so a recorded
match's labels may be better informed than an unrecorded one's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from rummy.labels import CardLabel, Recognizer, answers_within
from strategies.agent import ArenaAgent

log = logging.getLogger("bot")

RecordLabels = Callable[[dict[int, str]], None]  # takes {card id: landmark} of a gamestate's cards


def cards_in_view(gamestate: Mapping[str, Any], skip_urls: set[str]) -> list[tuple[int, str]]:
    """(id, picture URL) of the cards in both hands whose URL is not in `skip_urls`."""
    return [
        (int(card[0]), str(card[1]))
        for card in [*(gamestate.get("MyHand") or []), *(gamestate.get("OppHand") or [])]
        if str(card[1]) not in skip_urls
    ]


def landmarks(found: Mapping[int, CardLabel]) -> dict[int, str]:
    """The named landmarks of a recognizer's answer (an unknown card is left out, as with a move's labels)."""
    return {int(card_id): str(label.landmark) for card_id, label in found.items() if label.landmark is not None}


class ViewLabeller:
    """Labels each card of a match once, on gamestates the bot does not move on (in the caller's thread)."""

    def __init__(self, recognizer: Recognizer) -> None:
        self.recognizer = recognizer
        self.labelled: set[str] = set()  # picture URLs already labelled for the record

    def label(self, gamestate: Mapping[str, Any], record: RecordLabels) -> None:
        cards = cards_in_view(gamestate, self.labelled)
        if not cards:
            return

        catalog = list(gamestate.get("AllCardTypes") or [])
        # Within the share of the opponent's deadline a move would give labelling: never holds up the poll long.
        budget = ArenaAgent.labelling_budget(dict(gamestate))
        try:
            found = answers_within(self.recognizer, cards, catalog, budget)
        except Exception as error:  # noqa: BLE001 - the record loses these labels; the bot's move asks again
            log.info("labelling the cards in view on the opponent's turn failed: %s", error)
            return
        self.labelled.update(url for _card_id, url in cards)
        record(landmarks(found))
