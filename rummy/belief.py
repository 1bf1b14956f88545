"""A belief over the round's cards: how likely each card seen is of each of the round's types.

A bot sees its cards through a recognizer that is sometimes wrong or silent, so the landmark of a card
is a probability, not a fact. The belief combines everything the referee shows:

- each card's label under the recognizer's `ErrorModel` (soft evidence, below);
- the deal: 4 types x 10 cards, shuffled, so a set of cards outside the deck with type counts c has prior
  weight prod_t 10!/(10-c_t)! (the multivariate hypergeometric; no type can hold more than 10);
- what sets did: an accepted Lay's points say whether its cards were all one type (20/30/50) or all
  different (25/35); a refused Lay (no points, the cards stay) says its cards form no set; the
  opponent's Lay before our first view adds cards we never saw, constrained the same way by its points.

It is computed over the *assignments* of types to the cards outside the deck (hands, laid, unseen laid):

- **exact** when the combinations are few (at most `EXACT_CAP` joint assignments of the uncertain
  cards): every assignment is enumerated with its exact posterior weight;
- **sampled** otherwise: `samples` independent draws from the exact posterior, by forward filtering over
  the deck's type counts and backward sampling (the deal's prior couples the cards only through those
  counts, so a dynamic programme over count vectors carries it exactly; no Markov chain, no burn-in).

Cards are grouped in blocks (cards tied by a set's constraint); a block's joint options are enumerated.
A block with more than `BLOCK_CAP` combinations keeps only its likeliest `BLOCK_CAP` (an approximation:
the combinations left out need several labels wrong at once; the belief then says it is not exact).
Evidence that contradicts itself (a certain label against a set's points) is softened rather than
trusted, and the belief notes it.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.countstate import CountRules
from rummy.labels import CardLabel

# Joint assignments of the uncertain cards up to which the belief is enumerated exactly.
EXACT_CAP = 4096
# Options one block (cards tied by sets) keeps: past this, only its likeliest combinations.
BLOCK_CAP = 2_000
DEFAULT_SAMPLES = 128
# A label that contradicts the rest is kept at this share of its top type's weight, not at zero.
SOFT_FLOOR = 1e-3


class SetKind(StrEnum):
    """What a group of cards is known to be."""

    SAME = "same"  # an accepted set of one landmark (20, 30 or 50 points)
    DIFFERENT = "different"  # an accepted set of all different landmarks (25 or 35 points)
    NO_SET = "no set"  # a refused Lay: these cards form no set


@dataclass(frozen=True)
class Constraint:
    cards: tuple[int, ...]
    kind: SetKind


# Answers, none of them outside the round, that the share of errors seen outside it is counted over besides the
# round's own: 20 answers at a first view hold one or two such errors at most.
OUTSIDE_PRIOR = 10
# The least part of a stated error rate left to answers naming the round's landmarks, however many fall outside.
IN_ROUND_FLOOR = 0.1
# How a stated rate is read within a round (ErrorModel.within_round), in the words every such model's source ends with.
LESS_SHOWN = " (less the errors it shows by naming landmarks outside the round)"


@dataclass(frozen=True)
class ErrorModel:
    """How a recognizer errs, for reading its labels as evidence.

    `calibrated`: its confidence is the probability that the top name is right (and a runner-up's score
    the probability that the runner-up is). `reliability`: the confidence is not calibrated but was measured
    (`rummy-vision measure recognizer-errors`): bins of it, each with the share of answers naming one of the
    round's landmarks that were right, which is read as the chance the top name is right. Otherwise the
    confidence is ignored and the top name is right with probability 1 - `error_rate` (a stated prior). When
    the top name is wrong, the truth is the runner-up with probability `runner_up`, else any other of the
    round's types alike. An error rate of 0 makes labels certain (true labels).
    """

    error_rate: float = 0.1
    calibrated: bool = False
    runner_up: float = 0.5
    # Where the model comes from, in words, shown wherever the belief is (a match's source line, analyze); left
    # empty, it is written from the fields, so a model stated without it is never shown as the assumed one.
    source: str = ""
    # Where the recognizer knows its own answers' likelihoods exactly (a simulated one): P(this label | the
    # truth is names[t]) for each t, or None for no evidence. Takes precedence over everything above.
    likelihood: Callable[[CardLabel, Sequence[str]], tuple[float, ...] | None] | None = field(
        default=None, compare=False
    )
    # Measured reliability of the confidence: (upper edge of a confidence bin, chance the top name is right in it),
    # edges rising, the last 1.0; empty when not measured.
    reliability: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if not 0.0 <= self.error_rate < 1.0:
            raise ValueError(f"error_rate must be in [0, 1), not {self.error_rate}")
        if not 0.0 <= self.runner_up <= 1.0:
            raise ValueError(f"runner_up must be in [0, 1], not {self.runner_up}")
        edges = [edge for edge, _right in self.reliability]
        if self.reliability and (edges != sorted(set(edges)) or edges[-1] < 1.0):
            raise ValueError(f"reliability bins need rising upper edges ending at 1.0, not {edges}")
        if any(not 0.0 <= right <= 1.0 for _edge, right in self.reliability):
            raise ValueError("a reliability bin's chance of being right must be in [0, 1]")
        if not self.source:
            object.__setattr__(self, "source", self._described())

    def _described(self) -> str:
        if self.likelihood is not None:
            return "stated: each answer's likelihood, from the recognizer itself"
        if self.calibrated:
            return "stated: the confidence is the chance the top name is right"
        if self.reliability:
            low, high = min(r for _e, r in self.reliability), max(r for _e, r in self.reliability)
            return (
                f"measured: right {low:.0%} to {high:.0%} of the time by confidence ({1 - self.error_rate:.0%} in "
                f"all), the truth second in {self.runner_up:.0%} of errors"
            )
        if self.error_rate == 0.0:
            return "stated: every label is right"
        return (
            f"stated: wrong {self.error_rate:.0%} of the time, the truth second in {self.runner_up:.0%} of those"
            + LESS_SHOWN
        )

    @property
    def certain(self) -> bool:
        return self.error_rate == 0.0 and not self.calibrated and not self.reliability

    def right_at(self, confidence: float) -> float:
        """The chance that the top name is right at this confidence, when the confidence is not calibrated:
        `reliability`'s bin holding it where measured, else 1 - the stated error rate."""
        for edge, right in self.reliability:
            if confidence <= edge:
                return right
        return self.reliability[-1][1] if self.reliability else 1.0 - self.error_rate

    def within_round(self, outside: int, answers: int) -> ErrorModel:
        """The model for answers that name one of the round's landmarks, when `outside` of the round's `answers`
        named none of them. A stated error rate counts every wrong answer, and those naming a landmark outside
        the round show themselves, so an answer naming one of the round's is wrong less often: the stated rate
        less the share seen outside (counted over OUTSIDE_PRIOR more answers, none outside, as a round's first
        answers show too few to trust alone), never below IN_ROUND_FLOOR of the rate. Only a stated rate is
        read so; an exact likelihood already knows where its errors fall, a calibrated score is read as it is, and a
        measured reliability was measured on answers naming the round's landmarks alone."""
        if self.likelihood is not None or self.calibrated or self.reliability or self.error_rate == 0.0 or outside <= 0:
            return self
        rate = max(self.error_rate * IN_ROUND_FLOOR, self.error_rate - outside / (answers + OUTSIDE_PRIOR))
        return replace(self, error_rate=rate)

    def evidence(self, label: CardLabel | None, names: Sequence[str]) -> tuple[float, ...] | None:
        """Relative likelihood of each of `names` being the card's truth given its label; None: no evidence."""
        if label is None or label.landmark is None:
            return None
        if self.likelihood is not None:
            return self._stated_likelihood(label, names)
        n = len(names)
        top = label.landmark
        ranked = ranked_candidates(label)
        second = runner_up(label)
        # A runner-up that is none of the round's names cannot be the truth: it takes no share, so the top name
        # stays right with the stated (or calibrated) chance instead of gaining the runner-up's share.
        second = second if second in names else None
        if self.calibrated:
            right = min(1.0, max(0.0, label.confidence))
            second_share = dict(ranked).get(second, 0.0) if second is not None else 0.0
            second_share = min(second_share, 1.0 - right)
        else:
            right = self.right_at(label.confidence)
            second_share = (1.0 - right) * self.runner_up if second is not None else 0.0
        if right >= 1.0 and top in names:
            return tuple(1.0 if name == top else 0.0 for name in names)
        others = [name for name in names if name not in (top, second)]
        rest = max(0.0, 1.0 - right - second_share)
        weights = []
        for name in names:
            if name == top:
                weights.append(right)
            elif name == second:
                weights.append(second_share)
            else:
                weights.append(rest / len(others) if others else 0.0)
        if n == 0 or sum(weights) <= 0.0:
            return None
        return tuple(weights)

    def _stated_likelihood(self, label: CardLabel, names: Sequence[str]) -> tuple[float, ...] | None:
        """The recognizer's own likelihood of `label`, checked: a user's file may state one, and a wrong length,
        a negative or a NaN would otherwise bend the belief without a word (read as evidence that contradicts)."""
        assert self.likelihood is not None
        found = self.likelihood(label, names)
        if found is None:
            return None
        try:
            values = tuple(float(value) for value in found)
        except (TypeError, ValueError):
            values = ()
        if len(values) != len(names) or not all(math.isfinite(value) and value >= 0.0 for value in values):
            raise ValueError(
                f"the error model's likelihood ({self.source}) answered {found!r} for the label {label.landmark!r}:"
                f" it must give one number >= 0 for each of the {len(names)} names {list(names)}, or None"
            )
        return values if sum(values) > 0.0 else None


