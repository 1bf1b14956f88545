"""A recognizer's answer as play reads it (rummy.labels.checked_answers): anything a user's recognizer may
return either becomes a readable label, an unknown card with the reason, or one clear error."""

from __future__ import annotations

import math

import pytest

from recognizers.observation import RankedLabel
from rummy import Match, render_gamestate
from rummy.labels import CardLabel, RecognizerAnswerError, answers_within, checked_answers
from strategies.agent import ArenaAgent
from strategies.registry import get_strategy

CATALOG = ("big ben", "giralda", "koutoubia mosque", "fitz roy")
CARDS = [(1, "a.jpg"), (2, "b.jpg")]


class _Mine:
    name = "mine"


class _Nameless:
    pass


def test_good_labels_pass_unchanged_and_a_skipped_card_is_unknown():
    label = CardLabel("giralda", 0.8, "seen")
    found = checked_answers(_Mine(), {1: label}, CARDS, CATALOG)
    assert found[1] is label
    assert found[2].landmark is None and "no answer" in found[2].reason


def test_a_name_is_matched_to_the_catalog_ignoring_case_and_spacing_and_keeps_its_kind():
    ranked = RankedLabel("Big  Ben", 0.7, "seen", (("Big  Ben", 0.7), ("giralda", 0.2)))
    found = checked_answers(_Mine(), {1: ranked, 2: CardLabel(" FITZ roy ", 1.0)}, CARDS, CATALOG)
    assert isinstance(found[1], RankedLabel) and found[1].landmark == "big ben" and found[1].candidates
    assert found[2].landmark == "fitz roy"


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        (CardLabel("eiffel tower", 0.9), "'eiffel tower', which is not in AllCardTypes"),
        (CardLabel("giralda", math.nan), "confidence nan"),
        (CardLabel("giralda", math.inf), "confidence inf"),
        (CardLabel("giralda", "high"), "confidence 'high'"),  # type: ignore[arg-type]
        (CardLabel(7, 0.9), "named 7"),  # type: ignore[arg-type]
    ],
)
def test_a_label_no_strategy_can_read_becomes_an_unknown_card_that_says_why(label, reason):
    found = checked_answers(_Mine(), {1: label}, CARDS[:1], CATALOG)
    assert found[1].landmark is None and found[1].confidence == 0.0
    assert reason in found[1].reason


def test_a_confidence_outside_zero_to_one_is_an_unknown_card_that_says_why():
    labels = {1: CardLabel("giralda", 87.0), 2: CardLabel("fitz roy", -0.2)}
    found = checked_answers(_Mine(), labels, CARDS, CATALOG)
    assert found[1].landmark is None and "confidence 87.0 for 'giralda', not 0 to 1 (a percentage?" in found[1].reason
    assert found[2].landmark is None and "confidence -0.2 for 'fitz roy', not 0 to 1" in found[2].reason
    assert "percentage" not in found[2].reason


def test_a_confidence_past_a_bound_by_rounding_alone_is_mended_to_it():
    found = checked_answers(
        _Mine(), {1: CardLabel("giralda", 1 + 1e-12), 2: CardLabel("fitz roy", -1e-12)}, CARDS, CATALOG
    )
    assert (found[1].landmark, found[1].confidence) == ("giralda", 1.0)
    assert (found[2].landmark, found[2].confidence) == ("fitz roy", 0.0)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ([CardLabel("giralda", 0.9)], "recognizer mine returned list, not a dict of card id to CardLabel"),
        (None, "recognizer mine returned NoneType"),
        ({1: "giralda"}, "recognizer mine answered card 1 with str 'giralda', not a CardLabel"),
    ],
)
def test_an_answer_that_is_no_mapping_of_labels_raises_one_clear_error(answer, said):
    with pytest.raises(RecognizerAnswerError) as raised:
        checked_answers(_Mine(), answer, CARDS, CATALOG)
    assert said in str(raised.value) and "\n" not in str(raised.value)


class _OffCatalog:
    name = "off-catalog"

    def recognize(self, cards, catalog):
        return {card_id: CardLabel("not a landmark", 0.9) for card_id, _url in cards}


def test_an_agent_counts_off_catalog_names_as_unknown_cards_and_still_moves():
    match = Match(seed="checked:1")
    agent = ArenaAgent(get_strategy("greedy"), _OffCatalog())
    move = agent.calculate_move(render_gamestate(match, match.current.mover))
    assert len(move) == 1
    unknown, seen = agent.cards_unknown()
    assert seen == 20 and unknown == 20
    assert all("not in AllCardTypes" in label.reason for label in agent.last_labels.values())
    assert agent.unknown_reasons() == {"recognizer named 'not a landmark', which is not in AllCardTypes": 20}


def test_a_recognizer_without_a_name_is_named_by_its_type_and_its_good_answers_pass():
    assert checked_answers(_Nameless(), {1: CardLabel("giralda", 0.9)}, CARDS[:1], CATALOG)[1].landmark == "giralda"
    with pytest.raises(RecognizerAnswerError, match="recognizer _Nameless returned list"):
        checked_answers(_Nameless(), [], CARDS, CATALOG)


class _Raises:
    """Answers every other call, and raises on the others (a service's client, a user's file)."""

    name = "raises"

    def __init__(self, truth) -> None:
        self.truth = truth
        self.calls = 0

    def recognize(self, cards, catalog):
        self.calls += 1
        if self.calls % 2 == 0:
            raise RuntimeError("service exploded")
        return {card_id: CardLabel(self.truth()[url], 0.9) for card_id, url in cards}


def test_a_recognizer_that_raises_leaves_the_cards_unknown_with_what_it_raised():
    found = answers_within(_Raises(dict), CARDS, CATALOG, None)  # first call answers from an empty truth: KeyError
    assert all(label.landmark is None for label in found.values())
    assert all(label.reason.startswith("recognizer raises raised KeyError") for label in found.values())


class _Exits:
    name = "exits"

    def recognize(self, cards, catalog):
        raise SystemExit(5)  # sys.exit in a user's file: it ended the whole match, with its code and no word


def test_a_recognizer_that_exits_leaves_the_cards_unknown_and_play_goes_on():
    found = answers_within(_Exits(), CARDS, CATALOG, None)
    assert {label.reason for label in found.values()} == {"recognizer exits exited (SystemExit 5)"}
    assert all(label.landmark is None for label in found.values())


def test_a_card_named_once_stays_known_when_a_later_call_fails():
    match = Match(seed="raises:0")
    recognizer = _Raises(lambda: match.current.landmarks_by_url())
    agent = ArenaAgent(get_strategy("greedy"), recognizer)
    seat = match.current.mover
    agent.calculate_move(render_gamestate(match, seat))  # the first call answers every card
    agent.calculate_move(render_gamestate(match, seat))  # the second raises: the move is still played
    assert recognizer.calls == 2
    assert agent.cards_unknown() == (0, 20), "every card was named once, and stays known"
    assert all(landmark is not None for landmark in agent.tracker.labels.values())
