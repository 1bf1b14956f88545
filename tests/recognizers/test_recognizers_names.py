"""The table of other names (recognizers/names.py) through the name matcher."""

from __future__ import annotations

import pytest

from recognizers.matching import match_name, normalize, other_names
from recognizers.names import OTHER_NAMES
from rummy.catalog import DEFAULT_CATALOG

# Names a service or a person may use, per landmark: the examples and more, not all from the table.
ALTERNATIVES = {
    "brandenburg gate": ["Brandenburger Tor", "Porte de Brandebourg", "Puerta de Brandeburgo"],
    "jal mahal": ["Jal Mahal Palace", "Water Palace Jaipur"],
    "sydney opera house": ["Opera House Sydney", "Opéra de Sydney", "The Sydney Opera House"],
    "viking ship museum": ["Vikingskipshuset", "Viking Ship Museum Oslo"],
    "pyramid of djoser": ["Step Pyramid of Djoser", "Pyramid of Zoser", "Djoser Pyramid"],
    "forbidden city": ["Zijin Cheng", "Cité interdite", "Verbotene Stadt"],
    "palais garnier": ["Opéra Garnier", "Opera Garnier", "Paris Opera"],
    "palace of westminster": ["Houses of Parliament", "Westminster Palace", "The Houses of Parliament"],
    "freedom monument": ["Brīvības piemineklis", "Freiheitsdenkmal Riga"],
    "trevi fountain": ["Fontana di Trevi", "Fontaine de Trevi", "Trevi-Brunnen", "Fuente de Trevi"],
    "sunwapta falls": ["Chutes Sunwapta", "Sunwapta Falls"],
    "alamo mission in san antonio": ["The Alamo", "Alamo", "Mission San Antonio de Valero"],
    "mount vernon": ["George Washington's Mount Vernon", "Mount Vernon Estate"],
    "slieve league": ["Sliabh Liag", "Slieve League Cliffs"],
    "sheikh zayed mosque": ["Sheikh Zayed Grand Mosque", "Grand Mosque Abu Dhabi"],
    "haystack rock": ["Haystack Rock Cannon Beach"],
    "giralda": ["La Giralda", "Giralda Tower"],
    "big ben": ["Elizabeth Tower", "Great Clock of Westminster"],
    "marine corps war memorial": [
        "Iwo Jima Memorial",
        "US Marine Corps War Memorial",
        "U.S. Marine Corps War Memorial",
    ],
    "mount of olives": ["Mount Olivet", "Mont des Oliviers", "Ölberg"],
    "bryggen": ["Tyskebryggen", "Hanseatic Wharf Bergen"],
    "chhatrapati shivaji terminus": ["Victoria Terminus", "Chhatrapati Shivaji Maharaj Terminus", "Bombay VT"],
    "hanauma bay": ["Hanauma Bay Nature Preserve"],
    "empire state building": ["Empire State", "The Empire State Building"],
    "phi phi islands": ["Ko Phi Phi", "Koh Phi Phi", "Phi Phi Island"],
    "fitz roy": ["Mount Fitz Roy", "Monte Fitz Roy", "Cerro Chaltén", "Mt. Fitz Roy", "Mount Fitzroy"],
    "koutoubia mosque": ["Kutubiyya Mosque", "Mosquée Koutoubia"],
    "milwaukee art museum": ["Quadracci Pavilion"],
    "alcatraz island": ["Alcatraz", "Alcatraz Federal Penitentiary"],
    "saint joseph's oratory": ["Oratoire Saint-Joseph du Mont-Royal", "St. Joseph's Oratory Montreal"],
    "city hall, london": ["London City Hall", "City Hall London"],
    "westminster bridge": ["Westminster Bridge London", "Pont de Westminster"],
}


def test_every_catalog_entry_has_other_names_and_alternatives() -> None:
    assert set(OTHER_NAMES) == set(DEFAULT_CATALOG) == set(ALTERNATIVES)


def test_no_other_name_denotes_two_entries_or_is_empty() -> None:
    for entry, names in OTHER_NAMES.items():
        for name in names:
            assert normalize(name), f"{name!r} ({entry}) normalizes to nothing"
    assert {key: entries for key, entries in other_names().items() if len(entries) > 1} == {}


@pytest.mark.parametrize(("landmark", "said"), [(k, name) for k, names in ALTERNATIVES.items() for name in names])
def test_alternative_names_map_to_their_landmark(landmark: str, said: str) -> None:
    found = match_name(said, DEFAULT_CATALOG)
    assert found is not None and found.landmark == landmark, (said, found)


def test_other_names_map_only_within_the_round_catalog() -> None:
    round_catalog = ["trevi fountain", "giralda", "bryggen", "jal mahal"]
    assert match_name("Elizabeth Tower", round_catalog) is None
    assert match_name("Fontana di Trevi", round_catalog).landmark == "trevi fountain"  # type: ignore[union-attr]
