"""What a recognizer says about a card, and the interface every recognizer offers."""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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


class RecognizerAnswerError(TypeError):
    """A recognizer answered in a form no strategy can read (not {card id: CardLabel}); says what it was."""


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


def answers_within(
    recognizer: Recognizer, cards: Sequence[tuple[int, str]], catalog: Sequence[str], budget_s: float | None
) -> dict[int, CardLabel]:
    """What play reads of a recognizer: `recognize_within`, then `checked_answers` (every card labelled). A
    recognizer that raises (a user's file, a service's client) leaves the cards of that call unknown, with
    what it raised as the reason, as a service's error does: the move is still decided on the belief."""
    try:
        found = recognize_within(recognizer, cards, catalog, budget_s)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - any recognizer may raise anything; play goes on
        # without its labels. An exit too: sys.exit in a user's file would end the whole match without a word.
        name = getattr(recognizer, "name", None) or type(recognizer).__name__
        why = f"recognizer {name} {what_it_did(error)}"
        return {card_id: CardLabel(None, 0.0, why) for card_id, _url in cards}
    return checked_answers(recognizer, found, cards, catalog)


def what_it_did(error: BaseException) -> str:
    """What a user's code did, in words: an exit (sys.exit, which would end the whole command unsaid) or a raise."""
    if isinstance(error, SystemExit):
        return f"exited (SystemExit {error.code!r})"
    return f"raised {type(error).__name__}: {error}"


def _takes_budget(method: Any) -> bool:
    try:
        return "budget_s" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def checked_answers(
    recognizer: object, found: object, cards: Sequence[tuple[int, str]], catalog: Sequence[str]
) -> dict[int, CardLabel]:
    """A recognizer's answer for `cards`, each a CardLabel naming a landmark of `catalog` or unknown.

    A recognizer may be a user's file, so its answer is checked where play reads it: a card it skipped,
    a name outside the round's catalog (matched ignoring case and spacing) or a confidence that is no
    number from 0 to 1 becomes an unknown card with the reason; an answer that is no mapping of
    CardLabels raises RecognizerAnswerError, naming the recognizer and what it returned.
    """
    # Named in errors only; an object built in code may lack the `name` the interface asks for.
    name = getattr(recognizer, "name", None) or type(recognizer).__name__
    if not isinstance(found, Mapping):
        raise RecognizerAnswerError(
            f"recognizer {name} returned {type(found).__name__}, not a dict of card id to CardLabel"
        )
    names = {_plain(landmark): landmark for landmark in catalog}
    checked: dict[int, CardLabel] = {}
    for card_id, _url in cards:
        label = found.get(card_id)
        if label is None:
            checked[card_id] = CardLabel(None, 0.0, "recognizer gave no answer")
        elif not isinstance(label, CardLabel):
            raise RecognizerAnswerError(
                f"recognizer {name} answered card {card_id} with {type(label).__name__} {label!r}, not a CardLabel"
            )
        else:
            checked[card_id] = _checked_label(label, names)
    return checked


ROUNDING = 1e-9  # a confidence this far past 0 or 1 is arithmetic's error, and is mended to the bound


def _checked_label(label: CardLabel, names: Mapping[str, str]) -> CardLabel:
    confidence = label.confidence
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not math.isfinite(confidence):
        return CardLabel(None, 0.0, f"recognizer gave confidence {confidence!r} for {label.landmark!r}")
    if label.landmark is None:
        return label
    landmark = names.get(_plain(label.landmark)) if isinstance(label.landmark, str) else None
    if landmark is None:
        return CardLabel(None, 0.0, f"recognizer named {label.landmark!r}, which is not in AllCardTypes")
    if not -ROUNDING <= confidence <= 1.0 + ROUNDING:
        # Mended in silence, 87 (a percentage) would read as a sure 1 and -0.2 as surely wrong to a belief
        # that reads the score; better an unknown card whose reason the unknown share names.
        hint = " (a percentage? give it as a fraction)" if 1.0 < confidence <= 100.0 else ""
        return CardLabel(
            None, 0.0, f"recognizer gave confidence {confidence!r} for {label.landmark!r}, not 0 to 1{hint}"
        )
    if landmark == label.landmark and 0.0 <= confidence <= 1.0:
        return label
    # A subclass (a ranked answer with runners-up) keeps its type and extra fields; only the two are mended.
    return replace(label, landmark=landmark, confidence=min(1.0, max(0.0, float(confidence))))


def _plain(name: str) -> str:
    return " ".join(name.split()).casefold()
