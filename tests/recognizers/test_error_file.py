"""`errors:FILE.json:INNER`: a measured error model reaches the belief; bad files get one clear line; a built-in
wrapper's INNER may be a user's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recognizers.error_file import ErrorFileError, StatedErrors, load_error_model, model_json
from recognizers.registry import get_recognizer
from rummy import Match, render_gamestate
from rummy.belief import ASSUMED, ErrorModel
from strategies.agent import ArenaAgent
from strategies.registry import get_strategy

EXAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "recognizers" / "swap_some.py"
MEASURED = ErrorModel(0.2, runner_up=0.6, reliability=((0.5, 0.1), (0.9, 0.7), (1.0, 0.99)))


def _written(tmp_path: Path, model: ErrorModel = MEASURED) -> Path:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(model_json(model, {"recognizer": "harsh:0.2", "rounds": 3})))
    return path


def test_the_file_round_trips_and_names_where_it_was_measured(tmp_path):
    loaded = load_error_model(_written(tmp_path))
    assert (loaded.error_rate, loaded.runner_up, loaded.reliability) == (0.2, 0.6, MEASURED.reliability)
    assert loaded.source.startswith("measured in mine.json (harsh:0.2): right 10% to 99%")
    assert not loaded.certain


def test_the_wrapper_answers_as_its_inner_and_states_the_files_model(tmp_path):
    match = Match(seed="errors:1")
    truth = match.current.landmarks_by_url()
    cards = [(card.id, card.url) for hand in match.current.hands for card in hand]
    wrapped = get_recognizer(f"errors:{_written(tmp_path)}:harsh:0.2", source=truth, noise_seed=4)
    plain = get_recognizer("harsh:0.2", source=truth, noise_seed=4)
    assert isinstance(wrapped, StatedErrors) and wrapped.name == "errors:mine.json:harsh:0.2:oracle"
    assert wrapped.recognize(cards, match.rules.catalog) == plain.recognize(cards, match.rules.catalog)
    agent = ArenaAgent(get_strategy("greedy"), wrapped)
    assert agent.error_model.reliability == MEASURED.reliability
    agent.calculate_move(render_gamestate(match, match.current.mover))
    assert not agent.belief.certain


def test_assumed_drops_a_stated_model():
    harsh = get_recognizer("errors:assumed:harsh:0.1", source={})
    assert harsh.error_model == ASSUMED
    assert get_recognizer("harsh:0.1", source={}).error_model.likelihood is not None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (None, "no such error-model file"),
        ("{", "not JSON"),
        ('{"error_rate": 0.1}', "not an error-model file"),
        ('{"format": "rummy-vision error model", "version": 9}', "version 9"),
        ('{"format": "rummy-vision error model", "version": 1, "runner_up": 0.5}', "'error_rate' is missing"),
        ('{"format": "rummy-vision error model", "version": 1, "error_rate": "x", "runner_up": 0.5}', "got 'x'"),
        ('{"format": "rummy-vision error model", "version": 1, "error_rate": 1.5, "runner_up": 0.5}', "error_rate"),
        (
            '{"format": "rummy-vision error model", "version": 1, "error_rate": 0.1, "runner_up": 0.5, '
            '"reliability": [[0.9, 0.5], [0.5, 0.9]]}',
            "rising upper edges",
        ),
        (
            '{"format": "rummy-vision error model", "version": 1, "error_rate": 0.1, "runner_up": 0.5, '
            '"reliability": "x"}',
            "reliability must be a list of [upper edge, chance right] pairs, not x",
        ),
        (
            '{"format": "rummy-vision error model", "version": 1, "error_rate": 0.1, "runner_up": 0.5, '
            '"reliability": [[0.5, 0.9, 1], [1.0, 0.8]]}',
            "reliability must be a list of [upper edge, chance right] pairs",
        ),
    ],
)
def test_a_bad_file_is_refused_with_what_is_wrong(tmp_path, text, said):
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ErrorFileError, match="bad.json") as raised:
        get_recognizer(f"errors:{path}:harsh:0.1", source={})
    assert said in str(raised.value)


def test_errors_needs_a_file_or_assumed():
    with pytest.raises(ValueError, match="errors needs a model file"):
        get_recognizer("errors:", source={})


def test_a_wrappers_inner_may_be_a_users_file():
    """`noisy:0.1:mine.py` wraps the file, as INNER may be any recognizer; before, the whole spec was taken
    for the file's path."""
    assert get_recognizer(f"noisy:0.1:{EXAMPLE}", source={}).name == "noisy:0.1:swap_some:oracle"
    assert get_recognizer(f"corrected:{EXAMPLE}:harsh:0.1", source={}).name.startswith("corrected")
    assert get_recognizer(f"errors:assumed:{EXAMPLE}", source={}).name == "errors:assumed:swap_some:oracle"
