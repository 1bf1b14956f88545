"""Map a name a vision service returned onto the round's catalog, or onto nothing.

Services spell landmarks their own way ("City Hall", "St. Joseph's Oratory of Mount Royal",
"Kutubiyya Mosque"); the catalog has one lower-case spelling per landmark. A match must be
unambiguous: a name that fits two catalog entries equally well (such as "Westminster") maps to
nothing, because a wrong label costs a bot more than an unknown one.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from recognizers.names import OTHER_NAMES

# Abbreviations services and captions use for words the catalog spells out.
_ABBREVIATIONS = {"st": "saint", "mt": "mount", "ft": "fort", "n": "north", "s": "south"}
_NOISE_WORDS = {"the"}
FUZZY_CUTOFF = 0.85  # difflib ratio below which two spellings are different names
FUZZY_MARGIN = 0.05  # the best fuzzy match must beat the runner-up by this much


@dataclass(frozen=True)
class NameMatch:
    landmark: str  # the catalog entry
    similarity: float  # 1.0 for an exact match after normalising
    how: str  # "exact", "other name", "part", "prefix", "contains" or "fuzzy", for reasons and logs


def normalize(name: str) -> str:
    """Lower case, no accents, no punctuation, abbreviations spelled out, single spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char)).lower()
    plain = plain.replace("&", " and ").replace("'", "").replace("\u2019", "")
    words = re.sub(r"[^a-z0-9]+", " ", plain).split()
    words = [_ABBREVIATIONS.get(word, word) for word in words]
    while words and words[0] in _NOISE_WORDS:
        words = words[1:]
    return " ".join(words)


@functools.cache
def other_names() -> dict[str, tuple[str, ...]]:
    """Each other name, normalized, with the catalog entries it denotes (one, unless the table is wrong)."""
    index: dict[str, tuple[str, ...]] = {}
    for entry, names in OTHER_NAMES.items():
        for name in names:
            key = normalize(name)
            if key and entry not in index.get(key, ()):
                index[key] = (*index.get(key, ()), entry)
    return index


def _parts(entry: str) -> list[str]:
    """The comma-separated parts of a catalog entry: "city hall, london" -> ["city hall", "london"]."""
    return [normalize(part) for part in entry.split(",") if normalize(part)]


def _contains_words(haystack: str, needle: str) -> bool:
    return f" {needle} " in f" {haystack} "


def match_name(name: str, catalog: Sequence[str]) -> NameMatch | None:
    """The catalog entry `name` denotes, or None when there is none or more than one."""
    wanted = normalize(name)
    if not wanted:
        return None
    normalized = {entry: normalize(entry) for entry in catalog}
    exact = [entry for entry, norm in normalized.items() if norm == wanted]
    if len(exact) == 1:
        return NameMatch(exact[0], 1.0, "exact")
    # "Brandenburger Tor", "Elizabeth Tower", "Victoria Terminus": another name in recognizers/names.py.
    known_as = [entry for entry in other_names().get(wanted, ()) if entry in normalized]
    if len(known_as) == 1:
        return NameMatch(known_as[0], 1.0, "other name")
    # "City Hall" for "city hall, london": the name is the entry's first part; a bare qualifier
    # ("London") is not enough, so only the first part counts, and only when it has two words.
    parts = [entry for entry in catalog if (p := _parts(entry)) and len(p) > 1 and p[0] == wanted and " " in wanted]
    if len(parts) == 1:
        return NameMatch(parts[0], 0.95, "part")
    # "Alamo Mission" for "alamo mission in san antonio", or the reverse "Saint Joseph's Oratory of
    # Mount Royal" for "saint joseph's oratory": one spelling starts with all the words of the other.
    prefixes = [
        entry
        for entry, norm in normalized.items()
        if " " in min(norm, wanted, key=len) and (norm.startswith(wanted + " ") or wanted.startswith(norm + " "))
    ]
    if len(prefixes) == 1:
        return NameMatch(prefixes[0], 0.9, "prefix")
    close = difflib.get_close_matches(wanted, list(normalized.values()), n=2, cutoff=FUZZY_CUTOFF)
    if close:
        best = difflib.SequenceMatcher(None, wanted, close[0]).ratio()
        runner_up = difflib.SequenceMatcher(None, wanted, close[1]).ratio() if len(close) > 1 else 0.0
        if best - runner_up >= FUZZY_MARGIN:
            entry = next(entry for entry, norm in normalized.items() if norm == close[0])
            return NameMatch(entry, round(best, 3), "fuzzy")
    return None


def find_in_text(text: str, catalog: Sequence[str]) -> NameMatch | None:
    """The one catalog entry whose full name appears in `text` (a caption or a tag), else None.

    Only full names count: a caption saying "a city hall" must not become "city hall, london".
    """
    haystack = normalize(text)
    if not haystack:
        return None
    found = [entry for entry in catalog if normalize(entry) and _contains_words(haystack, normalize(entry))]
    # An entry whose name sits inside another found entry's name was not named on its own.
    found = [
        entry
        for entry in found
        if not any(other != entry and _contains_words(normalize(other), normalize(entry)) for other in found)
    ]
    if len(found) == 1:
        return NameMatch(found[0], 1.0 if normalize(found[0]) == haystack else 0.9, "contains")
    return None
