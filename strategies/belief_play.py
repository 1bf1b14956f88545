"""Deciding on a belief over the cards, not on one guess of their landmarks.

When the tracker's belief holds several assignments (a recognizer that may be wrong, an opponent's set
laid before our first view), a move is chosen at card level:

- **strategies with values** (`perfect`, the searchers: anything with `analyse(state, deadline,
  all_values=True)`): every candidate card move is valued in each assignment's count-level state as the
  count move it is there (a Lay whose cards form no set in that assignment is the wasted turn it would
  be), and its value is the expectation over the assignments. `perfect` values every assignment from
  its tables; a searcher values the likeliest `SEARCH_STATES` with its node budget (or time) split
  among them, and its expectation is over those, renormalised.
- **other strategies** (`greedy`, the characters ...): each of the likeliest `VOTE_STATES` assignments
  votes, with its probability, for the card move its count move maps to; a Lay's votes are multiplied by
  its probability of being a set under the whole belief, and the best scored move is played.

**Doubt** (`perfect:doubt=D`). The tables value the rest of a round as if every card were then known, but a card
whose landmark we doubt now will mostly still be doubted later, so holding it is worth less than they say, and
laying or giving it away more. With D above 0 each move is ranked by its expected value plus D times the
doubt (1 - the likeliest landmark's chance, summed over cards) it takes out of our hand, expected over the
assignments: an accepted Lay's cards and a given card leave, a taken card comes in, a refused Lay changes
nothing. The values shown stay the expectations; the term is kept apart (`RankedCardMove.doubt`). With a
certain belief every doubt is 0 and nothing changes.

Which cards of a type: those the belief thinks likeliest of that type. A Lay tried as a set and refused this
round is never a candidate again, not even as a pass: the belief gives it probability 0 of being a set, and
as a pass there are mostly other ways to waste a turn. A Lay meant as a pass (no set in any assignment when it
was laid) may be laid again as one: with three cards in hand it can be the only pass, and the best move.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rummy import CountRules, Give, Lay, Move, Take, Tracker
from rummy.belief import Belief
from rummy.countstate import card_move
from rummy.tracker import BeliefState
from strategies.base import Strategy
from strategies.hand_doubt import HandDoubt
from strategies.lay_answers import answer_worth
from strategies.move_values import MoveValues, in_order
from strategies.opponent_model import OpponentModel

# Assignments a searcher values (its budget is split among them); the rest of the belief is left out.
SEARCH_STATES = 6
# Assignments a table-backed strategy (`perfect`) values at the most: each is a few table look-ups.
TABLE_STATES = 256
# Assignments that vote for strategies without values.
VOTE_STATES = 32
# The least node budget a searcher gets per assignment.
MIN_NODES = 2_000
# Part of the time to the deadline that reading the opponent's moves may take (the rest values the moves).
OPPONENT_SHARE = 0.3


@dataclass(frozen=True)
class RankedCardMove:
    move: Move
    value: float  # expected over the valued assignments, on the strategy's internal scale
    sure: float  # probability, under the belief, that a Lay is a set (1.0 for Take and Give)
    # What the strategy's `doubt` adds to rank it by (see _shed), on the same scale: 0 with the option off.
    doubt: float = 0.0
    # What `teach` adds for what a Lay's answer would show (strategies.lay_answers): 0 with the option off.
    teach: float = 0.0

    @property
    def score(self) -> float:
        """What the moves are ranked by: the expected value, plus the doubt and teach terms when they are on."""
        return self.value + self.doubt + self.teach


@dataclass(frozen=True)
class BeliefDecision:
    move: Move
    ranked: tuple[RankedCardMove, ...]  # best first; empty for voting strategies
    weight_valued: float  # the belief's probability mass that was valued (1.0: all of it)
    states: int  # assignments valued or voting
    exact: bool  # every value exact and the whole (exact) belief valued
    seconds: float
    # Every valued assignment's values exact (table look-ups, not a search's estimates): the values are then
    # expectations over the belief, which no table can make exact, and no estimate a table would replace.
    assignments_exact: bool = False
    # Cards in view whose landmark, if known, would raise the decision's expected value most: (card, gain),
    # largest first, gain > 0 only (see _worth_asking). Empty for voting strategies.
    worth_asking: tuple[tuple[int, float], ...] = ()


def decide(
    strategy: Strategy,
    tracker: Tracker,
    deadline: float | None = None,
    opponent: OpponentModel | None = None,
    asking: bool = True,
) -> BeliefDecision:
    """The card move to play on the tracker's belief (call when it holds more than one assignment). With an
    `opponent` model, the belief is first weighed by how likely the opponent's moves were in each assignment.
    `asking`: work out which cards are worth a second opinion (off when no second recognizer could be asked)."""
    began = time.monotonic()
    keep = _weigh(strategy, tracker, deadline, opponent, began)
    states = tracker.belief_states()
    belief = tracker.belief()
    rules = states[0].state.rules
    refused = set(tracker.refused())
    my_ids, opp_ids = tracker.hand_ids()
    # A character's noise is part of its play: it votes, so that the belief does not make it stronger.
    if not callable(getattr(strategy, "analyse", None)) or getattr(strategy, "noise", 0) > 0:
        return _vote(strategy, states[:VOTE_STATES], belief, rules, my_ids, refused, deadline, began)
    valued, solved = _value_states(strategy, states, deadline, keep)
    if not valued:  # no search finished a first iteration in its share of the time: the likeliest state votes
        return _vote(strategy, states[:1], belief, rules, my_ids, refused, deadline, began)
    candidates = _candidates(states, valued, belief, rules, my_ids, opp_ids, refused)
    total = sum(states[index].weight for index, _values, _exact in valued)
    doubt = float(getattr(strategy, "doubt", 0.0) or 0.0)
    unsure = {card: belief.doubt(card) for card in (*my_ids, *opp_ids)} if doubt else {}
    weights = [states[index].weight for index, _values, _exact in valued]
    types = [states[index].types for index, _v, _e in valued]
    learning = HandDoubt(types, weights, my_ids, rules.n_types) if doubt and getattr(strategy, "learn", False) else None
    found = MoveValues(rules, types, [values for _index, values, _exact in valued])
    ranked, table, answers_of = _rank(
        candidates, found, weights, total, lambda move, accepted: _shed(move, accepted, doubt, unsure, learning)
    )
    teach = float(getattr(strategy, "teach", 0.0) or 0.0)
    if teach:
        said = [_answers(move, ids, rules) for move, ids in zip(candidates, answers_of)]
        ranked = [replace(item, teach=teach * worth) for item, worth in zip(ranked, answer_worth(table, weights, said))]
    asks = _worth_asking(table.tolist(), weights, types) if asking else ()
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i].score, -ranked[i].sure, repr(ranked[i].move)))
    ranked = [ranked[i] for i in order]
    exact = belief.exact and len(valued) == len(states) and all(exact for _i, _v, exact in valued)
    return BeliefDecision(
        ranked[0].move,
        tuple(ranked),
        total,
        len(valued),
        exact,
        time.monotonic() - began,
        assignments_exact=solved,
        worth_asking=asks,
    )


def _rank(
    candidates: Sequence[Move],
    found: MoveValues,
    weights: Sequence[float],
    total: float,
    shed: Callable[[Move, np.ndarray], np.ndarray],
) -> tuple[list[RankedCardMove], np.ndarray, list[np.ndarray]]:
    """Each candidate's expected value, set chance and doubt term; its score (value plus doubt term) in each valued
    state, a row a candidate; and its count move in each valued state."""
    w = np.array(weights, dtype=float)
    ranked = []
    table = np.empty((len(candidates), len(weights)))
    answers_of = []
    for number, move in enumerate(candidates):
        move_ids = found.count_moves(move)
        answers_of.append(move_ids)
        row, accepted = found.of(move_ids), found.accepted(move, move_ids)
        bonus = shed(move, accepted)
        table[number] = row + bonus
        value, doubted = in_order(w, row) / total, in_order(w, bonus) / total
        ranked.append(RankedCardMove(move, value, in_order(w, accepted) / total, doubted))
    return ranked, table, answers_of


def _weigh(
    strategy: Strategy, tracker: Tracker, deadline: float | None, opponent: OpponentModel | None, began: float
) -> int:
    """Weigh the belief by the opponent's moves where the strategy reads them, then keep the draws a decision
    values (a belief drawn larger for the reading, `perfect:read_draws`, is resampled): how many those are."""
    keep = tracker.keep or tracker.samples
    if opponent is not None and callable(getattr(strategy, "analyse", None)):
        reading_ends = None if deadline is None else began + OPPONENT_SHARE * max(0.0, deadline - began)
        opponent.reweigh(tracker, reading_ends, keep)
    tracker.thin(keep)
    return keep


def _shed(
    move: Move, accepted: np.ndarray, doubt: float, unsure: Mapping[int, float], learning: HandDoubt | None
) -> np.ndarray:
    """The doubt bonus of the move in each valued state (`accepted`: where the referee would accept it), weighted by
    `doubt`: the doubt (1 - a card's likeliest landmark's chance) it takes out of our hand there. An accepted Lay's
    cards and a given card leave it, a taken card comes in; a refused Lay leaves it as it was. With `learning`, a
    Lay also counts what its answer would teach."""
    if not doubt:
        return np.zeros(len(accepted))
    if learning is not None:
        return np.array([doubt * x for x in learning.shed(move, accepted.tolist())], dtype=float)
    if isinstance(move, Take):
        return np.full(len(accepted), doubt * -unsure.get(move.id, 0.0))
    if isinstance(move, Give):
        return np.full(len(accepted), doubt * unsure.get(move.id, 0.0))
    return np.where(accepted, doubt * sum(unsure.get(card, 0.0) for card in move.ids), doubt * 0.0)


def _worth_asking(
    table: Sequence[Sequence[float]], weights: Sequence[float], types: Sequence[Mapping[int, int]]
) -> tuple[tuple[int, float], ...]:
    """For each card whose type differs between the valued assignments, what knowing it would gain:
    sum over its types t of max over moves of sum_(assignments with t) weight x value, minus the best
    expected value now (the expected value of perfect information about that one card, on the valued
    assignments). A second recognizer's answer is worth at most this; the card with the most is asked."""
    total = sum(weights)
    if total <= 0 or not table:
        return ()
    now = max(sum(w * v for w, v in zip(weights, row)) for row in table) / total
    gains = []
    for card in types[0]:
        by_type: dict[int, list[int]] = {}
        for state, assignment in enumerate(types):
            by_type.setdefault(assignment[card], []).append(state)
        if len(by_type) < 2:
            continue
        known = sum(max(sum(weights[s] * row[s] for s in members) for row in table) for members in by_type.values())
        gain = known / total - now
        if gain > 1e-9:
            gains.append((card, gain))
    return tuple(sorted(gains, key=lambda item: (-item[1], item[0])))


