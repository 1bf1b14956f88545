"""Find the figures a Markdown text quotes and check each against the measurement file cited beside it.

A unit of text is a paragraph, a list item (with its continuation lines) or a table row; code blocks and inline
code are commands, not claims, and are skipped, and so are HTML comments (no reader sees them; the figure
markers of `tools/figures.py` are such comments, and the figure between a pair is checked here as text). Every
number of a unit that cites a `measurements/NAME.json` file is checked (a table row may rely on the paragraph
that introduces its table), and a unit that cites none may hold no measured-looking number (a percentage, a
quantity with a unit of time or size, a count with thousands separators, "N of M" or "N/M", a signed or decimal
number).

A number must appear among the cited files' measured results, at the precision it is printed with: the
`figures` section and the run's own wall and CPU seconds. Not the command, source, machine, load, seeds
or settings, and no number written inside a string (paths, commit hashes, tables' hashed names, notes).
Three kinds are checked elsewhere:

- a number in a `SETTINGS` phrase (the seeds, the deals, the cores, the load the run had) must be in the
  section of the file that phrase names;
- a multiple ("3.4x", "a 5x speed-up", "five times narrower") or a comparative percentage ("8% stronger")
  is no stored value: it must be the quotient (or, for a percentage, the relative or absolute difference)
  of two figures printed in the same unit that stand on stored values of the same kind (the same key, or
  two intervals' widths), at the precision it is printed with;
- numbers that are rules, limits, options or structure rather than measurements are listed in `RULES` as
  the phrase they stand in, so each exemption is visible and a measured number never hides behind one.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Phrases whose numbers are rules, limits, options or settings, not measurements (regexes, matched
# case-sensitively on the unit's text after inline code is removed).
RULES = [
    r"Python 3\.11\+",
    r"(?:Wilson )?95% (?:normal )?intervals?|Wilson 95%",
    r"a 600 s limit|the walk, 3600 s",  # pytest-timeout's per-test limit, and the README walk's
    r"(?:within|for) (?:10|60) s",  # header, body and offer timeouts
    r"gets at most 5 s",  # a coached position's cap past two waiting
    r"rounds?(?:,| with) (?:0\.5|5|120) s\b",  # the game styles' move times
    r"\b(?:64|16) KB\b|\b[14] MB\b|\b24 Mpx\b|within 5 s|up to 30 s|8 MB a file|512 MB in all",  # limits
    r"the -3\b|-3 (?:per card|exposure)",  # the rules' hand penalty
    r"\+1/-1|gamma = -1",  # the learner's reward and discount
    r"below 0\.10|the 0\.10 margin",  # the local recognizer's margin setting
    r"5% of cards|above 2%|127\.0\.0\.1",
    r"node budget \(3,000\)|time budget \(0\.5 s\)|\(3,000 nodes or 0\.5 s\)",  # the strong template's budgets
    r"per 60 s|1 s for a standard key|5,000 a month|at 80%, 90% and 99%|after 200 ms",  # Azure tiers and fakes
    r"1,000 duplicate rounds per template is not measured",
    r"the 1 s p95|the 8 GB budget|the 200 ms aimed at|the\s+42% this work aimed at",  # goals, not results
    r"the aims of this work \([^)]*\)",  # issue 38's strength goals, listed before the figures that meet them or not
    r"\(5 at once, then one per\s+2 s\)|\((?:30|60), then [35] per s",  # the login throttle
    r"bounded at\s+64 MB|128 MB for",  # the viewer's picture caches
    r"20/510",  # the 8-bit rounding bound, worked out from the rules
    r"\b1000 ms\b",  # the searchers' default time budget
    r"\b[Ll]ayer 0(?:'s)?(?!\w)|\bd = 0\b",  # the table's layer of ended rounds: a name, not a count
    r"up to 512 KB|at most 1,024 px",  # the gallery's picture copies
    r"farther than 0\.80|The 0\.80 was|the 0\.80 reach|at 0\.95, before this cut-off",  # the local reach setting
    r"3,000 nodes a\s+move",  # the templates table's node budget
    r"a hand counts 70% of the sets",  # the strong template's leaf weight, a setting
    r"0\.5 \+ \(what[^)]*\) / 2|expects 50% plus|never less than\s+50%",  # the luck-adjusted estimate's formula
    r"the 50-match server load test|stored with 12 re-framed variants",  # a test's and the recognizer's settings
    r"\bon (?:referee )?seed\s+777(?= with| too)",  # the local recognizer's tuning runs, not stored with its figures
    r"the 8 GB, 12 GB and 45-minute budgets|P \* 65535|d / 131070",  # goals; the 16-bit format's definition
    r"took ten times as many rounds",  # the shipped model's --episodes against the short run's, both shown
]

# Phrases whose numbers are settings or conditions of the run, not results: each number in the phrase must be in
# the named part of the cited file (or among its figures). `settings` is the file's settings, seeds and command line;
# `load` its load averages, where "load 5-7" holds when one of them lies in 4.5-7.5.
_N = r"(\d{1,3}(?:,\d{3})+|\d+)"
SETTINGS = [
    (rf"\b(?:deal |referee )?seeds? {_N}(?:(?:-|\.\.| to ){_N})?", "settings"),  # the seeds a run used
    (rf"\bdeals {_N}(?:-|\.\.){_N}", "settings"),  # the deals a duel dealt
    (rf"\b(?:[Oo]f|[Oo]ver|noise,) {_N} (?:duplicate )?(?:rounds|matches)\b", "settings"),  # how many a run played
    (rf"\bup to {_N} turns left\b", "settings"),  # the positions a run drew
    (rf"\bstyle {_N}\b", "settings"),  # the game style a run played
    (rf"\b{_N} workers\b", "settings"),  # the worker processes a run used
    (rf"\b{_N}-core\b|\bon {_N} cores\b", "machine"),  # the cores of the machine the run had
    (r"\bload(?: average)? (\d+(?:\.\d+)?)(?:(?:-| to )(\d+(?:\.\d+)?))?", "load"),  # the load averages it saw
]

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?"
_UNIT = r"%|CPU us|CPU s|CPU minutes|CPU hours|us|µs|ms|s|minutes|hours|GB|MB|kB|KB|M|G"
_SCALE = {  # factors from a stored value to the printed one: the value as stored, or in the unit's base
    "%": [1.0, 100.0],
    "us": [1.0, 1e6, 1e-3],  # stored as seconds or as nanoseconds
    "µs": [1.0, 1e6, 1e-3],
    "CPU us": [1.0, 1e6, 1e-3],
    "ms": [1.0, 1e3],
    "s": [1.0, 1e-3],
    "CPU s": [1.0],
    "minutes": [1.0, 1 / 60],
    "CPU minutes": [1.0, 1 / 60],
    "hours": [1.0, 1 / 3600],
    "CPU hours": [1.0, 1 / 3600],
    "GB": [1.0, 1e-9],
    "MB": [1.0, 1e-6],
    "kB": [1.0, 1e-3],
    "KB": [1.0, 1e-3],
    "M": [1.0, 1e-6],
    "G": [1.0, 1e-9],
    "": [1.0],
}
_WORDS = {"twice": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_WORDS["ten"] = 10
_MORE = (
    r"(?:more|less|fewer|faster|slower|quicker|stronger|weaker|better|worse|higher|lower|larger|smaller|bigger"
    r"|narrower|wider|cheaper|dearer|shorter|longer|speed-?up|slow-?down)\b"
)
_FIGURE = re.compile(
    rf"(?P<times>(?<![\w.])(?:{_NUM})\s?[x×](?!\w)"  # a multiple: "3.4x", "a 5x speed-up"
    rf"|\b(?:(?i:two|three|four|five|six|seven|eight|nine|ten)|{_NUM}) times (?=as\b|{_MORE})"  # "five times narrower"
    rf"|\b(?i:twice) (?=as\b|the\b|{_MORE}))"
    rf"|(?P<comparative>(?<![\w.])(?:{_NUM})\s?%\s(?:{_MORE}))"  # "8% stronger", "a 30% speed-up"
    rf"|(?P<quantity>(?:{_NUM})(?:\s?[-/]\s?(?:{_NUM}))*\s?(?P<unit>{_UNIT})(?!\w))"
    rf"|(?P<ratio>\b(?:{_NUM})(?: of |/)(?:{_NUM})\b)"
    rf"|(?P<signed>(?<![\w.,-])[+-](?:{_NUM})\b)"
    rf"|(?P<plain>(?<![\w.,/-])(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+\.\d+(?:e[-+]?\d+)?)(?![\w.]))"
    rf"|(?P<integer>(?<![\w.,/+*^-])\d+(?:(?:\.\.|-)\d+)?(?!\w|[.,]\d))"  # a bare count, or a range of them
)
_CITE = re.compile(r"measurements/[\w.-]+\.json")
_DERIVED = ("times", "comparative")
SECTIONS = ("settings", "machine", "load")
_META = {"format", "name", "command", "commit", "source", "seeds", "settings", "machine", "load", "started", "note"}


@dataclass(frozen=True)
class Unit:
    line: int
    text: str
    kind: str  # "paragraph", "item" or "row"


@dataclass(frozen=True)
class Figure:
    line: int
    text: str
    numbers: tuple[tuple[float, int], ...]  # (value, decimals printed)
    scales: tuple[float, ...]
    kind: str = "plain"  # the group of _FIGURE it matched, or "settings", "machine", "load" for a SETTINGS phrase


@dataclass(frozen=True)
class Stored:
    """One number of a measurement file's results, with its key and the path of the object holding it."""

    value: float
    key: str
    parent: str


