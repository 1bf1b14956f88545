"""`review FILE`'s review of a replay file alone: the file read, then graded by
`strategies.coaching.file_review` (which the server's viewer uses too, for a file sent to it). Where the
file's own labels do not name its cards (a bot file's recording), a recognizer the user names labels them
from the card pictures the gamestates point to."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.replay.recording import read_replay
from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG
from rummy.labels import answers_within
from rummy.rebuild import ReplayError
from rummy.terminal_text import printable
from strategies.coaching.file_review import review_lines
from strategies.coaching.game_review import GameReview, ReviewError
from strategies.coaching.grading import Grader

# Recognizers that label card pictures without the referee (the oracle knows only matches in play).
LABELLING = "local:azure, azure, customvision, local with a filled gallery, or stub with label files"
NO_LABELS_HINT = f"; give `--recognizer NAME` to label its card pictures ({LABELLING})"


def review_file(
    path: str | Path,
    grader: Grader,
    *,
    progress: Callable[[int, int], None] | None = None,
    recognizer: str | None = None,
) -> GameReview:
    """Grade every decision of a replay file that its gamestates and labels (or `recognizer`'s) let us rebuild."""
    try:
        lines = read_replay(path)
    except (ReplayError, OSError) as error:
        raise ReviewError(f"{path}: not a readable replay file: {error}") from None
    extra = None if recognizer is None else recognizer_labels(lines, recognizer)
    return review_lines(lines, str(path), grader, progress=progress, extra_labels=extra, no_labels_hint=NO_LABELS_HINT)


def recognizer_labels(lines: list[dict[str, Any]], spec: str) -> dict[int, dict[int, str]]:
    """{RemainingRounds: {card id: landmark}} that recognizer `spec` gives the cards of the file's gamestates."""
    try:
        recognizer = get_recognizer(spec)
    except Exception as error:  # noqa: BLE001 - a recognizer's own reason (a missing key, an unknown name)
        raise ReviewError(f"recognizer {spec!r}: {error}") from None
    cards: dict[int, dict[int, str]] = {}
    catalogs: dict[int, list[str]] = {}
    for line in lines:
        if line.get("type") != "gamestate":
            continue
        gamestate = line["gamestate"]
        round_key = int(gamestate.get("RemainingRounds", 0))
        catalogs.setdefault(round_key, list(gamestate.get("AllCardTypes") or []))
        for hand in ("MyHand", "OppHand"):
            for card in gamestate.get(hand) or []:
                cards.setdefault(round_key, {})[int(card[0])] = str(card[1])
    labels: dict[int, dict[int, str]] = {}
    why: set[str] = set()
    for round_key, by_id in cards.items():
        # As play reads a recognizer: one that raises (or exits) leaves the cards unknown, with the reason.
        found = answers_within(recognizer, sorted(by_id.items()), catalogs.get(round_key) or _catalog(), None)
        labels[round_key] = {card_id: label.landmark for card_id, label in found.items() if label.landmark is not None}
        why |= {label.reason for label in found.values() if label.landmark is None}
    if cards and not any(labels.values()):
        # Asked for, it named no card: the review would go on with the file's own labels and never say so.
        # The reasons quote what the recognizer raised, escapes and all: shown, never sent to the terminal.
        said = printable("; ".join(sorted(why)))[:300]
        raise ReviewError(f"recognizer {spec!r} named none of the file's cards: {said}")
    return labels


def _catalog() -> list[str]:
    return list(DEFAULT_CATALOG)
