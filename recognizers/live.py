"""Whether a recognizer can label the cards of a live round at all, and the one default rule.

A live round's cards have fresh URLs: `stub` answers only for URLs in its label files (recorded
rounds, tests), and `local` with an empty gallery and no INNER has nothing to compare a picture
with. A strategy that plays by the labels would play blind with either (bot/players/labelling.py
refuses the pair before any game).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

# In process the true labels are at hand; a local referee serves them with `serve --oracle`.
DEFAULT_RECOGNIZER = "oracle"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
LABELLING_CHOICES = "oracle (a local referee with --oracle), local:azure, azure, customvision, noisy:RATE"


def default_recognizer(base_url: str | None = None) -> str | None:
    """The recognizer used when none is named: the oracle in process and on a local referee; on any other
    server (the arena) there is none, and a strategy that needs labels must be given one."""
    if base_url is None:
        return DEFAULT_RECOGNIZER
    host = urlsplit(base_url).hostname or ""
    return DEFAULT_RECOGNIZER if host in LOOPBACK_HOSTS else None


def blind_reason(recognizer: Any) -> str | None:
    """Why `recognizer` cannot label a live round's cards, or None when it can (or might)."""
    # loads numpy, PIL and the gallery (~0.3 s), which importing live does not
    from recognizers.local import LocalRecognizer

    # loads httpx through recognizers.oracle (~0.1 s), which importing live does not
    from recognizers.stub import StubRecognizer

    if isinstance(recognizer, StubRecognizer):
        return "stub only knows the card URLs in its label files, never a live round's cards"
    if isinstance(recognizer, LocalRecognizer):
        if recognizer.inner is None and len(recognizer.gallery) == 0:
            return (
                f"local has an empty gallery ({recognizer.gallery!r}) and no INNER recognizer to learn from"
                " (fill it with `rummy-vision recognizers import`, or use local:azure)"
            )
        return None
    inner = getattr(recognizer, "inner", None)
    return blind_reason(inner) if inner is not None else None
