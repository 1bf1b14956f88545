"""Which drawing shows which landmark: one scene family per name of the default catalog."""

from __future__ import annotations

import hashlib

from server.cards.drawing import Drawing
from server.cards.halls import bridge, colonnade, dome, egg, gothic, mission, sails, ship, wooden_row
from server.cards.landscapes import islands, mountains, sea_stack, waterfall
from server.cards.towers import clock_tower, column, flag_raising, minaret, pagoda, skyscraper, step_pyramid

FAMILIES: dict[str, Drawing] = {
    "brandenburg gate": colonnade,
    "jal mahal": lambda d, b, p, r: dome(d, b, p, r, "water"),
    "sydney opera house": sails,
    "viking ship museum": ship,
    "pyramid of djoser": step_pyramid,
    "forbidden city": pagoda,
    "palais garnier": lambda d, b, p, r: colonnade(d, b, p, r, "opera"),
    "palace of westminster": gothic,
    "freedom monument": column,
    "trevi fountain": lambda d, b, p, r: colonnade(d, b, p, r, "fountain"),
    "sunwapta falls": waterfall,
    "alamo mission in san antonio": mission,
    "mount vernon": lambda d, b, p, r: colonnade(d, b, p, r, "house"),
    "slieve league": lambda d, b, p, r: mountains(d, b, p, r, sea=True),
    "sheikh zayed mosque": dome,
    "haystack rock": sea_stack,
    "giralda": minaret,
    "big ben": clock_tower,
    "marine corps war memorial": flag_raising,
    "mount of olives": lambda d, b, p, r: dome(d, b, p, r, "hill"),
    "bryggen": wooden_row,
    "chhatrapati shivaji terminus": lambda d, b, p, r: gothic(d, b, p, r, dome=True),
    "hanauma bay": lambda d, b, p, r: islands(d, b, p, r, "bay"),
    "empire state building": skyscraper,
    "phi phi islands": islands,
    "fitz roy": mountains,
    "koutoubia mosque": minaret,
    "milwaukee art museum": lambda d, b, p, r: sails(d, b, p, r, wings=True),
    "alcatraz island": lambda d, b, p, r: islands(d, b, p, r, "prison"),
    "saint joseph's oratory": lambda d, b, p, r: dome(d, b, p, r, "basilica"),
    "city hall, london": egg,
    "westminster bridge": bridge,
}
_ALL_DRAWINGS: tuple[Drawing, ...] = tuple(dict.fromkeys(FAMILIES.values()))


def drawing_for(landmark: str) -> Drawing:
    """The landmark's own drawing; a name outside the default catalog gets one chosen by its hash."""
    if landmark in FAMILIES:
        return FAMILIES[landmark]
    digest = int.from_bytes(hashlib.sha256(landmark.encode()).digest()[:4], "big")
    return _ALL_DRAWINGS[digest % len(_ALL_DRAWINGS)]