def _value_states(
    strategy: Any, states: Sequence[BeliefState], deadline: float | None, samples: int = 0
) -> tuple[list[tuple[int, Mapping[int, float], bool]], bool]:
    """(index, every legal move's value, exact) for the assignments the strategy's budget allows, and whether
    every one of those values is the game's exact one (a table's, a finished solve's), not a search's. A table
    values as many assignments as the belief draws (`samples`), so that asking for more draws is not undone."""
    searcher = getattr(strategy, "nodes", None) is not None or hasattr(strategy, "searcher")
    limit = SEARCH_STATES if searcher else max(TABLE_STATES, samples)
    chosen = list(range(min(limit, len(states))))
    nodes = getattr(strategy, "nodes", None)
    valued: list[tuple[int, Mapping[int, float], bool]] = []
    solved = True
    try:
        if nodes is not None:
            strategy.nodes = max(MIN_NODES, nodes // len(chosen))
        for rank, index in enumerate(chosen):
            share = None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 and valued:
                    break  # out of time: decide on the likeliest assignments valued so far
                share = time.monotonic() + max(0.0, left) / (len(chosen) - rank)
            result = strategy.analyse(states[index].state, share, all_values=True)
            # Exact here as suggestions mean it: every move's value searched or looked up, not bounded.
            exact = bool(getattr(strategy, "last_values_exact", result.exact))
            if result.move_values:  # a search stopped before its first iteration values no move: left out
                valued.append((index, dict(result.move_values), exact))
                solved = solved and bool(result.exact)
    finally:
        if nodes is not None:
            strategy.nodes = nodes
    return valued, solved


def _answers(move: Move, move_ids: Sequence[int] | np.ndarray, rules: CountRules) -> list[Any] | None:
    """What the referee would say to a Lay in each valued state: refused, or the kind of set its points show (the
    type counts sorted: which landmark it was is not said); None for a Take or a Give, which it answers alike."""
    if not isinstance(move, Lay):
        return None
    return [None if move_id == rules.waste_id else tuple(sorted(rules.moves[move_id].counts)) for move_id in move_ids]


def _likeliest_first(belief: Belief, cards: Sequence[int], t: int) -> list[int]:
    return sorted(cards, key=lambda card: -belief.probability(card, t))


class _LayCards:
    """The cards of a Lay with given type counts in one assignment: of each type, the cards the belief thinks
    likeliest of it (ties in hand order). Remembered by the types of our hand, which many assignments share."""

    def __init__(self, belief: Belief, my_ids: Sequence[int], n_types: int) -> None:
        self.my_ids = tuple(my_ids)
        # Our cards by how likely each is of a type, per type (a stable sort keeps hand order on ties).
        self.by_type = [_likeliest_first(belief, my_ids, t) for t in range(n_types)]
        self._known: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}

    def __call__(self, counts: Sequence[int], types: Mapping[int, int]) -> tuple[int, ...]:
        key = (tuple(counts), tuple(types[card] for card in self.my_ids))
        found = self._known.get(key)
        if found is None:
            chosen: list[int] = []
            for t, need in enumerate(counts):
                if need:
                    chosen.extend([card for card in self.by_type[t] if types[card] == t][:need])
            found = self._known[key] = tuple(sorted(chosen))
        return found