@dataclass(frozen=True)
class Evidence:
    """What a measurement file stands behind: its measured results, and the numbers of its other parts."""

    measured: tuple[Stored, ...]
    sections: dict[str, tuple[float, ...]]  # "settings", "machine", "load"


def _uncommented(markdown: str) -> str:
    """`markdown` without its HTML comments (which no reader sees: the figure markers of `tools/figures.py`), each
    replaced by the line breaks it held, so every line keeps its number."""
    return re.sub(r"<!--.*?-->", lambda comment: "\n" * comment.group(0).count("\n"), markdown, flags=re.S)


def units(markdown: str) -> list[Unit]:
    """The paragraphs, list items and table rows of `markdown`, code blocks and HTML comments left out."""
    markdown = _uncommented(markdown)
    found: list[Unit] = []
    current: list[str] = []
    start = 0
    kind = "paragraph"
    fenced = False

    def close() -> None:
        nonlocal current
        if current:
            found.append(Unit(start, " ".join(part.strip() for part in current), kind))
        current = []

    for number, line in enumerate(markdown.splitlines(), 1):
        if line.lstrip().startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced:
            continue
        if not line.strip() or line.startswith("#"):
            close()
            continue
        if line.startswith("|"):
            close()
            found.append(Unit(number, line, "row"))
            continue
        if re.match(r"\s*[-*] ", line):
            close()
            start, kind, current = number, "item", [re.sub(r"^\s*[-*] ", "", line)]
            continue
        if line.startswith("    ") and not current:
            continue  # an indented code block
        if not current:
            start, kind = number, "paragraph"
        current.append(line)
    close()
    return found


