"""`FIRST+SECOND`: label every card with FIRST, and ask SECOND about single cards where it pays.

FIRST answers for every card in view, as any recognizer does. SECOND (a second service, or a costlier
model) is asked only when the player's belief is uncertain, about the card whose landmark would change
its decision most (strategies.agent picks it), at most `asks_per_round` times a round. Its answer is
read by its own error model and multiplied into the belief as independent evidence.

SECOND is told the round's landmarks as the player believes them (the catalog it is asked with), so
a simulated recognizer errs among those, as the harsh model does on a whole view; a real service is
free to ignore the hint.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rummy.belief import ErrorModel, error_model_of
from rummy.labels import CardLabel, Recognizer, recognize_within
from rummy.terminal_text import printable

log = logging.getLogger("recognizers")

ASKS_PER_ROUND = 4  # second opinions a round at the most: each is an API call on a paid service


class SecondOpinion:
    def __init__(self, first: Recognizer, second: Recognizer, *, asks_per_round: int = ASKS_PER_ROUND) -> None:
        if asks_per_round < 0:
            raise ValueError(f"asks per round must be 0 or more, not {asks_per_round}")
        self.first = first
        self.second = second
        self.asks_per_round = asks_per_round
        self.name = f"{getattr(first, 'name', 'first')}+{getattr(second, 'name', 'second')}"
        self.calls = 0  # second opinions asked in all
        self.failures = 0  # of those, the ones whose recognizer raised (no opinion then)
        self.last_failure = ""
        self._round: object = None
        self._asked_this_round = 0
        self._answers: dict[str, CardLabel] = {}  # url -> the second's answer (a card is asked once)

    @property
    def error_model(self) -> ErrorModel:
        return error_model_of(self.first)

    @property
    def second_error_model(self) -> ErrorModel:
        return error_model_of(self.second)

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        return recognize_within(self.first, cards, catalog, budget_s)

    def can_ask(self, round_key: object) -> bool:
        if round_key != self._round:
            self._round, self._asked_this_round = round_key, 0
        return self._asked_this_round < self.asks_per_round

    def ask(
        self,
        card: tuple[int, str],
        landmarks: Sequence[str],
        round_key: object,
        *,
        budget_s: float | None = None,
    ) -> CardLabel | None:
        """SECOND's answer about one card (None: this round's asks are spent, or it gave no answer)."""
        card_id, url = card
        if url in self._answers:
            return None  # asked before: the same picture gets the same answer, which is no new evidence
        if not self.can_ask(round_key):
            return None
        self._asked_this_round += 1
        self.calls += 1
        try:
            answer = recognize_within(self.second, [card], landmarks, budget_s).get(card_id)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - a service's client or a user's file may raise
            # anything: no second opinion then, as when it gives no answer (the move is decided on what is known).
            self.failures += 1
            # What a service or a user's file raised may carry terminal escapes: shown, never sent to the terminal.
            self.last_failure = printable(f"{type(error).__name__}: {error}")[:300]
            if self.failures == 1:  # once: a service that is down would say it at every move
                name = printable(getattr(self.second, "name", type(self.second).__name__))
                log.warning(
                    "second recognizer %s raised %s: no second opinion this time (later failures not shown)",
                    name,
                    self.last_failure,
                )
            return None
        if not isinstance(answer, CardLabel) or answer.landmark is None:
            return None
        self._answers[url] = answer
        return answer

    def __repr__(self) -> str:
        return f"SecondOpinion({self.first!r}, {self.second!r}, asks_per_round={self.asks_per_round})"