def _candidates(
    states: Sequence[BeliefState],
    valued: Sequence[tuple[int, Mapping[int, float], bool]],
    belief: Belief,
    rules: CountRules,
    my_ids: Sequence[int],
    opp_ids: Sequence[int],
    refused: set[frozenset[int]],
) -> list[Move]:
    found: dict[Any, Move] = {}
    for card in opp_ids:
        found[("take", card)] = Take(card)
    for card in my_ids:
        found[("give", card)] = Give(card)
    lay_cards = _LayCards(belief, my_ids, rules.n_types)
    for index, values, _exact in valued:
        for move_id in values:
            move = rules.moves[move_id]
            if move.kind == "lay":
                cards = lay_cards(move.counts, states[index].types)
                if frozenset(cards) not in refused:
                    found[("lay", cards)] = Lay(cards)
    for cards in _passes(belief, states[0].types, rules, my_ids, refused):
        found[("lay", cards)] = Lay(cards)
    return list(found.values())


def _passes(
    belief: Belief, types: Mapping[int, int], rules: CountRules, my_ids: Sequence[int], refused: set[frozenset[int]]
) -> Iterable[tuple[int, ...]]:
    """A deliberate wasted turn: the smallest Lay that is surest to be no set (two likely of one type, one of
    another), in the likeliest assignment. `refused` holds the Lays tried as sets and refused: never laid again,
    not even as a pass; a pass refused before (Tracker.refused leaves those out) may be laid again."""
    config = rules.config
    by_sureness = sorted(my_ids, key=lambda card: -belief.probability(card, types[card]))
    for combo in itertools.combinations(by_sureness, config.min_lay):
        counts = [0] * rules.n_types
        for card in combo:
            counts[types[card]] += 1
        if config.set_points(tuple(counts)) == 0 and frozenset(combo) not in refused:
            yield tuple(sorted(combo))
            return


