"""A user's recognizer file: loaded by path, its labels and its stated errors reach the belief; bad files
get one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from recognizers.registry import get_recognizer
from recognizers.user_file import RecognizerFileError
from rummy import Match, render_gamestate
from rummy.belief import ASSUMED
from strategies.agent import ArenaAgent
from strategies.registry import get_strategy

EXAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "recognizers" / "swap_some.py"
UNSTATED = EXAMPLE.with_name("unstated.py")


def test_a_recognizer_file_is_loaded_and_its_errors_reach_the_belief():
    match = Match(seed="file:1")
    recognizer = get_recognizer(f"{EXAMPLE}:oracle", source=lambda: match.current.landmarks_by_url(), noise_seed=7)
    assert recognizer.name == "swap_some:oracle"
    agent = ArenaAgent(get_strategy("greedy"), recognizer)
    assert agent.error_model.error_rate == pytest.approx(1 / 3)
    view = render_gamestate(match, match.current.mover)
    agent.calculate_move(view)
    truth = {card.id: card.kind for hand in match.current.hands for card in hand}
    swapped = [card for card, label in agent.last_labels.items() if label.landmark != truth[card]]
    assert swapped, "the file's errors show in the labels"
    belief = agent.belief
    assert not belief.certain
    # A card whose label was swapped keeps real probability of its true landmark: the stated 1/3 error rate.
    for card in swapped:
        true_type = belief.names.index(truth[card])
        assert 0.05 < belief.probability(card, true_type) < 0.95
    assert agent.last_decision is not None


def test_the_file_wraps_any_inner_recognizer(tmp_path):
    match = Match(seed="file:2")
    recognizer = get_recognizer(f"{EXAMPLE}:harsh:0.1", source=lambda: match.current.landmarks_by_url())
    assert recognizer.name == "swap_some:harsh:0.1:oracle"


def test_the_example_swaps_only_to_names_of_the_round_it_is_in():
    first, second = Match(seed="file:4"), Match(seed="file:5")
    truth = {**first.current.landmarks_by_url(), **second.current.landmarks_by_url()}
    recognizer = get_recognizer(f"{EXAMPLE}:oracle", source=truth, noise_seed=3)
    catalog = first.rules.catalog
    for match in (first, second):  # one recognizer through two rounds, as a bot keeps it through a match
        cards = [(card.id, card.url) for hand in match.current.hands for card in hand]
        answers = recognizer.recognize(cards, catalog)
        named = {label.landmark for label in answers.values()}
        assert named <= set(match.current.landmarks_by_url().values()), "a swap names one of this round's landmarks"
        assert any(answers[card_id].landmark != truth[url] for card_id, url in cards)


def test_the_unstated_example_answers_as_its_inner_and_leaves_the_belief_on_the_default_model():
    match = Match(seed="file:3")
    source = match.current.landmarks_by_url
    unstated = get_recognizer(f"{UNSTATED}:harsh:0.1", source=source, noise_seed=5)
    harsh = get_recognizer("harsh:0.1", source=source, noise_seed=5)
    assert unstated.name == "unstated:harsh:0.1:oracle"
    cards = [(card.id, card.url) for hand in match.current.hands for card in hand]
    catalog = match.rules.catalog
    assert unstated.recognize(cards, catalog) == harsh.recognize(cards, catalog)
    assert ArenaAgent(get_strategy("greedy"), unstated).error_model == ASSUMED
    assert ArenaAgent(get_strategy("greedy"), harsh).error_model.likelihood is not None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("x = 1\n", "defines no make_recognizer(inner, **options) function"),
        ("def make_recognizer(inner, **options):\n    return 42\n", "returned int, which has no recognize"),
        ("raise RuntimeError('broken on import')\n", "loading it raised RuntimeError: broken on import"),
        ("def make_recognizer(inner, **options):\n    raise KeyError('k')\n", "make_recognizer raised KeyError"),
        (
            "def make_recognizer(inner, **options):\n    inner.error_model = 0.3\n    return inner\n",
            "error_model is float 0.3, not a rummy.belief.ErrorModel",
        ),
        # An exit would end the whole command with its code and not a word (it did: `match` quit with 3).
        ("import sys\nsys.exit(3)\n", "loading it exited (SystemExit 3)"),
        (
            "def make_recognizer(inner, **options):\n    raise SystemExit('bye')\n",
            "make_recognizer exited (SystemExit 'bye')",
        ),
        (
            "class R:\n    name = 'r'\n    def recognize(self, cards, catalog):\n        return {}\n"
            "    @property\n    def error_model(self):\n        raise RuntimeError('boom')\n"
            "def make_recognizer(inner, **options):\n    return R()\n",
            "reading the recognizer's error_model raised RuntimeError: boom",
        ),
    ],
)
def test_a_bad_recognizer_file_gets_one_clear_line(tmp_path, text, said):
    path = tmp_path / "mine.py"
    path.write_text(text)
    with pytest.raises(RecognizerFileError) as raised:
        get_recognizer(str(path), source=dict)
    message = str(raised.value)
    assert said in message and str(path) in message and "\n" not in message


def test_a_missing_file_says_so(tmp_path):
    with pytest.raises(RecognizerFileError, match="does not exist"):
        get_recognizer(str(tmp_path / "nowhere.py"), source=dict)


def test_the_harsh_model_states_its_exact_likelihood_and_the_runner_up_matters():
    from recognizers.observation import RankedLabel

    recognizer = get_recognizer("harsh:0.2", source=dict)
    model = recognizer.error_model
    names = ("big ben", "giralda", "jal mahal", "koutoubia mosque")
    in_round = RankedLabel("giralda", 0.8, "", (("giralda", 0.8), ("koutoubia mosque", 0.1)))
    off_round = RankedLabel("giralda", 0.8, "", (("giralda", 0.8), ("bryggen", 0.1)))

    def right(label):
        weights = model.evidence(label, names)
        return weights[1] / sum(weights)

    # A right harsh answer's runner-up is mostly another of the round's landmarks; a wrong one's is the truth
    # half the time and else any name: an off-round runner-up makes the top name less likely right.
    assert right(off_round) < 0.8 < right(in_round)
    # Scores above every wrong one's range are right for sure; below every right one's, wrong for sure.
    assert right(RankedLabel("giralda", 0.97, "", (("giralda", 0.97), ("bryggen", 0.01)))) == 1.0
    assert right(RankedLabel("giralda", 0.52, "", (("giralda", 0.52), ("bryggen", 0.2)))) == 0.0
