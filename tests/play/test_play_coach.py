"""The coach's words and ranking on a hand-made position."""

from __future__ import annotations

from rummy import DEFAULT_RULES
from strategies.coaching.coach import CoachConfig, advise, position_of
from strategies.coaching.words import explain_move
from strategies.search import Objective

# Me: three big ben, a giralda, a bryggen. Them: three giralda. The deck: the rest of the four types.
GAMESTATE = {
    "MyHand": [[1, "u1"], [2, "u2"], [3, "u3"], [4, "u4"], [5, "u5"]],
    "OppHand": [[11, "u11"], [12, "u12"], [13, "u13"]],
    "MyPoints": 0,
    "OppPoints": 0,
    "CardsInDeck": 6,
    "RemainingMoves": 6,
    "IsMover": True,
    "AllCardTypes": list(DEFAULT_RULES.catalog),
}
LABELS = {
    1: "big ben",
    2: "big ben",
    3: "big ben",
    4: "giralda",
    5: "bryggen",
    11: "giralda",
    12: "giralda",
    13: "giralda",
}
DECK = {"big ben": 2, "giralda": 1, "bryggen": 2, "alamo mission in san antonio": 1}


def test_the_words_name_the_set_the_exposure_and_what_a_take_breaks() -> None:
    position = position_of(GAMESTATE, LABELS, DECK)
    lay = position.state.rules.moves[position.move_id({"Lay": [1, 2, 3]})]
    assert lay.kind == "lay" and sorted(lay.counts) == [0, 0, 0, 3] and lay.points == 20
    text = explain_move(position, lay.id)
    # Three alike score 20 and take 3 cards, 9 points of -3 exposure, out of the hand.
    assert "score 20" in text and "-3" in text and "9 points of exposure" in text
    take = explain_move(position, position.move_id({"Take": 11}))
    assert "breaks their 3 giralda" in take and "you would hold 2 giralda" in take
    give = explain_move(position, position.move_id({"Give": 4}))
    assert "they would hold 4 giralda, enough for a set" in give.replace("Careful: t", "t")


def test_the_coach_ranks_every_legal_move_best_first_and_explains_the_best() -> None:
    position = position_of(GAMESTATE, LABELS, DECK)
    advice = advise(position, CoachConfig("heuristic", Objective.MARGIN))
    assert len(advice.suggestions) == len(position.state.legal_moves())
    values = [s.value for s in advice.suggestions]
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]
    assert advice.explanation.startswith(advice.best.label.split(" ")[0])
    assert "points of expected final margin" in advice.explanation
    assert advice.to_json(3)["Moves"][0]["Label"] == advice.best.label