def ranked_candidates(label: CardLabel) -> tuple[tuple[str, float], ...]:
    """Every (name, score) a label offers, best first: its runners-up too when the recognizer gives them."""
    # A recognizer's RankedLabel (recognizers.observation) carries its runners-up as `candidates`.
    candidates = getattr(label, "candidates", ())
    if candidates:
        return tuple((str(name), float(score)) for name, score in candidates)
    return ((label.landmark, label.confidence),) if label.landmark is not None else ()


def runner_up(label: CardLabel) -> str | None:
    """The first name a label offers after its top one, if any."""
    return next((name for name, _score in ranked_candidates(label)[1:] if name != label.landmark), None)


TRUE_LABELS = ErrorModel(0.0, source="true labels: every label is right")
ASSUMED = ErrorModel(
    source="assumed: a recognizer that states no error model is taken to be wrong 1 time in 10" + LESS_SHOWN
)


@dataclass(frozen=True)
class Assignment:
    """One way the cards outside the deck can be, with its posterior probability."""

    types: Mapping[int, int]  # card id -> type index (unseen laid cards have negative ids)
    deck: tuple[int, ...]  # the deck's count of each type under this assignment
    weight: float


# What the belief notes when its evidence contradicts itself, and how it went on (see `belief`).
LABELS_CONTRADICTED = "the labels contradict the deal or the sets seen: every label was given a little doubt"
SETS_CONTRADICTED = "the sets seen contradict the deal: their constraints were dropped"


