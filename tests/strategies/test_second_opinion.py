"""Asking a second recognizer where it pays: its answer is independent evidence in the belief, the card
asked is the one the decision hangs on most, and the asks stay within the round's budget."""

from __future__ import annotations

import zlib

import pytest

from recognizers.registry import get_recognizer
from recognizers.second_opinion import SecondOpinion
from rummy import CardLabel, Match, Tracker, render_gamestate
from rummy.belief import ErrorModel, infer
from strategies.agent import ASKS_PER_MOVE, ArenaAgent
from strategies.belief_play import _worth_asking
from strategies.registry import get_strategy

NAMES = ("A", "B", "C", "D")
TENTH = ErrorModel(0.1, runner_up=0.0)  # a label gives its name 0.9 and each other type 0.1/3


def test_two_disagreeing_answers_leave_the_card_between_them_as_worked_by_hand():
    # First says A, second says B, each wrong 1 time in 10: A and B get 0.9 x 0.1/3 each, C and D
    # (0.1/3)^2 each, so P(A) = 0.03 / (2 x 0.03 + 2 x 0.001/0.9) = 0.4821...
    first, second = TENTH.evidence(CardLabel("A", 0.8), NAMES), TENTH.evidence(CardLabel("B", 0.8), NAMES)
    assert first is not None and second is not None
    both = tuple(a * b for a, b in zip(first, second))
    belief = infer([1], {1: both}, [], NAMES)
    o = 0.1 / 3
    assert belief.probability(1, 0) == pytest.approx(0.9 * o / (2 * 0.9 * o + 2 * o * o), abs=1e-12)


def test_the_tracker_multiplies_a_second_opinion_into_the_cards_evidence():
    match = Match(seed="second-opinion")
    view = render_gamestate(match, match.current.mover)
    truth = {card.id: card.kind for hand in match.current.hands for card in hand}
    tracker = Tracker(error_model=TENTH)
    tracker.observe(view, {card: CardLabel(kind, 0.8) for card, kind in truth.items()})
    names = tracker.types_in_use()
    card = next(iter(truth))
    wrong = next(name for name in names if name != truth[card])
    before = tracker.belief().probability(card, names.index(truth[card]))
    tracker.add_opinion(card, CardLabel(wrong, 0.8), TENTH)
    evidence = {c: TENTH.evidence(CardLabel(kind, 0.8), names) for c, kind in truth.items()}
    mine, other = evidence[card], TENTH.evidence(CardLabel(wrong, 0.8), names)
    assert mine is not None and other is not None
    evidence[card] = tuple(a * b for a, b in zip(mine, other))
    # Sampled (20 uncertain cards): the same samples as the tracker's, which are seeded by what is in view.
    seed = zlib.crc32(repr((sorted(truth), view["RemainingMoves"])).encode())
    in_view = [card[0] for card in view["MyHand"] + view["OppHand"]]
    want = infer(in_view, evidence, [], names, samples=tracker.samples, seed=seed)
    after = tracker.belief()
    for t in range(4):
        assert after.probability(card, t) == pytest.approx(want.probability(card, t), abs=1e-9)
    assert after.probability(card, names.index(truth[card])) < before
    with pytest.raises(ValueError, match="not in view"):
        tracker.add_opinion(10_000, CardLabel(wrong, 0.8), TENTH)


def test_the_card_worth_asking_is_the_one_the_best_move_depends_on():
    # Two assignments, even odds; card 7 differs between them and decides which move is best, card 8
    # differs too but both moves are worth the same either way, card 9 is the same in both.
    table = [[1.0, 0.0], [0.0, 1.0]]  # two moves' values in the two assignments
    types = [{7: 0, 8: 1, 9: 2}, {7: 1, 8: 2, 9: 2}]
    gains = dict(_worth_asking(table, [0.5, 0.5], types))
    assert gains[7] == pytest.approx(0.5)
    assert 9 not in gains
    flat = dict(_worth_asking([[0.5, 0.5], [0.2, 0.2]], [0.5, 0.5], types))
    assert flat == {}  # knowing changes no decision: nothing is worth a call


def test_asks_stay_within_the_rounds_budget_and_a_picture_is_asked_once():
    opinion = get_recognizer("harsh:0.1+oracle", source={"/cards/x.jpg": "A", "/cards/y.jpg": "B"}, asks_per_round=1)
    assert isinstance(opinion, SecondOpinion)
    first = opinion.ask((1, "/cards/x.jpg"), NAMES, round_key=1)
    assert first is not None and first.landmark == "A"
    assert opinion.ask((2, "/cards/y.jpg"), NAMES, round_key=1) is None  # the round's one ask is spent
    assert opinion.ask((1, "/cards/x.jpg"), NAMES, round_key=2) is None  # asked before: no new evidence
    assert opinion.ask((2, "/cards/y.jpg"), NAMES, round_key=2) is not None
    assert opinion.calls == 2
    with pytest.raises(ValueError, match="both sides"):
        get_recognizer("harsh:0.1+")


def test_the_second_recognizer_errs_independently_of_the_first():
    opinion = get_recognizer("harsh:0.5+harsh:0.5", noise_seed=3, source={})
    assert isinstance(opinion, SecondOpinion)
    assert opinion.first.seed != opinion.second.seed  # type: ignore[attr-defined]


def test_a_player_asks_a_true_second_opinion_and_then_knows_that_card():
    # The second recognizer is the truth: a card it was asked about is certain in the belief afterwards.
    match = Match(seed="second-opinion:1")
    labels = match.current.landmarks_by_url()
    opinion = get_recognizer("harsh:0.3+oracle", source=labels, noise_seed=1)
    agent = ArenaAgent(get_strategy("expectimax", nodes=2000), opinion)
    me = match.current.mover
    view = render_gamestate(match, me)
    move = agent.calculate_move(view)
    assert 0 < agent.asked <= ASKS_PER_MOVE
    assert agent.last_suggestions[0]["Asked"] == agent.asked
    asked = list(agent.tracker.opinions)
    belief = agent.tracker.belief()
    truth = {card.id: card.kind for hand in match.current.hands for card in hand}
    names = agent.tracker.types_in_use()
    for card in asked:
        assert belief.probability(card, names.index(truth[card])) == pytest.approx(1.0)
    assert set(move) <= {"Lay", "Take", "Give"}


class _Down:
    """A second service that is down (or a user's file that raises, or exits)."""

    name = "down"

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def recognize(self, cards, catalog):
        raise self.error


@pytest.mark.parametrize("error", [RuntimeError("503 \x1b[2J from the service"), SystemExit(2)])
def test_a_second_recognizer_that_raises_gives_no_opinion_and_says_so_once(error, caplog) -> None:
    first = get_recognizer("harsh:0.1", source=dict)
    asking = SecondOpinion(first, _Down(error), asks_per_round=4)
    names = ["a", "b", "c", "d"]
    with caplog.at_level("WARNING", logger="recognizers"):
        answers = [asking.ask((card, f"/cards/{card}.jpg"), names, "round 1") for card in range(3)]
    assert answers == [None, None, None] and asking.failures == 3 and asking.calls == 3
    warned = [record.getMessage() for record in caplog.records if record.name == "recognizers"]
    assert len(warned) == 1 and warned[0].startswith("second recognizer down raised ")
    assert type(error).__name__ in warned[0] and "\x1b" not in warned[0]  # its escapes shown, not sent
