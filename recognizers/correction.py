"""Deck-constraint correction: make a round's labels consistent with 4 types of 10 cards each.

A recognizer labels each card on its own; the deck says more. Only `types_per_round` catalog
names are in play, and no type has more than `cards_per_type` cards. So:

1. The round's types are the names with the most support, summed over every card seen (top
   labels and runners-up, weighted by score). A name only a stray wrong label or two supports
   loses to the real types, which ten cards each support.
2. Each card goes to its best-scored type among those; a card whose candidates name none of them
   waits for step 4.
3. While a type holds more cards than it can, the card that loses least by moving (its score
   there minus its score for a type with room) moves to that type.
4. Cards with no usable candidate (unknown, or only names not in play) fill the types with room,
   most room first, with a low confidence that says it was a guess.

Every output label carries a confidence a strategy can use to avoid laying doubtful cards, and
a reason when the label differs from the recognizer's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from recognizers.observation import candidates_of
from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.labels import CardLabel

SCORE_FLOOR = 0.02  # the score of a type a card's candidates do not name: unlikely, not impossible
GUESS_WEIGHT = 0.5  # a room-based guess is never more than half sure


@dataclass(frozen=True)
class Correction:
    labels: dict[int, CardLabel]  # every input card, corrected
    types: tuple[str, ...]  # the round's types as far as the evidence shows (may be fewer early on)
    changed: frozenset[int]  # cards whose landmark differs from the recognizer's


def correct_round(
    labels: Mapping[int, CardLabel],
    rules: RulesConfig = DEFAULT_RULES,
    catalog: Sequence[str] | None = None,
    *,
    guess_unknown: bool = True,
) -> Correction:
    """The most likely consistent labelling of every card seen in one round."""
    names = set(rules.catalog if catalog is None else catalog)
    cap = rules.cards_per_type
    scores: dict[int, dict[str, float]] = {}
    support: dict[str, float] = {}
    for card_id, label in labels.items():
        card_scores: dict[str, float] = {}
        for name, score in candidates_of(label):
            if name in names and name not in card_scores:
                card_scores[name] = max(0.0, float(score))
                support[name] = support.get(name, 0.0) + card_scores[name]
        scores[card_id] = card_scores
    ranked = sorted((name for name in support if support[name] > 0), key=lambda name: (-support[name], name))
    types = tuple(ranked[: rules.types_per_round])

    assigned: dict[int, str] = {}
    pending: list[int] = []
    for card_id in sorted(labels):
        options = {name: score for name, score in scores[card_id].items() if name in types}
        if options:
            assigned[card_id] = max(options, key=lambda name: (options[name], name))
        else:
            pending.append(card_id)

    moved_for_room: set[int] = set()
    while True:
        counts = _counts(assigned, types)
        full = [name for name in types if counts[name] > cap]
        open_types = [name for name in types if counts[name] < cap]
        if not full or not open_types:
            break
        best: tuple[float, int, str] | None = None
        for card_id, name in assigned.items():
            if name not in full:
                continue
            here = scores[card_id].get(name, 0.0)
            target = max(open_types, key=lambda t: (scores[card_id].get(t, 0.0), cap - counts[t], t))
            # Compare evidence by ratio, not difference: a card whose only link to this type is a
            # weak runner-up (0.2 against nothing) is surer here than a 0.6 label with a 0.4 rival.
            loss = math.log(here + SCORE_FLOOR) - math.log(scores[card_id].get(target, 0.0) + SCORE_FLOOR)
            if best is None or (loss, card_id) < (best[0], best[1]):
                best = (loss, card_id, target)
        assert best is not None
        _, card_id, target = best
        assigned[card_id] = target
        moved_for_room.add(card_id)

    guessed: dict[int, float] = {}
    if guess_unknown and len(types) == rules.types_per_round:
        counts = _counts(assigned, types)
        for card_id in pending:
            room = {name: cap - counts[name] for name in types}
            total = sum(max(0, r) for r in room.values())
            if total <= 0:
                break
            target = max(types, key=lambda name: (room[name], name))
            assigned[card_id] = target
            counts[target] += 1
            guessed[card_id] = GUESS_WEIGHT * room[target] / total

    corrected: dict[int, CardLabel] = {}
    changed: set[int] = set()
    for card_id, label in labels.items():
        landmark = assigned.get(card_id)
        if landmark is None:
            reason = label.reason or "no candidate among the round's types"
            corrected[card_id] = CardLabel(None, 0.0, reason)
            continue
        if card_id in guessed:
            confidence = guessed[card_id]
            reason = f"guessed from the deck counts (recognizer said {label.landmark or 'unknown'})"
        elif landmark == label.landmark and card_id not in moved_for_room:
            corrected[card_id] = label if type(label) is CardLabel else CardLabel(landmark, label.confidence)
            continue
        else:
            confidence = scores[card_id].get(landmark, 0.0)
            if confidence == 0.0:
                confidence = GUESS_WEIGHT / max(1, len(types))
            why = "its type is full" if card_id in moved_for_room else "its label is not one of the round's types"
            reason = f"re-assigned from {label.landmark!r}: {why}"
        corrected[card_id] = CardLabel(landmark, round(min(1.0, confidence), 4), reason)
        if landmark != label.landmark:
            changed.add(card_id)
    return Correction(corrected, types, frozenset(changed))


def _counts(assigned: Mapping[int, str], types: Sequence[str]) -> dict[str, int]:
    counts = dict.fromkeys(types, 0)
    for name in assigned.values():
        counts[name] += 1
    return counts


class RoundLabels:
    """Labels gathered across a round's gamestates, for `correct_round` over every card seen.

    A bot adds each recognizer answer and calls `clear()` when a new round starts (its tracker
    knows when); laid cards keep their labels, which is what makes the type counts informative.
    """

    def __init__(self, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.rules = rules
        self.labels: dict[int, CardLabel] = {}

    def add(self, labels: Mapping[int, CardLabel]) -> None:
        for card_id, label in labels.items():
            # A later unknown (say, an outage) must not erase an earlier real answer.
            if label.known or card_id not in self.labels:
                self.labels[card_id] = label

    def clear(self) -> None:
        self.labels.clear()

    def corrected(self) -> Correction:
        return correct_round(self.labels, self.rules)
