"""What a recognizer says about a card, and the interface every recognizer offers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


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
