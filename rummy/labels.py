"""What a recognizer says about a card, and the interface every recognizer offers."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class CardLabel:
    landmark: str | None  # a catalog name, or None when the card could not be recognised
    confidence: float  # 0.0 to 1.0
    reason: str = ""  # why the label is unknown or doubtful, for logs

    @property
    def known(self) -> bool:
        return self.landmark is not None


UNKNOWN = CardLabel(None, 0.0)


class Recognizer(Protocol):
    """Labels cards given as (id, image url) pairs with names from the catalog (`AllCardTypes`)."""

    name: str

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]: ...


def recognize_within(
    recognizer: Recognizer, cards: Sequence[tuple[int, str]], catalog: Sequence[str], budget_s: float | None
) -> dict[int, CardLabel]:
    """`recognizer.recognize(cards, catalog)`, given `budget_s` seconds when it takes a time budget.

    A recognizer whose `recognize` has a `budget_s` keyword promises to return within it (a card it
    cannot answer in time is unknown for this call); any other recognizer is called as it is.
    """
    method: Any = recognizer.recognize
    if budget_s is not None and _takes_budget(method):
        result: dict[int, CardLabel] = method(cards, catalog, budget_s=budget_s)
        return result
    return recognizer.recognize(cards, catalog)


def _takes_budget(method: Any) -> bool:
    try:
        return "budget_s" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
