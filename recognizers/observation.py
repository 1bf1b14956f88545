"""What a service said about one image, before and after it is mapped onto the catalog.

The cache stores `Observation`s (the service's own names and scores), not catalog labels, so a
cached answer serves any catalog and a better name matcher improves old answers for free.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from recognizers.matching import find_in_text, match_name
from rummy import bounded_json
from rummy.labels import CardLabel

HINT_WEIGHT = 0.8  # a caption or tag naming a landmark is weaker evidence than a landmark model


@dataclass(frozen=True)
class Observation:
    landmarks: tuple[tuple[str, float], ...] = ()  # (service's name, score), best first
    hints: tuple[tuple[str, float], ...] = ()  # captions and tags, used when no landmark maps
    source: str = ""  # which service answered, for reasons

    def to_json(self) -> str:
        return json.dumps({"landmarks": self.landmarks, "hints": self.hints, "source": self.source})

    @classmethod
    def from_json(cls, raw: str) -> Observation:
        data: dict[str, Any] = bounded_json.loads(raw)
        return cls(
            landmarks=tuple((str(name), float(score)) for name, score in data.get("landmarks", ())),
            hints=tuple((str(text), float(score)) for text, score in data.get("hints", ())),
            source=str(data.get("source", "")),
        )


@dataclass(frozen=True)
class RankedLabel(CardLabel):
    """A CardLabel that also carries the other catalog names the service considered, best first.

    Deck-constraint correction uses the runners-up to re-assign a card whose top label cannot be
    right (a type not in the round, or a type already holding its 10 cards).
    """

    candidates: tuple[tuple[str, float], ...] = field(default=())


def candidates_of(label: CardLabel) -> tuple[tuple[str, float], ...]:
    """Every (catalog name, score) a label offers, best first; a plain CardLabel offers its one name."""
    if isinstance(label, RankedLabel) and label.candidates:
        return label.candidates
    if label.landmark is None:
        return ()
    return ((label.landmark, label.confidence),)


def to_label(observation: Observation, catalog: Sequence[str], threshold: float = 0.0) -> CardLabel:
    """The catalog label an observation supports, or unknown with the reason; never a name off the catalog."""
    scores: dict[str, float] = {}
    for name, score in observation.landmarks:
        found = match_name(name, catalog)
        if found is not None:
            scores.setdefault(found.landmark, score * found.similarity)
    if not scores:
        for text, score in observation.hints:
            found = find_in_text(text, catalog)
            if found is not None:
                scores.setdefault(found.landmark, score * found.similarity * HINT_WEIGHT)
    source = observation.source or "the service"
    if not scores:
        said = ", ".join(name for name, _ in observation.landmarks) or "no landmark"
        return CardLabel(None, 0.0, f"{source} saw {said}; nothing in the catalog matches")
    ranked = tuple(sorted(scores.items(), key=lambda item: -item[1]))
    best, confidence = ranked[0]
    if confidence < threshold:
        return CardLabel(None, 0.0, f"{source}: best match {best!r} scored {confidence:.2f}, below {threshold:.2f}")
    return RankedLabel(best, round(min(1.0, confidence), 4), "", ranked)
