"""Service names onto the catalog: robust, unambiguous, never invented."""

from __future__ import annotations

import pytest

from recognizers.matching import find_in_text, match_name
from rummy.catalog import DEFAULT_CATALOG


@pytest.mark.parametrize(
    ("said", "landmark"),
    [
        ("Forbidden City", "forbidden city"),
        ("BIG BEN", "big ben"),
        ("City Hall", "city hall, london"),
        ("City Hall, London", "city hall, london"),
        ("St. Joseph's Oratory", "saint joseph's oratory"),
        ("Saint Joseph's Oratory of Mount Royal", "saint joseph's oratory"),
        ("Alamo Mission", "alamo mission in san antonio"),
        ("Kutubiyya Mosque", "koutoubia mosque"),
        ("Chhatrapati Shivaji Maharaj Terminus", "chhatrapati shivaji terminus"),
        ("Palais Garnièr", "palais garnier"),
        ("The Empire State Building", "empire state building"),
        ("Phi-Phi Islands", "phi phi islands"),
    ],
)
def test_names_that_map(said: str, landmark: str) -> None:
    found = match_name(said, DEFAULT_CATALOG)
    assert found is not None and found.landmark == landmark


@pytest.mark.parametrize("said", ["Westminster", "Mount", "London", "Eiffel Tower", "Mosque", "", "City"])
def test_names_that_must_not_map(said: str) -> None:
    assert match_name(said, DEFAULT_CATALOG) is None


def test_text_must_name_a_full_landmark() -> None:
    assert find_in_text("Big Ben towering over a street", DEFAULT_CATALOG).landmark == "big ben"  # type: ignore[union-attr]
    assert find_in_text("a city hall next to a river", DEFAULT_CATALOG) is None
    assert find_in_text("the Palace of Westminster and Westminster Bridge", DEFAULT_CATALOG) is None  # two names