@dataclass(frozen=True)
class Belief:
    names: tuple[str, ...]
    assignments: tuple[Assignment, ...]  # distinct, most likely first, weights summing to 1
    exact: bool  # enumerated (True) or sampled / approximated (False)
    method: str  # how, in words
    marginals: Mapping[int, tuple[float, ...]]  # card id -> P(type) per type index
    notes: tuple[str, ...] = field(default=())
    draws: int = 0  # a sampled belief's draws (0: enumerated); the assignments are these draws merged

    @property
    def certain(self) -> bool:
        return len(self.assignments) == 1

    @property
    def contradiction(self) -> str | None:
        """The note that says the evidence contradicted itself (a label stated sure, against the deal or a set's
        points: the recognizer errs where its error model says it cannot), or None."""
        return next((note for note in self.notes if note in (LABELS_CONTRADICTED, SETS_CONTRADICTED)), None)

    @property
    def most_likely(self) -> Assignment:
        return self.assignments[0]

    def probability(self, card_id: int, type_index: int) -> float:
        return self.marginals[card_id][type_index]

    def describe(self, card_id: int, cutoff: float = 0.05) -> str:
        """The card's belief in words, e.g. "giralda 0.62 / koutoubia mosque 0.31" (or one name when certain)."""
        return chances_text(zip(self.names, self.marginals[card_id]), cutoff)

    def set_chance(self, cards: Sequence[int], rules: CountRules) -> float:
        """The probability, under the whole belief, that these cards form a set."""
        unit = rules.unit
        return sum(
            assignment.weight
            for assignment in self.assignments
            if sum(unit[assignment.types[card]] for card in cards) in rules.lay_by_code
        )

    def sure_of(self, card_id: int) -> bool:
        """Whether the belief gives this card one landmark for certain."""
        return max(self.marginals[card_id]) >= 1.0 - SURE

    def doubt(self, card_id: int) -> float:
        """1 - the chance of the card's likeliest landmark; exactly 0 for a card the belief is sure of, so that a
        rounding's worth never counts as doubt."""
        return 0.0 if self.sure_of(card_id) else 1.0 - max(self.marginals[card_id])


