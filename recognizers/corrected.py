"""`corrected:INNER`: INNER's labels, made consistent with the round's deck after every answer.

A round has 4 landmarks of 10 cards each. This wrapper keeps every card it has been asked about
in the current round and answers with `correct_round` over all of them, so a wrong label can be
fixed later, when more cards of the round have been seen. It must therefore be asked about every
card at each turn (the inner recognizer caches, so that costs no API call).
"""

from __future__ import annotations

from collections.abc import Sequence

from recognizers.deck_constraint import RoundLabels, correct_round
from rummy.belief import ErrorModel, error_model_of
from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.labels import CardLabel, Recognizer, recognize_within


class CorrectingRecognizer:
    def __init__(self, inner: Recognizer, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.inner = inner
        self.name = f"corrected:{inner.name}"
        self.rules = rules
        self._round = RoundLabels(rules)
        self._seen: set[str] = set()  # every URL asked about this round
        self._answered: set[str] = set()  # those the inner recognizer has named

    def __repr__(self) -> str:
        return f"CorrectingRecognizer({self.inner!r})"

    @property
    def error_model(self) -> ErrorModel:
        # Correction fixes some labels and keeps the rest: the inner model's errors are an upper bound.
        return error_model_of(self.inner)

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        if self._seen and not any(url in self._seen for _card_id, url in cards):
            # Not one card seen before: a new round, with fresh cards and landmarks.
            self._round.clear()
            self._seen.clear()
            self._answered.clear()
        # Cards still unknown (out of time, rate limited) are asked again; answered ones are not.
        ask = [(card_id, url) for card_id, url in cards if url not in self._answered]
        if ask:
            found = recognize_within(self.inner, ask, catalog, budget_s)
            self._round.add(found)
            self._answered.update(url for card_id, url in ask if card_id in found and found[card_id].known)
        self._seen.update(url for _card_id, url in cards)
        corrected = correct_round(self._round.labels, self.rules, catalog).labels
        return {card_id: corrected[card_id] for card_id, _url in cards if card_id in corrected}

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
