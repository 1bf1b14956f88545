"""A decision whose deck make-up is open (a set laid before the mover's first view) is graded as the
expectation over the make-ups. A make-up with no card left of a landmark drops that landmark from the
position's types, so its move ids name other moves: the expectation must add up the same card move in each,
never the same id (found by `measure review-loss perfect greedy --rounds 60 --seed 7`, which crashed)."""

from __future__ import annotations

from typing import Any

import pytest

from rummy import MoveKind
from strategies.agent import describe_count_move
from strategies.coaching.game_review import RecordedDecision, expected_grade
from strategies.coaching.grading import Grade, ValueSource
from strategies.position import Position, parse_position
from strategies.search import Objective

ALAMO, FITZ, HAYSTACK, SYDNEY = "alamo mission in san antonio", "fitz roy", "haystack rock", "sydney opera house"
MINE = {1: HAYSTACK, 2: HAYSTACK, 3: SYDNEY}
THEIRS = {4: ALAMO, 5: HAYSTACK, 6: HAYSTACK, 7: HAYSTACK}
# What each move is worth, by what it does in words, whatever the make-up: the fake grader's whole knowledge.
WORTH = {f"Take {ALAMO}": 0.7, f"Take {HAYSTACK}": 0.4, f"Give {HAYSTACK}": 0.2, f"Give {SYDNEY}": 0.1}


def position(deck: dict[str, int]) -> Position:
    hand = [[card_id, f"/cards/{card_id}.jpg"] for card_id in MINE]
    opp = [[card_id, f"/cards/{card_id}.jpg"] for card_id in THEIRS]
    state = {
        "AllCardTypes": [ALAMO, FITZ, HAYSTACK, SYDNEY, "giralda"],
        "MyHand": hand,
        "OppHand": opp,
        "MyPoints": 0,
        "OppPoints": 30,
        "CardsInDeck": sum(deck.values()),
        "RemainingMoves": sum(deck.values()),
        "IsMover": True,
    }
    labels = {str(card_id): name for card_id, name in {**MINE, **THEIRS}.items()}
    return parse_position({"GameState": state, "CardLabels": labels, "DeckCounts": deck})


class ByWords:
    """Values each Take and Give by what it does in words (WORTH), scaled per make-up: a grader whose answers
    do not depend on how a position numbers its landmarks."""

    objective = Objective.WIN

    def __init__(self, scale: dict[tuple[int, ...], float]) -> None:
        self.scale = scale

    def grade(self, at: Position) -> Grade:
        rules = at.state.rules
        values = {}
        for move in rules.moves:
            if move.kind in (MoveKind.TAKE, MoveKind.GIVE):
                words = describe_count_move(move, at.types)
                if words in WORTH:
                    values[move.id] = WORTH[words] * self.scale[at.state.deck_counts()]
        return Grade(values, self.objective, True, ValueSource.TABLE, at.state.turns_left)

    def describe(self) -> str:
        return "values by the move's words"


def test_an_expected_grade_adds_up_the_same_move_in_every_make_up() -> None:
    every = position({ALAMO: 1, FITZ: 4, HAYSTACK: 1, SYDNEY: 1})
    no_fitz_roy = position({ALAMO: 5, HAYSTACK: 1, SYDNEY: 1})
    assert every.types != no_fitz_roy.types, "the second make-up must number the landmarks otherwise"
    grader = ByWords({every.state.deck_counts(): 1.0, no_fitz_roy.state.deck_counts(): 0.5})
    played: dict[str, Any] = {"Take": 4}
    decision = RecordedDecision(1, 0, 0, "perfect", every, played, ((every, 0.75), (no_fitz_roy, 0.25)))

    grade = expected_grade(decision, grader)

    by_words = {describe_count_move(every.state.rules.moves[m], every.types): v for m, v in grade.values.items()}
    assert by_words == pytest.approx({words: worth * (0.75 + 0.25 * 0.5) for words, worth in WORTH.items()})
    assert describe_count_move(every.state.rules.moves[grade.best], every.types) == f"Take {ALAMO}"
    assert grade.values[every.move_id(played)] == pytest.approx(0.7 * 0.875)