# A chance this close to 1 is shown as certainty (float sums of assignment weights fall a hair short).
SURE = 1e-9
# What every place that shows values decided on an uncertain belief says of them.
EXPECTED = "expected over the belief"


def chances_text(chances: Iterable[tuple[str, float]], cutoff: float = 0.05) -> str:
    """Landmarks with their chances, likeliest first, in the one form every display uses:
    "giralda 0.62 / koutoubia mosque 0.31" (chances under `cutoff` left out), or the one name when certain."""
    shares = sorted(((name, p) for name, p in chances if p > 0), key=lambda pair: (-pair[1], pair[0]))
    if not shares:
        return "unknown"
    if shares[0][1] >= 1.0 - SURE:
        return shares[0][0]
    return " / ".join(f"{name} {p:.2f}" for name, p in shares if p >= cutoff) or f"{shares[0][0]} {shares[0][1]:.2f}"


@dataclass(frozen=True)
class UnsureCards:
    """Cards a belief is not certain of, with what it believes of them, for display.

    `cards` is one card in view, or the cards of one set laid unseen (negative ids in the belief), whose
    text is what is believed of each of them (the mean of their chances)."""

    cards: tuple[int, ...]
    text: str  # chances_text of the cards' landmarks
    unseen: bool = False

    @property
    def what(self) -> str:
        if not self.unseen:
            return f"card {self.cards[0]}"
        count = len(self.cards)
        return "the card laid unseen" if count == 1 else f"each of the {count} cards laid unseen"

    def line(self) -> str:
        return f"{self.what}: {self.text}"

    def to_json(self) -> dict[str, Any]:
        return {"Cards": list(self.cards), "What": self.what, "Belief": self.text}


def unsure_cards(
    belief: Belief, in_view: Iterable[int] | None = None, unseen_sets: Iterable[Sequence[int]] | None = None
) -> tuple[UnsureCards, ...]:
    """What `belief` holds of every card it is not sure of: the cards of `in_view` (default: every card it
    knows in view), in that order, then each set of cards laid unseen (`unseen_sets`, negative ids; default:
    all such cards as one)."""
    shown = [card for card in belief.marginals if card >= 0] if in_view is None else list(in_view)
    found = [
        UnsureCards((card,), belief.describe(card))
        for card in shown
        if card in belief.marginals and not belief.sure_of(card)
    ]
    hidden = sorted((card for card in belief.marginals if card < 0 and not belief.sure_of(card)), reverse=True)
    groups = [hidden] if unseen_sets is None else [[card for card in cards if card < 0] for cards in unseen_sets]
    for cards in groups:
        cards = [card for card in cards if card in belief.marginals]
        if not cards:
            continue
        mean = [sum(belief.marginals[card][t] for card in cards) / len(cards) for t in range(len(belief.names))]
        if max(mean) < 1.0 - SURE:
            found.append(UnsureCards(tuple(cards), chances_text(zip(belief.names, mean)), unseen=True))
    return tuple(found)