def _vote(
    strategy: Strategy,
    states: Sequence[BeliefState],
    belief: Belief,
    rules: CountRules,
    my_ids: Sequence[int],
    refused: set[frozenset[int]],
    deadline: float | None,
    began: float,
) -> BeliefDecision:
    votes: dict[Move, float] = {}
    mine = set(my_ids)
    lay_cards = _LayCards(belief, my_ids, rules.n_types)
    for item in states:
        move_id = strategy.choose(item.state.copy(), deadline)
        count_move = rules.moves[move_id]
        move: Move
        if count_move.kind == "lay":
            move = Lay(lay_cards(count_move.counts, item.types))
            if frozenset(move.ids) in refused:
                continue
        else:
            my_cards = [(card, item.types[card]) for card in my_ids]
            opp_cards = [(card, t) for card, t in item.types.items() if card not in mine]
            trust = {card: belief.probability(card, t) for card, t in item.types.items()}
            move = card_move(rules, move_id, my_cards, opp_cards, trust)
            if isinstance(move, Lay) and frozenset(move.ids) in refused:
                continue
        votes[move] = votes.get(move, 0.0) + item.weight
    if not votes:  # every vote was a refused Lay: take the likeliest assignment's pass instead
        cards = next(iter(_passes(belief, states[0].types, rules, my_ids, refused)), None)
        fallback: Move = Lay(cards) if cards else Give(my_ids[0])
        votes[fallback] = 1.0
    # A Lay counts its votes times the chance that it is a set: a move the strategy wants in many assignments
    # but that the referee would likely refuse is worth less than its votes.
    scores = {
        move: votes[move] * (belief.set_chance(move.ids, rules) if isinstance(move, Lay) else 1.0) for move in votes
    }
    best = max(scores, key=lambda move: (scores[move], repr(move)))
    weight = sum(item.weight for item in states)
    return BeliefDecision(best, (), weight, len(states), False, time.monotonic() - began)
