"""The opponent's moves as evidence: a hand-worked case, and the cases where the belief must not move."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from rummy import Give, Match, Take, Tracker, render_gamestate
from rummy.belief import ErrorModel
from rummy.countstate import CountState, count_rules, pack
from rummy.labels import CardLabel
from strategies.opponent_model import BETA, EPSILON, PRIOR_RATIONAL, TEMPER, OpponentModel
from strategies.search.expectimax import SearchResult


def kinds_of(match: Match) -> dict[int, str]:
    return {card.id: card.kind for hand in match.current.hands for card in hand}


class WantsType:
    """A stand-in strategy whose only good move, for whoever moves, is taking a card of one type."""

    objective = "win"

    def __init__(self, wanted: int, temper: float | None = None, beta: float | None = None) -> None:
        self.wanted = wanted
        self.temper, self.beta = temper, beta  # as `perfect:temper=...,beta=...` set them
        self.rules = count_rules()

    def analyse(self, state: CountState, deadline=None, *, all_values: bool = False) -> SearchResult:
        good = self.rules.take_ids[self.wanted]
        values = {move: (1.0 if move == good else 0.0) for move in state.legal_moves()}
        best = max(values, key=lambda move: values[move])
        return SearchResult(best, values[best], 0, True, values)


def _scenario():
    """Player 0 gives a card away; player 1 takes card X from player 0's hand. X is of landmark A but
    labelled B, with a doubt the error model states (0.3 A, 0.7 B); every other label is true and sure."""
    for seed in range(200):
        match = Match(seed=seed)
        round_ = match.current
        if round_.mover != 0:
            continue
        mine = Counter(card.kind for card in round_.hands[0])
        a = next((kind for kind, count in mine.items() if count >= 3), None)
        if a is None:
            continue
        x = next(card.id for card in round_.hands[0] if card.kind == a)
        b = next(kind for kind in round_.deal.kinds if kind != a)
        give = next(card.id for card in round_.hands[0] if card.kind != a)
        return match, x, a, b, give
    raise AssertionError("no deal fits the scenario")


@pytest.mark.parametrize(("temper", "beta"), [(None, None), (0.3, None), (None, 80.0)])
def test_an_opponents_take_moves_the_belief_as_computed_by_hand(temper, beta):
    match, x, a, b, give = _scenario()

    def likelihood(label, names):
        if label.reason == "doubt":
            return tuple(0.3 if name == a else 0.7 if name == b else 0.0 for name in names)
        return tuple(1.0 if name == label.landmark else 0.0 for name in names)

    def labels():
        found = {card: CardLabel(kind, 1.0) for card, kind in kinds_of(match).items()}
        found[x] = CardLabel(b, 0.9, "doubt")
        return found

    tracker = Tracker(error_model=ErrorModel(0.1, likelihood=likelihood))
    tracker.observe(render_gamestate(match, 0), labels())
    tracker.played(Give(give))
    match.apply(0, Give(give))
    # The opponent's position when it moved, by the engine, for the hand computation below.
    hands = [list(hand) for hand in match.current.hands]
    deck = list(match.current.deck)
    points, turns = tuple(match.current.points), match.current.turns_left
    match.apply(1, Take(x))
    tracker.observe(render_gamestate(match, 0), labels())
    assert len(tracker.opponent_moves) == 1

    names = tracker.belief().names
    t_a = names.index(a)
    before = tracker.belief().probability(x, t_a)
    assert 0.0 < before < 1.0
    assert OpponentModel(WantsType(t_a, temper, beta)).reweigh(tracker)
    after = tracker.belief().probability(x, t_a)

    def evidence(x_type: str) -> float:
        rules = count_rules()
        mine = Counter(x_type if card.id == x else card.kind for card in hands[0])
        theirs = Counter(x_type if card.id == x else card.kind for card in hands[1])
        # The deck is what the engine holds, with X's true landmark swapped for x_type if they differ.
        left = Counter(card.kind for card in deck)
        left[a] += x_type != a
        left[x_type] -= x_type != a
        state = CountState(
            rules,
            (pack([mine[n] for n in names]), pack([theirs[n] for n in names])),
            pack([left[n] for n in names]),
            points=points,
            turns_left=turns,
            mover=1,
            second=1,
        )
        n = len(state.legal_moves())
        took = rules.take_ids[names.index(x_type)]
        good = rules.take_ids[t_a]
        share = (
            1.0 / (1.0 + (n - 1) * math.exp(-(beta or BETA["win"])))
            if took == good
            else (math.exp(-(beta or BETA["win"])) / (1.0 + (n - 1) * math.exp(-(beta or BETA["win"]))))
        )
        return PRIOR_RATIONAL * (EPSILON / n + (1 - EPSILON) * share) + (1 - PRIOR_RATIONAL) / n

    odds = before / (1 - before) * (evidence(a) / evidence(b)) ** (temper or TEMPER)
    assert after == pytest.approx(odds / (1 + odds), rel=1e-6)
    assert after > before


def test_true_labels_are_never_reweighed():
    match, x, a, _b, give = _scenario()
    tracker = Tracker()
    tracker.observe(render_gamestate(match, 0), kinds_of(match))
    tracker.played(Give(give))
    match.apply(0, Give(give))
    match.apply(1, Take(x))
    tracker.observe(render_gamestate(match, 0), kinds_of(match))
    assert not OpponentModel(WantsType(0)).reweigh(tracker)
