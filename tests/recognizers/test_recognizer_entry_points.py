"""Installed packages add recognizers through the entry-point group `rummy_vision.recognizers`: a name they register
is a recognizer (wrapping INNER as a file's does), a broken one is refused in one line, and none replaces ours."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint

import pytest

import recognizers.user_file as user_file
from recognizers.registry import BUILT_IN, get_recognizer
from recognizers.user_file import ENTRY_POINT_GROUP, RecognizerFileError
from rummy import Match

PACKAGE = '''
from rummy.belief import ErrorModel
from rummy.labels import CardLabel


class FirstName:
    """Names every card the first landmark of the catalog, and says how it errs."""

    error_model = ErrorModel(0.7, source="first-name: mostly wrong")

    def __init__(self, inner, seed):
        self.inner, self.seed, self.name = inner, seed, f"first-name:{inner.name}"

    def recognize(self, cards, catalog):
        return {card_id: CardLabel(catalog[0], 0.5, "first") for card_id, _url in cards}


def make_recognizer(inner, noise_seed=0):
    return FirstName(inner, noise_seed)

'''


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package on the path, registering `first-name`, `oracle` (ours: it must not win) and a broken entry."""
    (tmp_path / "their_package.py").write_text(PACKAGE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        EntryPoint("first-name", "their_package:make_recognizer", ENTRY_POINT_GROUP),
        EntryPoint("oracle", "their_package:make_recognizer", ENTRY_POINT_GROUP),
        EntryPoint("gone", "their_package:no_such_factory", ENTRY_POINT_GROUP),
        EntryPoint("missing", "no_such_package_anywhere:make", ENTRY_POINT_GROUP),
    ]

    def found(*, group: str) -> list[EntryPoint]:
        return [point for point in points if point.group == group]

    monkeypatch.setattr(user_file, "entry_points", found)
    yield
    sys.modules.pop("their_package", None)


def _cards() -> tuple[list[tuple[int, str]], list[str]]:
    match = Match(seed="plug:1")
    return [(card.id, card.url) for hand in match.current.hands for card in hand], list(match.rules.catalog)


def test_a_registered_name_is_a_recognizer_around_its_inner(installed):
    cards, catalog = _cards()
    plugged = get_recognizer("first-name:harsh:0.1", source=dict, noise_seed=5)
    assert plugged.name == "first-name:harsh:0.1:oracle" and plugged.seed == 5
    assert {label.landmark for label in plugged.recognize(cards, catalog).values()} == {catalog[0]}
    assert plugged.error_model.source == "first-name: mostly wrong"
    assert get_recognizer("first-name", source=dict).inner.name == "oracle"  # INNER defaults to the true labels


def test_no_package_replaces_a_built_in_name(installed):
    assert "oracle" in BUILT_IN
    cards, catalog = _cards()
    truth = Match(seed="plug:1").current.landmarks_by_url()
    ours = get_recognizer("oracle", source=lambda: truth)
    assert type(ours).__name__ == "OracleRecognizer"
    assert {card: label.landmark for card, label in ours.recognize(cards, catalog).items()} == {
        card: truth[url] for card, url in cards
    }


@pytest.mark.parametrize(("name", "said"), [("gone", "no_such_factory"), ("missing", "no_such_package_anywhere")])
def test_a_broken_entry_point_gets_one_clear_line(installed, name, said):
    with pytest.raises(RecognizerFileError) as raised:
        get_recognizer(name, source=dict)
    message = str(raised.value)
    assert f"recognizer {name!r} ({ENTRY_POINT_GROUP} entry point" in message and said in message
    assert "\n" not in message
