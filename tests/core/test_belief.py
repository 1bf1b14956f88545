"""The belief over the cards: checked against hand-worked cases and against brute force over whole deals."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from rummy import CardLabel, Lay, Match, RulesConfig, Tracker, render_gamestate
from rummy.belief import ASSUMED, TRUE_LABELS, Constraint, ErrorModel, SetKind, infer, resample

NAMES = ("A", "B", "C", "D")
# A recognizer wrong 1 time in 10 with no runner-up: a label gives its name 0.9 and each other type 0.1/3.
TENTH = ErrorModel(0.1, runner_up=0.0)
RIGHT, OTHER = 0.9, 0.1 / 3


def labelled(name: str, model: ErrorModel = TENTH):
    return model.evidence(CardLabel(name, 0.8), NAMES)


def test_a_refused_set_moves_the_probabilities_as_worked_by_hand():
    # Three cards labelled A, refused as a set: not all one type, and (three cards) not all different.
    # The deal weighs a pair and a single by 10*9 * 10 whatever the types, so it cancels. With a = 0.9 and
    # o = 0.1/3, the first card is A in the patterns AAx, AxA (x one of 3: weight a*a*o each) and Axx
    # (a*o*o each): 6a^2 o + 3a o^2. It is not A in xAA (3 a^2 o), xxA and xAx (6 a o^2) and the 18 patterns
    # with no A and one pair (18 o^3). P(A) = (6a^2 + 3ao) / (9a^2 + 9ao + 18o^2) = 4.95 / 7.58.
    belief = infer([1, 2, 3], {c: labelled("A") for c in (1, 2, 3)}, [Constraint((1, 2, 3), SetKind.NO_SET)], NAMES)
    assert belief.exact
    assert belief.probability(1, 0) == pytest.approx(4.95 / 7.58, abs=1e-12)
    # Before the refusal the same card was A with probability 0.9 (the three cards alone, deal weights aside).
    free = infer([1], {1: labelled("A")}, [], NAMES)
    assert free.probability(1, 0) == pytest.approx(0.9, abs=1e-12)


def test_a_stated_error_rate_holds_whatever_the_runner_up_names():
    # The assumed model (wrong 1 time in 10; when wrong, the runner-up is the truth half the time): a runner-up
    # of the round takes half the error, the other two share the rest. A runner-up outside the round cannot be
    # the truth: the whole error goes to the round's other three, and the top name is still right 9 in 10 (it
    # once took the runner-up's share away, leaving the top 0.9 / 0.95 sure).
    model = ErrorModel()
    in_round = model.evidence(_ranked("A", "B"), NAMES)
    assert in_round == pytest.approx((0.9, 0.05, 0.025, 0.025), abs=1e-12)
    outside = model.evidence(_ranked("A", "Z"), NAMES)
    assert outside == pytest.approx((0.9, 0.1 / 3, 0.1 / 3, 0.1 / 3), abs=1e-12)
    assert infer([1], {1: outside}, [], NAMES).probability(1, 0) == pytest.approx(0.9, abs=1e-12)
    # Calibrated, the same: the top keeps its score, a runner-up outside the round its share of nothing.
    calibrated = ErrorModel(calibrated=True).evidence(_ranked("A", "Z"), NAMES)
    assert calibrated == pytest.approx((0.7, 0.1, 0.1, 0.1), abs=1e-12)


def test_a_model_stated_without_words_is_described_by_what_it_states_never_as_the_assumed_one():
    assert ASSUMED.source.startswith("assumed:")
    stated = ErrorModel(0.2, runner_up=0.25)
    assert stated.source.startswith("stated:") and "20%" in stated.source and "25%" in stated.source
    assert ErrorModel(0.0).source == "stated: every label is right"
    assert ErrorModel(calibrated=True).source.startswith("stated: the confidence")
    assert TRUE_LABELS.source.startswith("true labels")
    assert ErrorModel(0.2, source="mine: 1 in 5").source == "mine: 1 in 5"
    # The round's model keeps the stated words though its rate is lowered by the errors it shows.
    assert stated.within_round(2, 30).source == stated.source


def test_a_measured_reliability_reads_each_confidence_by_its_bin():
    # Bins: up to 0.5 right 1 time in 10, up to 0.9 7 in 10, above 99 in 100; the truth second in 60% of errors.
    # At 0.7 with runner-up B: A 0.7, B 0.3 * 0.6 = 0.18, C and D share 0.12. At 0.95: 0.99, 0.006, 0.002 each.
    model = ErrorModel(0.2, runner_up=0.6, reliability=((0.5, 0.1), (0.9, 0.7), (1.0, 0.99)))
    assert model.evidence(_ranked("A", "B", 0.7), NAMES) == pytest.approx((0.7, 0.18, 0.06, 0.06), abs=1e-12)
    assert model.evidence(_ranked("A", "B", 0.95), NAMES) == pytest.approx((0.99, 0.006, 0.002, 0.002), abs=1e-12)
    assert model.evidence(_ranked("A", "B", 0.5), NAMES)[0] == pytest.approx(0.1, abs=1e-12)  # an edge is its bin's
    # The bins were measured on answers naming the round's landmarks: errors shown outside it change nothing.
    assert model.within_round(5, 30) is model
    assert not model.certain and model.source.startswith("measured:")
    with pytest.raises(ValueError, match="rising upper edges"):
        ErrorModel(reliability=((0.5, 0.1), (0.9, 0.7)))


def test_errors_seen_outside_the_round_leave_fewer_inside_it():
    # Stated: wrong 1 time in 10. Two answers of 30 named no landmark of the round: counted over 10 more
    # answers, 2/40 of the answers were errors that show, so one naming a landmark of the round is wrong 5 in 100.
    model = ErrorModel()
    assert model.within_round(2, 30).error_rate == pytest.approx(0.05, abs=1e-12)
    assert model.within_round(20, 30).error_rate == pytest.approx(0.01, abs=1e-12)  # never below a tenth
    assert model.within_round(0, 30) is model
    calibrated = ErrorModel(calibrated=True)
    assert calibrated.within_round(5, 30) is calibrated  # a calibrated score is read as it is
    # The tracker counts the round's answers: two of the 20 cards in view named outside the round.
    match = Match(seed="outside:1")
    view = render_gamestate(match, 0)
    truth = {card.id: card.kind for hand in match.current.hands for card in hand}
    outside = next(name for name in view["AllCardTypes"] if name not in set(truth.values()))
    labels: dict[int, str] = dict(truth)
    for card in sorted(labels)[:2]:
        labels[card] = outside
    tracker = Tracker(error_model=model)
    tracker.observe(view, labels)
    names = tracker.types_in_use()
    assert outside not in names
    assert tracker._round_model(names).error_rate == pytest.approx(0.1 - 2 / 30, abs=1e-12)


def test_a_25_point_lay_ties_its_cards_to_different_landmarks():
    # Labels A, A, B laid for 25 points: three different landmarks, so at most one of the A cards is A.
    # (Three different types weigh 10*10*10 in the deal whichever they are: the deal cancels.)
    # Card 1 is A (a): card 2 is B, C or D (o each) and card 3 another type than A and card 2 (B: a, else o):
    #   card 2 = B: card 3 in {C, D}: 2o;  card 2 = C or D: card 3 in {B, the other}: a + o each;
    #   so a * o * (2o + 2(a + o)) = a o (2a + 4o). The normaliser sums every ordered triple of types.
    evidence = {1: labelled("A"), 2: labelled("A"), 3: labelled("B")}
    belief = infer([1, 2, 3], evidence, [Constraint((1, 2, 3), SetKind.DIFFERENT)], NAMES)
    assert belief.exact
    weights = {}
    for types in itertools.permutations(range(4), 3):
        weights[types] = math.prod(evidence[card][t] for card, t in zip((1, 2, 3), types))
    total = sum(weights.values())
    first_is_a = sum(w for types, w in weights.items() if types[0] == 0) / total
    assert first_is_a == pytest.approx(RIGHT * OTHER * (2 * RIGHT + 4 * OTHER) / total, abs=1e-12)
    assert belief.probability(1, 0) == pytest.approx(first_is_a, abs=1e-12)
    # Cards 1 and 2 are never both A, and their beliefs are the same.
    assert all(not (a.types[1] == 0 and a.types[2] == 0) for a in belief.assignments)
    assert belief.marginals[1] == pytest.approx(belief.marginals[2])


def test_an_unseen_50_point_lay_is_the_landmark_the_deal_leaves_room_for():
    # Seen for sure: 7 A, 5 B, 5 C, 3 D. Five cards we never saw scored 50: all one landmark. Five specific
    # cards all of type t weigh (10 - seen_t)(9 - seen_t)...: A 3*2*1*0 = 0, B and C 5! = 120, D 7*6*5*4*3 = 2520.
    seen = {card: NAMES[t] for card, t in zip(range(20), [0] * 7 + [1] * 5 + [2] * 5 + [3] * 3)}
    evidence = {card: TRUE_LABELS.evidence(CardLabel(name, 1.0), NAMES) for card, name in seen.items()}
    unseen = (-1, -2, -3, -4, -5)
    belief = infer([*seen, *unseen], evidence, [Constraint(unseen, SetKind.SAME)], NAMES)
    assert belief.exact and len(belief.assignments) == 3
    assert belief.probability(-1, 3) == pytest.approx(2520 / 2760, abs=1e-12)
    assert belief.probability(-1, 1) == pytest.approx(120 / 2760, abs=1e-12)
    assert belief.probability(-1, 0) == 0.0
    decks = {a.deck: a.weight for a in belief.assignments}
    assert decks[(3, 5, 5, 2)] == pytest.approx(2520 / 2760)


# --- brute force over whole deals on miniature rules -------------------------------------------------

MINI = RulesConfig(types_per_round=3, cards_per_type=4, hand_size=3)
MINI_NAMES = NAMES[:3]


def deal_posterior(visible, evidence, constraints, rules):
    """P(type of each visible card) by enumerating every deal of the round's cards (brute force).

    The round's cards are 0..n-1; the visible ones (and laid ones) are a subset. A deal is an assignment of
    types to all cards with exactly cards_per_type of each: every such deal is equally likely.
    """
    total_cards = rules.total_cards
    marg = {card: [0.0] * rules.types_per_round for card in visible}
    z = 0.0
    for deal in _deals(total_cards, rules.types_per_round, rules.cards_per_type):
        types = deal
        ok = True
        for cards, kind in constraints:
            ts = [types[c] for c in cards]
            if kind == "same" and len(set(ts)) != 1:
                ok = False
            if kind == "different" and len(set(ts)) != len(ts):
                ok = False
            if kind == "none" and rules.set_points(tuple(ts.count(t) for t in range(rules.types_per_round))):
                ok = False
        if not ok:
            continue
        weight = math.prod(evidence[card][types[card]] for card in visible if evidence.get(card) is not None)
        z += weight
        for card in visible:
            marg[card][types[card]] += weight
    return {card: [w / z for w in row] for card, row in marg.items()}


def _deals(cards, n_types, per_type):
    """Every assignment of types to cards 0..cards-1 with per_type cards of each type."""

    def place(free, t):
        if t == n_types:
            yield {}
            return
        for chosen in itertools.combinations(free, per_type):
            rest = [c for c in free if c not in chosen]
            for tail in place(rest, t + 1):
                yield {**{c: t for c in chosen}, **tail}

    yield from place(list(range(cards)), 0)


@pytest.mark.parametrize("seed", range(6))
def test_the_belief_equals_brute_force_over_deals_on_miniature_rules(seed):
    rng = random.Random(seed)
    model = ErrorModel(rng.choice([0.1, 0.25]), runner_up=rng.choice([0.0, 0.6]))
    visible = rng.sample(range(MINI.total_cards), 7)
    evidence = {}
    for card in visible:
        if rng.random() < 0.15:
            evidence[card] = None  # the recognizer said nothing
        else:
            label = rng.choice(MINI_NAMES)
            second = rng.choice([name for name in MINI_NAMES if name != label])
            evidence[card] = model.evidence(_ranked(label, second), MINI_NAMES)
    constraints = [(tuple(visible[:3]), "none"), (tuple(visible[3:6]), rng.choice(["same", "different"]))]
    kinds = {"none": SetKind.NO_SET, "same": SetKind.SAME, "different": SetKind.DIFFERENT}
    belief = infer(visible, evidence, [Constraint(cards, kinds[kind]) for cards, kind in constraints], MINI_NAMES, MINI)
    expected = deal_posterior(visible, {c: e for c, e in evidence.items() if e is not None}, constraints, MINI)
    assert belief.exact
    for card in visible:
        assert belief.marginals[card] == pytest.approx(expected[card], abs=1e-9)
    # The sampler (forced by exact_cap=0) draws from the same posterior.
    sampled = infer(
        visible,
        evidence,
        [Constraint(cards, kinds[kind]) for cards, kind in constraints],
        MINI_NAMES,
        MINI,
        samples=4000,
        seed=seed,
        exact_cap=0,
    )
    assert not sampled.exact and sampled.draws == 4000
    for card in visible:
        assert sampled.marginals[card] == pytest.approx(expected[card], abs=0.04)


@pytest.mark.parametrize("seed", range(4))
def test_draws_weighed_by_new_evidence_and_resampled_match_the_exact_belief_with_it(seed):
    """What the opponent's reading does (weigh the draws, resample to fewer), checked against brute force over
    deals with that evidence given to the belief itself: a second, independent label for one card."""
    rng = random.Random(100 + seed)
    model = ErrorModel(0.25, runner_up=0.0)
    visible = rng.sample(range(MINI.total_cards), 7)
    evidence = {card: model.evidence(_ranked(*rng.sample(MINI_NAMES, 2)), MINI_NAMES) for card in visible}
    constraints = [(tuple(visible[:3]), "none")]
    asked, told = visible[4], model.evidence(_ranked(*rng.sample(MINI_NAMES, 2)), MINI_NAMES)
    both = {**evidence, asked: tuple(a * b for a, b in zip(evidence[asked], told))}
    expected = deal_posterior(visible, both, constraints, MINI)
    drawn = infer(
        visible,
        evidence,
        [Constraint(visible[:3], SetKind.NO_SET)],
        MINI_NAMES,
        MINI,
        samples=8000,
        seed=seed,
        exact_cap=0,
    )
    weighed = [(a.types, a.weight * told[a.types[asked]]) for a in drawn.assignments]
    kept = resample(weighed, 4000)
    assert sum(weight for _types, weight in kept) == pytest.approx(1.0)
    assert len(kept) <= len(weighed)  # duplicates merged
    for card in visible:
        got = [sum(w for types, w in kept if types[card] == t) for t in range(len(MINI_NAMES))]
        assert got == pytest.approx(expected[card], abs=0.05)


def test_resampling_keeps_each_draw_in_proportion_to_its_weight_and_never_a_weightless_one():
    kept = dict(resample([("a", 5.0), ("b", 0.0), ("c", 3.0), ("d", 2.0)], 10))
    assert kept == {"a": 0.5, "c": 0.3, "d": 0.2}
    with pytest.raises(ValueError, match="some weight"):
        resample([("a", 0.0)], 4)


def _ranked(label, second, score=0.7):
    from recognizers.observation import RankedLabel

    return RankedLabel(label, score, "", ((label, score), (second, 0.2)))


def test_the_tracker_reads_an_opponents_first_lay_and_weighs_it_as_the_deals_do():
    """The second mover never saw the first mover's opening Lay: its tracker's deck make-ups, with their
    probabilities, equal those of every deal consistent with what it saw (brute force on miniature rules)."""
    found = 0
    for seed in range(100):
        match = Match(seed=f"mini:{seed}", rules=MINI)
        first = match.current.mover
        hand = match.current.hands[first]
        kinds = Counter(card.kind for card in hand)
        if max(kinds.values()) < 3 and len(kinds) < 3:
            continue
        outcome = match.apply(first, Lay(tuple(card.id for card in hand)))  # 3 cards: one kind, or 3 different
        assert outcome.points in (20, 25)
        viewer = 1 - first
        view = render_gamestate(match, viewer)
        truth = {card.id: card.kind for hand_ in match.current.hands for card in hand_}
        tracker = Tracker(MINI)
        tracker.observe(view, truth)
        names = tracker.types_in_use()
        got = Counter()
        for item in tracker.belief_states():
            got[item.state.deck_counts()] += item.weight
        # Brute force: the unseen pool is the deck plus the 3 laid cards; every split of the pool's cards
        # that puts a set of the laid kind (one landmark for 20 points, three for 25) in the laid set counts.
        seen = Counter(truth.values())
        pool = [name for name in names for _ in range(MINI.cards_per_type - seen.get(name, 0))]
        want = Counter()
        for laid in itertools.combinations(range(len(pool)), 3):
            laid_kinds = [pool[i] for i in laid]
            if len(set(laid_kinds)) == (1 if outcome.points == 20 else 3):
                deck = Counter(pool)
                deck.subtract(laid_kinds)
                want[tuple(deck[name] for name in names)] += 1
        total = sum(want.values())
        assert set(got) == set(want)
        for deck, count in want.items():
            assert got[deck] == pytest.approx(count / total, abs=1e-12)
        found += 1
    assert found >= 20


@pytest.mark.parametrize(
    "answer",
    [(1.0, float("nan"), 0.0), (1.0, 0.5), (1.0, -0.1, 0.0), ("high", 0.0, 0.0), (1.0, float("inf"), 0.0), 3],
)
def test_a_stated_likelihood_that_is_no_likelihood_is_refused_with_what_it_said(answer) -> None:
    # A user's file may state its own likelihood: a NaN, a wrong length or a negative used to bend the belief
    # silently (read as evidence that contradicts the deal).
    model = ErrorModel(0.1, likelihood=lambda _label, _names: answer, source="my file")
    with pytest.raises(ValueError, match=r"likelihood \(my file\) answered .* one number >= 0 for each of the 3 names"):
        model.evidence(CardLabel("a", 0.9), ["a", "b", "c"])


def test_a_stated_likelihood_is_read_as_it_is_said() -> None:
    said = {"right": (0.8, 0.1, 0.1), "nothing": None, "zeros": (0, 0, 0), "ints": (2, 1, 0)}
    for case, answer in said.items():
        model = ErrorModel(0.1, likelihood=lambda _label, _names, answer=answer: answer)
        found = model.evidence(CardLabel("a", 0.9), ["a", "b", "c"])
        expected = {"right": (0.8, 0.1, 0.1), "nothing": None, "zeros": None, "ints": (2.0, 1.0, 0.0)}[case]
        assert found == expected, case
