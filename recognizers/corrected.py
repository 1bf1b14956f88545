"""`corrected:INNER`: INNER's labels, made consistent with the round's deck after every answer.

A round has 4 landmarks of 10 cards each. This wrapper keeps every card it has been asked about
in the current round and answers with `correct_round` over all of them, so a wrong label can be
fixed later, when more cards of the round have been seen. It must therefore be asked about every
card at each turn (the inner recognizer caches, so that costs no API call).
"""

from __future__ import annotations

from collections.abc import Sequence

from recognizers.correction import RoundLabels, correct_round
from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.labels import CardLabel, Recognizer


class CorrectingRecognizer:
    def __init__(self, inner: Recognizer, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.inner = inner
        self.name = f"corrected:{inner.name}"
        self.rules = rules
        self._round = RoundLabels(rules)
        self._urls: set[str] = set()

    def __repr__(self) -> str:
        return f"CorrectingRecognizer({self.inner!r})"

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        new_cards = [(card_id, url) for card_id, url in cards if url not in self._urls]
        if self._urls and new_cards and len(new_cards) == len(cards):
            # Not one card seen before: a new round, with fresh cards and landmarks.
            self._round.clear()
            self._urls.clear()
        if new_cards:
            self._round.add(self.inner.recognize(new_cards, catalog))
            self._urls.update(url for _card_id, url in new_cards)
        corrected = correct_round(self._round.labels, self.rules, catalog).labels
        return {card_id: corrected[card_id] for card_id, _url in cards if card_id in corrected}

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
