"""Deck-constraint correction: make a round's labels consistent with 4 types of 10 cards each.

A recognizer labels each card on its own; the deck says more. Only `types_per_round` catalog
names are in play, and no type has more than `cards_per_type` cards. So:

1. The round's types are the names with the most support, summed over every card seen (top
   labels and runners-up, weighted by score). A name only a stray wrong label or two supports
   loses to the real types, which ten cards each support.
2. The cards whose candidates name at least one of those types are spread over them, at most
   `cards_per_type` to a type, by the assignment of least total cost, where a card's cost for a
   type is -log(its score there + a floor): the most likely labelling the deck allows. Scores
   compare by ratio, not difference: a card whose only link to a type is a weak runner-up (0.2
   against nothing) is surer there than a 0.6 label with a 0.4 rival.
3. Cards with no usable candidate (unknown, or only names not in play) fill the types with room,
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

# The score of a type a card's candidates do not name: unlikely, not impossible. A recognizer
# that names two of 32 landmarks leaves the truth among the other 30 perhaps one time in seven,
# about 0.005 a name; 0.02 made moving a sure card out of its type too cheap (99.00% against
# 99.12% on the noisy:0.1 benchmark).
SCORE_FLOOR = 0.005
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
    scores, support = _scores(labels, names)
    ranked = sorted((name for name in support if support[name] > 0), key=lambda name: (-support[name], name))
    types = tuple(ranked[: rules.types_per_round])

    pending = [card_id for card_id in sorted(labels) if not any(name in types for name in scores[card_id])]
    costs = {
        card_id: {name: -math.log(scores[card_id].get(name, 0.0) + SCORE_FLOOR) for name in types}
        for card_id in sorted(labels)
        if card_id not in pending
    }
    assigned = assign_within_capacity(costs, types, cap)
    moved_for_room = {
        card_id
        for card_id, name in assigned.items()
        if name != max((t for t in types if t in scores[card_id]), key=lambda t: (scores[card_id][t], t))
    }

    guessed: dict[int, float] = {}
    if guess_unknown and len(types) == rules.types_per_round:
        guessed = _guess(assigned, pending, types, cap)

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


def _scores(labels: Mapping[int, CardLabel], names: set[str]) -> tuple[dict[int, dict[str, float]], dict[str, float]]:
    """Each card's score per catalog landmark among its candidates, and each landmark's summed score."""
    scores: dict[int, dict[str, float]] = {}
    support: dict[str, float] = {}
    for card_id, label in labels.items():
        card_scores: dict[str, float] = {}
        for name, score in candidates_of(label):
            if name in names and name not in card_scores:
                card_scores[name] = max(0.0, float(score))
                support[name] = support.get(name, 0.0) + card_scores[name]
        scores[card_id] = card_scores
    return scores, support


def _guess(assigned: dict[int, str], pending: list[int], types: tuple[str, ...], cap: int) -> dict[int, float]:
    """Give each card with no candidate among the types the type with most room left (into `assigned`);
    the confidence of each guess."""
    guessed: dict[int, float] = {}
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
    return guessed


def assign_within_capacity(
    costs: Mapping[int, Mapping[str, float]], types: Sequence[str], capacity: int
) -> dict[int, str]:
    """The least-cost assignment of cards to types with at most `capacity` cards a type.

    Successive shortest paths, as in the Hungarian method: cards join one at a time, each by the
    cheapest chain "this card into type A, a card of A into B, ... into a type with room". Each
    partial assignment stays optimal for the cards placed so far, so the residual graph has no
    negative cycle and Bellman-Ford over the few type nodes finds the chain. When the cards
    outnumber the room, the rest go to their cheapest type, since no labelling can respect the
    counts then.
    """
    assigned: dict[int, str] = {}
    counts = dict.fromkeys(types, 0)
    room_total = capacity * len(types)
    for card_id, card_costs in costs.items():
        if len(assigned) >= room_total:
            assigned[card_id] = min(types, key=lambda name: (card_costs[name], name))
            continue
        # distance[t]: cost of the cheapest chain that ends with one more card in type t
        distance = {name: card_costs[name] for name in types}
        via: dict[str, tuple[str, int] | None] = dict.fromkeys(types, None)  # (previous type, card moved)
        for _ in range(len(types) - 1):
            changed = False
            for source in types:
                for moved, name in assigned.items():
                    if name != source:
                        continue
                    for target in types:
                        if target == source:
                            continue
                        step = distance[source] + costs[moved][target] - costs[moved][source]
                        if step < distance[target] - 1e-12:
                            distance[target] = step
                            via[target] = (source, moved)
                            changed = True
            if not changed:
                break
        end = min((name for name in types if counts[name] < capacity), key=lambda name: (distance[name], name))
        counts[end] += 1
        target = end
        while (link := via[target]) is not None:
            source, moved = link
            assigned[moved] = target
            target = source
        assigned[card_id] = target
    return assigned


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