def expected_note(unsure: Sequence[UnsureCards], lead: str = f"Values are {EXPECTED}") -> str:
    """One sentence saying that values are expected over the belief (or what `lead` says was decided on it),
    and what it holds of the unsure cards (empty when there are none: values on a certain belief are not
    expectations, and are not called so)."""
    if not unsure:
        return ""
    return f"{lead}, which is not sure of " + "; ".join(item.line() for item in unsure) + "."


# --- inference ------------------------------------------------------------------------------------


@dataclass
class _Block:
    cards: tuple[int, ...]
    options: list[tuple[tuple[int, ...], float]]  # (type per card, weight)
    approximate: bool = False


def infer(
    cards: Sequence[int],
    evidence: Mapping[int, Sequence[float] | None],
    constraints: Iterable[Constraint],
    names: Sequence[str],
    rules: RulesConfig = DEFAULT_RULES,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int | str = 0,
    exact_cap: int = EXACT_CAP,
) -> Belief:
    """The posterior over the types of `cards` (every card outside the deck: hands, laid, unseen laid).

    `evidence[card]` is the relative likelihood of each type index (None or missing: no evidence).
    """
    n = rules.types_per_round
    if len(names) != n:
        raise ValueError(f"a round has {n} types, got {len(names)} names")
    constraints = [c for c in constraints if c.cards]
    notes: list[str] = []
    blocks = _blocks(cards, evidence, constraints, rules, notes, soften=False)
    belief = _solve(blocks, names, rules, samples, seed, exact_cap, notes)
    if belief is None:
        notes.append(LABELS_CONTRADICTED)
        blocks = _blocks(cards, evidence, constraints, rules, notes, soften=True)
        belief = _solve(blocks, names, rules, samples, seed, exact_cap, notes)
    if belief is None:
        notes.append(SETS_CONTRADICTED)
        blocks = _blocks(cards, {}, [], rules, notes, soften=True)
        belief = _solve(blocks, names, rules, samples, seed, exact_cap, notes)
    assert belief is not None, "an unconstrained belief always has an assignment"
    return belief


def _blocks(
    cards: Sequence[int],
    evidence: Mapping[int, Sequence[float] | None],
    constraints: Sequence[Constraint],
    rules: RulesConfig,
    notes: list[str],
    *,
    soften: bool,
) -> list[_Block] | None:
    n = rules.types_per_round
    parent = {card: card for card in cards}

    def root(card: int) -> int:
        while parent[card] != card:
            parent[card] = parent[parent[card]]
            card = parent[card]
        return card

    known = set(cards)
    usable = [c for c in constraints if all(card in known for card in c.cards)]
    for constraint in usable:
        first = root(constraint.cards[0])
        for card in constraint.cards[1:]:
            parent[root(card)] = first
    members: dict[int, list[int]] = {}
    for card in cards:
        members.setdefault(root(card), []).append(card)
    by_block: dict[int, list[Constraint]] = {}
    for constraint in usable:
        by_block.setdefault(root(constraint.cards[0]), []).append(constraint)
    blocks = []
    for key, block_cards in members.items():
        weights = [_weights(evidence.get(card), n, soften) for card in block_cards]
        block = _enumerate(tuple(block_cards), weights, by_block.get(key, []), rules)
        if block is None:
            return None
        blocks.append(block)
    return blocks


def _weights(given: Sequence[float] | None, n: int, soften: bool) -> list[float]:
    if given is None or not any(w > 0 for w in given):
        return [1.0] * n
    weights = [max(0.0, float(w)) for w in given]
    if soften:
        floor = SOFT_FLOOR * max(weights)
        weights = [max(w, floor) for w in weights]
    return weights