def _precision(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def _numbers(text: str) -> tuple[tuple[float, int], ...]:
    return tuple((float(part.replace(",", "")), _precision(part)) for part in re.findall(_NUM, text))


def _prose(unit: Unit) -> str:
    """The unit's text without inline code, link targets and URLs: what it claims in words."""
    text = re.sub(r"`[^`]*`", " ", unit.text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.sub(r"https?://\S+", " ", text)


def figures(unit: Unit, settings: bool = True) -> list[Figure]:
    """The numbers of one unit after removing inline code, link targets and RULES phrases: first the numbers of its
    SETTINGS phrases (unless `settings` is false), then its figures, each with the kind of number it is."""
    text = _prose(unit)
    for rule in RULES:
        text = re.sub(rule, " ", text)
    found = []
    for pattern, section in SETTINGS if settings else []:
        for match in re.finditer(pattern, text):
            numbers = _numbers(" ".join(part for part in match.groups() if part is not None))
            found.append(Figure(unit.line, match.group(0).strip(), numbers, (1.0,), section))
        text = re.sub(pattern, " ", text)
    for match in _FIGURE.finditer(text):
        token = match.group(0)
        kind = match.lastgroup if match.lastgroup != "unit" else "quantity"
        unit_name = match.group("unit") or ""
        body = token[: len(token) - len(unit_name)] if unit_name else token
        numbers = _numbers(body.replace(" of ", "/"))
        if kind == "times" and not numbers:  # "twice", "five times"
            numbers = ((float(_WORDS[token.split()[0].lower()]), 0),)
        if kind == "signed":  # the sign is part of the figure: -14.2 is not 14.2
            numbers = ((float(token.replace(",", "")), _precision(token)),)
        found.append(Figure(unit.line, token.strip(), numbers, tuple(_SCALE[unit_name]), str(kind)))
    return found


def _leaves(value: Any, key: str = "", path: str = "") -> Iterator[Stored]:
    """The numbers of a JSON value (never those written inside its strings), each with its key and its holder's path."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield Stored(float(value), key, path)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _leaves(item, name, f"{path}.{name}" if isinstance(item, dict | list) else path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, key, f"{path}[{index}]" if isinstance(item, dict | list) else path)


def stored_numbers(value: Any) -> list[float]:
    """Every number in a JSON value, including numbers written inside its strings, except in a string's words
    that are paths or hexadecimal names (a commit, a table's hashed file name)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, str):
        words = [word for word in value.split() if "/" not in word and not re.search(r"[0-9a-f]{7,}", word)]
        return [float(part.replace(",", "")) for word in words for part in re.findall(_NUM, word)]
    if isinstance(value, dict):
        return [number for item in value.values() for number in stored_numbers(item)]
    if isinstance(value, list):
        return [number for item in value for number in stored_numbers(item)]
    return []


def evidence(path: Path) -> Evidence:
    """What the measurement file at `path` stands behind: its `figures` and the run's own wall and CPU seconds as
    measured results; its settings, seeds and command line, its machine and its load apart. A file written before
    `bot/measure/record.py` keeps its results at the top level, beside its command, commit and load."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "figures" in data:
        results = {
            "figures": data["figures"],
            "wall_seconds": data.get("wall_seconds"),
            "cpu_seconds": data.get("cpu_seconds"),
        }
    else:
        results = {key: value for key, value in data.items() if key not in _META}
    command = data.get("command")
    if isinstance(command, list):  # the run's own file name and folder are no settings
        command = [word for word, before in zip(command, ["", *command]) if before not in ("--name", "--out")]
    settings = [data.get("settings"), data.get("seeds"), command]
    if "figures" not in data:  # the old files describe their settings in words, beside their results
        settings += [value for value in results.values() if isinstance(value, str)]
    return Evidence(
        tuple(_leaves(results)),
        {
            "settings": tuple(stored_numbers(settings)),
            "machine": tuple(stored_numbers(data.get("machine"))),
            "load": tuple(stored_numbers(data.get("load"))),
        },
    )


def shown_as(printed: float, decimals: int, stored: float, scales: tuple[float, ...]) -> bool:
    """Whether `stored`, in any of the unit's scales, rounds to `printed` at `decimals` places."""
    slack = 0.5 * 10.0**-decimals * (1 + 1e-9) + 1e-12
    return any(math.isfinite(stored * scale) and abs(stored * scale - printed) <= slack for scale in scales)


def _in_section(printed: float, decimals: int, section: str, evidence: Evidence) -> bool:
    return any(shown_as(printed, decimals, value, (1.0,)) for value in evidence.sections[section])


def _derived(figure: Figure, printed: float, decimals: int, beside: list[Stored]) -> bool:
    """Whether a multiple or a comparative percentage follows from two figures printed beside it (values stored
    under the same key, or two intervals' widths)."""
    for first in beside:
        for second in beside:
            if first is second or first.key != second.key or second.value == 0:
                continue
            quotient = first.value / second.value
            if figure.kind == "times":
                candidates = [quotient]
            else:
                difference = abs(first.value - second.value)
                candidates = [abs(quotient - 1) * 100, difference, difference * 100]
            if any(shown_as(printed, decimals, value, (1.0,)) for value in candidates):
                return True
    return False


def cited_units(markdown: str) -> Iterator[tuple[Unit, list[str]]]:
    """Each unit of `markdown` with the measurement files it cites (a table row: those of its own text, else those
    of the paragraph that introduces its table)."""
    intro: list[str] = []  # the citations of the paragraph a table follows
    previous: Unit | None = None
    for unit in units(markdown):
        cites = _CITE.findall(unit.text)
        if unit.kind == "row":
            if previous is None or previous.kind != "row":
                intro = _CITE.findall(previous.text) if previous is not None else []
            cites = cites or intro
        previous = unit
        yield unit, cites


def problems(markdown: str, root: Path, name: str = "README") -> Iterator[str]:
    """One line per figure that cites no file, cites a missing file, or is not in the file it cites; `name` names
    the page in each line."""
    cache: dict[str, Evidence | None] = {}
    for unit, cites in cited_units(markdown):
        found = figures(unit, settings=bool(cites))
        if not cites:  # a bare count is no claim here, but anything that looks measured is
            found = [figure for figure in found if figure.kind in ("quantity", "ratio", "signed", "plain", *_DERIVED)]
            if found:
                shown = ", ".join(figure.text for figure in found[:4])
                yield f"{name} line {unit.line}: {shown} cites no measurements/*.json file"
            continue
        files: list[Evidence] = []
        for cite in cites:
            if cite not in cache:
                path = root / cite
                cache[cite] = evidence(path) if path.is_file() else None
                if not path.is_file():
                    yield f"{name} line {unit.line}: cites {cite}, which does not exist"
            known = cache[cite]
            if known is not None:
                files.append(known)
        measured = [stored for file in files for stored in file.measured]
        cited = ", ".join(cites)
        beside: list[Stored] = []  # the stored values the unit's figures stand on, for its multiples
        for figure in found:
            if figure.kind in _DERIVED:
                continue
            matches: list[list[Stored]] = []
            for printed, decimals in figure.numbers:
                matched = [stored for stored in measured if shown_as(printed, decimals, stored.value, figure.scales)]
                if figure.kind in SECTIONS and not matched:
                    if any(_in_section(printed, decimals, figure.kind, file) for file in files):
                        continue
                    if figure.kind == "load" and _load_within(figure, files):
                        break
                    yield f"{name} line {figure.line}: {figure.text!r} is not in the {figure.kind} of {cited}"
                    break
                if not matched:
                    yield f"{name} line {figure.line}: {figure.text!r} is not in {cited}"
                    break
                matches.append(matched)
            beside += [stored for matched in matches for stored in matched]
            if len(matches) == 2:  # a range: its width can be compared with another's
                beside += [
                    Stored(abs(high.value - low.value), "width", low.parent)
                    for low in matches[0]
                    for high in matches[1]
                    if low.parent == high.parent and low is not high
                ]
        for figure in found:
            if figure.kind not in _DERIVED:
                continue
            printed, decimals = figure.numbers[0]
            if not _derived(figure, printed, decimals, beside):
                yield (
                    f"{name} line {figure.line}: {figure.text!r} is no quotient or difference of two figures "
                    f"printed beside it from {cited}"
                )


def _load_within(figure: Figure, files: list[Evidence]) -> bool:
    """Whether "load A-B" (or "load A") holds: one of the cited runs' load averages lies in A-0.5 to B+0.5."""
    low, high = figure.numbers[0][0], figure.numbers[-1][0]
    return any(low - 0.5 <= value <= high + 0.5 for file in files for value in file.sections["load"])
