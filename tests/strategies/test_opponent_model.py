"""The opponent's moves as evidence: a hand-worked case, and the cases where the belief must not move."""

from __future__ import annotations

import math
import random
import time
from collections import Counter

import pytest

from rummy import Give, Match, Take, Tracker, render_gamestate
from rummy.belief import ErrorModel
from rummy.countstate import CountState, count_rules, pack
from rummy.labels import CardLabel
from strategies.baselines import GreedyStrategy
from strategies.opponent_model import BETA, EPSILON, PRIORS, TEMPER, OpponentModel
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


def _doubting(match: Match, x: int, a: str, b: str):
    """A tracker whose error model doubts X (0.3 A, 0.7 B) and is sure of every other label, and the labels."""

    def likelihood(label, names):
        if label.reason == "doubt":
            return tuple(0.3 if name == a else 0.7 if name == b else 0.0 for name in names)
        return tuple(1.0 if name == label.landmark else 0.0 for name in names)

    def labels():
        found = {card: CardLabel(kind, 1.0) for card, kind in kinds_of(match).items()}
        found[x] = CardLabel(b, 0.9, "doubt")
        return found

    return Tracker(error_model=ErrorModel(0.1, likelihood=likelihood)), labels


@pytest.mark.parametrize(("temper", "beta"), [(None, None), (0.3, None), (None, 80.0)])
def test_an_opponents_take_moves_the_belief_as_computed_by_hand(temper, beta):
    match, x, a, b, give = _scenario()

    tracker, labels = _doubting(match, x, a, b)
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
        # A hand of 10 or more cards over 4 landmarks holds a set, which greedy lays: its Take is a slip.
        assert any(rules.moves[move].kind == "lay" for move in state.legal_moves())
        took = rules.take_ids[names.index(x_type)]
        good = rules.take_ids[t_a]
        share = (
            1.0 / (1.0 + (n - 1) * math.exp(-(beta or BETA["win"])))
            if took == good
            else (math.exp(-(beta or BETA["win"])) / (1.0 + (n - 1) * math.exp(-(beta or BETA["win"]))))
        )
        rational = EPSILON / n + (1 - EPSILON) * share
        return PRIORS.rational * rational + PRIORS.greedy * EPSILON / n + PRIORS.any / n

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


def test_an_unanswered_card_is_read_even_when_the_error_model_is_stated_certain():
    """A recognizer that never names a wrong landmark but leaves some cards unanswered (`silent`) states its errors
    as none: the cards it named are sure, the one it did not answer is not, and the opponent's Take of that card says
    what it was. Reading was once skipped whenever the error model was certain, and `silent` was read blind to it."""
    match, x, a, _b, give = _scenario()

    def labels():
        found = {card: CardLabel(kind, 1.0) for card, kind in kinds_of(match).items()}
        found[x] = CardLabel(None, 0.0, "no landmark found")
        return found

    tracker = Tracker(error_model=ErrorModel(0.0))
    tracker.observe(render_gamestate(match, 0), labels())
    tracker.played(Give(give))
    match.apply(0, Give(give))
    match.apply(1, Take(x))
    tracker.observe(render_gamestate(match, 0), labels())
    t_a = tracker.belief().names.index(a)
    before = tracker.belief().probability(x, t_a)
    assert 0.0 < before < 1.0
    assert OpponentModel(WantsType(t_a)).reweigh(tracker)
    assert tracker.belief().probability(x, t_a) > before


def _opponent_to_move(theirs: list[int], mine: list[int]) -> CountState:
    rules = count_rules()
    deck = [10 - a - b for a, b in zip(theirs, mine)]
    return CountState(rules, (pack(mine), pack(theirs)), pack(deck), points=(0, 0), turns_left=15, mover=1, second=1)


def test_a_greedy_opponents_move_is_read_against_every_move_greedy_holds_as_good():
    # It holds 5, 2, 2, 1 of the four landmarks: greedy lays the five of a kind (50 points), its only best move.
    state = _opponent_to_move([5, 2, 2, 1], [3, 3, 2, 2])
    rules = state.rules
    n = len(state.legal_moves())
    model = OpponentModel(WantsType(0))
    five = next(m for m in state.legal_moves() if rules.moves[m].points == 50)
    different = next(m for m in state.legal_moves() if rules.moves[m].points == 25)
    assert model._likelihood(state, five)[1] == pytest.approx(EPSILON / n + 1 - EPSILON)
    assert model._likelihood(state, different)[1] == pytest.approx(EPSILON / n)
    # 4, 4, 0, 0: two fours of a kind (30 points) and no set of more, equally good to greedy whichever way our
    # view numbers the landmarks.
    state = _opponent_to_move([4, 4, 0, 0], [3, 3, 2, 2])
    n = len(state.legal_moves())
    thirty = [m for m in state.legal_moves() if rules.moves[m].points == 30]
    assert len(thirty) == 2
    assert not any(rules.moves[m].points > 30 for m in state.legal_moves())
    for move in thirty:
        assert model._likelihood(state, move)[1] == pytest.approx(EPSILON / n + (1 - EPSILON) / 2)
    assert model._likelihood(state, state.legal_moves()[-1])[2] == pytest.approx(1 / n)


def test_greedy_plays_the_first_of_the_moves_it_holds_best():
    # The same choice greedy made before it listed its ties: the lowest-numbered best move.
    rng = random.Random(5)
    greedy = GreedyStrategy()
    for _ in range(300):
        theirs = [rng.randint(0, 5) for _ in range(4)]
        mine = [rng.randint(0, 5) for _ in range(4)]
        state = _opponent_to_move(theirs, mine)
        rules, legal = state.rules, state.legal_moves()
        lays = [m for m in legal if rules.moves[m].kind == "lay"]
        takes = [m for m in legal if rules.moves[m].kind == "take"]
        gives = [m for m in legal if rules.moves[m].kind == "give"]
        if lays:
            expected = max(lays, key=lambda m: (rules.moves[m].points, -m))
        elif takes:
            expected = max(takes, key=lambda m: (theirs[rules.moves[m].type], -m))
        else:
            expected = min(gives, key=lambda m: (theirs[rules.moves[m].type], m))
        assert greedy.choose(state) == expected
        assert expected in greedy.preferred(state)


class KeepsDeadlines(WantsType):
    """WantsType that records the deadline each valuation of the opponent's position was given."""

    def __init__(self, wanted: int) -> None:
        super().__init__(wanted)
        self.deadlines: list[float | None] = []

    def analyse(self, state: CountState, deadline=None, *, all_values: bool = False) -> SearchResult:
        self.deadlines.append(deadline)
        return super().analyse(state, deadline, all_values=all_values)


def test_each_opponent_position_is_valued_within_the_moves_deadline():
    """A position the table does not hold is solved on demand; with no deadline that once took minutes in one
    move (deal noise:404 through harsh:0.2 read with a measured model). The move's deadline reaches every one."""
    match, x, a, b, give = _scenario()

    tracker, labels = _doubting(match, x, a, b)
    tracker.observe(render_gamestate(match, 0), labels())
    tracker.played(Give(give))
    match.apply(0, Give(give))
    match.apply(1, Take(x))
    tracker.observe(render_gamestate(match, 0), labels())
    strategy = KeepsDeadlines(tracker.belief().names.index(a))
    deadline = time.monotonic() + 3600.0
    assert OpponentModel(strategy).reweigh(tracker, deadline)
    assert strategy.deadlines and all(given == deadline for given in strategy.deadlines)