def _enumerate(
    cards: tuple[int, ...], weights: list[list[float]], constraints: list[Constraint], rules: RulesConfig
) -> _Block | None:
    """A block's joint options: all of them when there are at most BLOCK_CAP combinations, else the
    likeliest BLOCK_CAP that the constraints allow (a beam over the cards; the belief then says so)."""
    supports = [[t for t, w in enumerate(row) if w > 0] for row in weights]
    position = {card: index for index, card in enumerate(cards)}
    # Each constraint is checked as soon as its last card has a type.
    checks: dict[int, list[tuple[list[int], SetKind]]] = {}
    for constraint in constraints:
        where = [position[card] for card in constraint.cards]
        checks.setdefault(max(where), []).append((where, constraint.kind))
    approximate = math.prod(len(s) for s in supports) > BLOCK_CAP
    partial: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    for index, support in enumerate(supports):
        grown = []
        for combo, weight in partial:
            for t in support:
                extended = (*combo, t)
                if all(_holds([extended[i] for i in where], kind, rules) for where, kind in checks.get(index, ())):
                    grown.append((extended, weight * weights[index][t]))
        if len(grown) > BLOCK_CAP:
            grown.sort(key=lambda option: -option[1])
            grown = grown[:BLOCK_CAP]
        partial = grown
        if not partial:
            return None
    return _Block(cards, partial, approximate)


def _holds(types: list[int], kind: SetKind, rules: RulesConfig) -> bool:
    if kind is SetKind.SAME:
        return len(set(types)) == 1
    if kind is SetKind.DIFFERENT:
        return len(set(types)) == len(types)
    counts = tuple(types.count(t) for t in range(rules.types_per_round))
    return rules.set_points(counts) == 0


def _prior(counts: Sequence[int], per_type: int) -> float:
    """The deal's weight of a set of cards with these type counts: prod_t per_type!/(per_type - c_t)!."""
    weight = 1.0
    for count in counts:
        if count > per_type:
            return 0.0
        weight *= math.perm(per_type, count)
    return weight


def _counts(combo: Sequence[int], n: int) -> tuple[int, ...]:
    counts = [0] * n
    for t in combo:
        counts[t] += 1
    return tuple(counts)


def _split(blocks: list[_Block], n: int) -> tuple[dict[int, int], list[int], list[_Block]]:
    """The cards whose types are settled (with the count of each type they take) and the blocks still open."""
    fixed: dict[int, int] = {}
    offset = [0] * n
    uncertain: list[_Block] = []
    for block in blocks:
        if len(block.options) == 1:
            combo = block.options[0][0]
            fixed.update(zip(block.cards, combo))
            for t in combo:
                offset[t] += 1
        else:
            uncertain.append(block)
    return fixed, offset, uncertain


def _solve(
    blocks: list[_Block] | None,
    names: Sequence[str],
    rules: RulesConfig,
    samples: int,
    seed: int | str,
    exact_cap: int,
    notes: list[str],
) -> Belief | None:
    if blocks is None:
        return None
    n, per_type = rules.types_per_round, rules.cards_per_type
    fixed, offset, uncertain = _split(blocks, n)
    approximate = any(block.approximate for block in blocks)
    combos = math.prod(len(block.options) for block in uncertain)
    if combos <= exact_cap:
        weighted = _exact(uncertain, offset, n, per_type)
        method = "exact enumeration" if not approximate else "enumeration of each card's likeliest types"
        exact = not approximate
        draws = 0
    else:
        weighted = _sampled(uncertain, offset, n, per_type, samples, seed)
        method = f"{samples} samples from the exact posterior (forward filtering, backward sampling)"
        exact = False
        draws = samples
    if not weighted:
        return None
    total = sum(weight for _types, weight in weighted)
    merged: dict[tuple[int, ...], float] = {}
    for types, weight in weighted:
        merged[types] = merged.get(types, 0.0) + weight / total
    order = [card for block in uncertain for card in block.cards]
    assignments = []
    for types, weight in sorted(merged.items(), key=lambda item: (-item[1], item[0])):
        full = dict(fixed)
        full.update(zip(order, types))
        counts = _counts(list(full.values()), n)
        assignments.append(Assignment(full, tuple(per_type - c for c in counts), weight))
    marginals: dict[int, list[float]] = {card: [0.0] * n for card in [*fixed, *order]}
    for assignment in assignments:
        for card, t in assignment.types.items():
            marginals[card][t] += assignment.weight
    if approximate:
        notes.append("cards tied by refused sets had too many combinations: only the likeliest were kept")
    return Belief(
        tuple(names),
        tuple(assignments),
        exact,
        method,
        {card: tuple(row) for card, row in marginals.items()},
        tuple(notes),
        draws,
    )


def _exact(uncertain: list[_Block], offset: list[int], n: int, per_type: int) -> list[tuple[tuple[int, ...], float]]:
    found = []
    for choice in itertools.product(*(block.options for block in uncertain)):
        types = tuple(t for combo, _weight in choice for t in combo)
        counts = [offset[t] for t in range(n)]
        for t in types:
            counts[t] += 1
        weight = math.prod(w for _combo, w in choice) * _prior(counts, per_type)
        if weight > 0:
            found.append((types, weight))
    return found


# One block's options that add the same counts: (counts added, flat offset, summed weight, combos, weights).
_Step = tuple[tuple[int, ...], int, float, list[tuple[int, ...]], list[float]]


def _sampled(
    uncertain: list[_Block], offset: list[int], n: int, per_type: int, samples: int, seed: int | str
) -> list[tuple[tuple[int, ...], float]]:
    """`samples` independent draws from the exact posterior: forward filtering over the deck's type counts
    (_forward), then backward sampling block by block, every draw at once (_draw)."""
    filtered = _forward(uncertain, offset, n, per_type)
    if filtered is None:
        return []
    return _draw(filtered, per_type, samples, zlib.crc32(f"belief:{seed}".encode()))


@dataclass(frozen=True)
class _Filtered:
    steps: list[list[_Step]]  # each block's options grouped by the counts they add
    tables: list[Any]  # the forward message before each block (flat numpy arrays), and after the last
    cumulative: Any  # the final message times the deal's prior, as a cumulative distribution (numpy)
    strides: list[int]


def _forward(uncertain: list[_Block], offset: list[int], n: int, per_type: int) -> _Filtered | None:
    # numpy only here: the dynamic programme over count vectors; `import rummy` stays light.
    import numpy as np

    shape = (per_type + 1,) * n
    strides = [(per_type + 1) ** (n - 1 - axis) for axis in range(n)]
    if any(c > per_type for c in offset):
        return None
    start = np.zeros(shape)
    start[tuple(offset)] = 1.0
    # Each block's options grouped by the counts they add: (counts added, flat offset, summed weight,
    # the options' combos, their weights).
    steps: list[list[_Step]] = []
    forward = [start]
    for block in uncertain:
        by_counts: dict[tuple[int, ...], list[tuple[tuple[int, ...], float]]] = {}
        for combo, weight in block.options:
            by_counts.setdefault(_counts(combo, n), []).append((combo, weight))
        step = []
        before, after = forward[-1], np.zeros(shape)
        for add, options in by_counts.items():
            if any(a > per_type for a in add):
                continue
            weight = sum(w for _combo, w in options)
            target = tuple(slice(a, None) for a in add)
            source = tuple(slice(0, per_type + 1 - a) for a in add)
            after[target] += weight * before[source]
            flat = sum(a * stride for a, stride in zip(add, strides))
            step.append((add, flat, weight, [c for c, _w in options], [w for _c, w in options]))
        steps.append(step)
        peak = after.max()
        if peak <= 0:
            return None
        forward.append(after / peak)  # rescaled: only ratios matter, and this keeps floats in range
    prior = np.ones(shape)
    for axis in range(n):
        along = np.array([float(math.perm(per_type, c)) for c in range(per_type + 1)])
        prior = prior * along.reshape([-1 if a == axis else 1 for a in range(n)])
    final = (forward[-1] * prior).ravel()
    total = final.sum()
    if total <= 0:
        return None
    return _Filtered(steps, [array.ravel() for array in forward], np.cumsum(final) / total, strides)


def _draw(filtered: _Filtered, per_type: int, samples: int, seed: int) -> list[tuple[tuple[int, ...], float]]:
    """`samples` assignments, all at once: the final counts from the filtered distribution, then each block's
    option given the counts left, from the last block back (vectorised over the draws: the same arithmetic
    one draw at a time would take, without a Python loop per draw)."""
    import numpy as np  # as in _forward: `import rummy` stays light

    rng = np.random.default_rng(seed)
    strides = np.array(filtered.strides)
    last = len(filtered.cumulative) - 1
    flat = np.minimum(np.searchsorted(filtered.cumulative, rng.random(samples), side="right"), last)
    counts = (flat[:, None] // strides) % (per_type + 1)
    chosen: list[Any] = []
    for k in range(len(filtered.steps) - 1, -1, -1):
        step, table = filtered.steps[k], filtered.tables[k]
        weights = np.zeros((samples, len(step)))
        for j, (add, shift, weight, _combos, _combo_weights) in enumerate(step):
            # The count left of each type the option adds to must cover what it adds.
            fits = np.all(counts >= np.array(add), axis=1)
            weights[:, j] = np.where(fits, weight * table[np.where(fits, flat - shift, 0)], 0.0)
        pick = _pick(weights, rng)
        block = np.zeros((samples, len(step[0][3][0])), dtype=int)
        for j, (add, shift, _weight, combos, combo_weights) in enumerate(step):
            rows = np.flatnonzero(pick == j)
            if not len(rows):
                continue
            which = _pick(np.tile(np.array(combo_weights), (len(rows), 1)), rng) if len(combos) > 1 else 0
            block[rows] = np.array(combos)[which]
            counts[rows] -= np.array(add)
            flat[rows] -= shift
        chosen.append(block)
    chosen.reverse()
    drawn = np.concatenate(chosen, axis=1) if chosen else np.zeros((samples, 0), dtype=int)
    return [(tuple(int(t) for t in row), 1.0) for row in drawn]


def _pick(weights: Any, rng: Any) -> Any:
    """For each row of `weights` (a draws x options array), an option index drawn in proportion to its weight."""
    import numpy as np  # as in _forward: `import rummy` stays light

    cumulative = np.cumsum(weights, axis=1)
    point = rng.random(len(weights)) * cumulative[:, -1]
    return np.minimum((cumulative <= point[:, None]).sum(axis=1), weights.shape[1] - 1)


def resample(weighted: Sequence[tuple[Any, float]], keep: int) -> list[tuple[Any, float]]:
    """`keep` equally weighted draws from weighted ones (systematic resampling: one evenly spaced comb over the
    cumulative weights, so no seed and the least spread), duplicates merged: an assignment drawn k times weighs
    k / keep. Weighted draws whose weights are uneven (a belief weighed by evidence it could not read itself)
    hold few effective draws; read on many and resampled, they value the same number of assignments more truly."""
    total = sum(weight for _item, weight in weighted)
    if not total > 0 or keep < 1:
        raise ValueError("resampling needs some weight and at least one draw to keep")
    kept: dict[int, int] = {}
    running, index = 0.0, -1
    for j in range(keep):
        point = (j + 0.5) / keep * total
        while running <= point and index + 1 < len(weighted):
            index += 1
            running += weighted[index][1]
        kept[index] = kept.get(index, 0) + 1
    return [(weighted[index][0], count / keep) for index, count in kept.items()]


def set_kind(points: int, size: int, rules: RulesConfig) -> SetKind | None:
    """What an accepted Lay of `size` cards scoring `points` was; None when no single set scores so."""
    if dict(rules.same_kind_points).get(size) == points:
        return SetKind.SAME
    if dict(rules.different_points).get(size) == points:
        return SetKind.DIFFERENT
    return None


def error_model_of(recognizer: object) -> ErrorModel:
    """The error model a recognizer states (`error_model`), else the assumed one (`ASSUMED`)."""
    model = getattr(recognizer, "error_model", None)
    return model if isinstance(model, ErrorModel) else ASSUMED
