"""Find the figures a Markdown text quotes and check each against the measurement file cited beside it.

A unit of text is a paragraph, a list item (with its continuation lines) or a table row; code blocks
and inline code are commands, not claims, and are skipped. A number is a figure when it looks
measured: a percentage, a quantity with a unit of time or size, a count with thousands separators,
"N of M" or "N/M", a signed or decimal number. Every unit holding one must cite a
`measurements/NAME.json` file (a table row may rely on the paragraph that introduces its table),
and every such number must appear among that file's figures at the precision it is printed with.

Numbers that are rules, limits or options rather than measurements are listed in `RULES` as the
phrase they stand in, so each exemption is visible and a measured number never hides behind one.
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
    r"the 1 s p95|the 8 GB budget|the 200 ms aimed at",  # goals, not results
    r"one per 2 s|bounded at\s+64 MB|128 MB for",  # the login throttle, the viewer's picture caches
    r"20/510",  # the 8-bit rounding bound, worked out from the rules
    r"\b1000 ms\b",  # the searchers' default time budget
    r"up to 512 KB|at most 1,024 px",  # the gallery's picture copies
    r"farther than 0\.80|The 0\.80 was|the 0\.80 reach|at 0\.95, before this cut-off",  # the local reach setting
    r"3,000 nodes a\s+move",  # the templates table's node budget
    r"a hand counts 70% of the sets",  # the strong template's leaf weight, a setting
    r"0\.5 \+ \(what|expects 50% plus|never less than\s+50%",  # the luck-adjusted estimate's formula, not a result
]

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?"
_UNIT = r"%|CPU us|CPU s|CPU hours|us|µs|ms|s|minutes|hours|GB|MB|kB|KB|M|G"
_SCALE = {  # factors from a stored value to the printed one: the value as stored, or in the unit's base
    "%": [1.0, 100.0],
    "us": [1.0, 1e6, 1e-3],  # stored as seconds or as nanoseconds
    "µs": [1.0, 1e6, 1e-3],
    "CPU us": [1.0, 1e6, 1e-3],
    "ms": [1.0, 1e3],
    "s": [1.0, 1e-3],
    "CPU s": [1.0],
    "minutes": [1.0, 1 / 60],
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
_FIGURE = re.compile(
    rf"(?P<quantity>(?:{_NUM})(?:\s?[-/]\s?(?:{_NUM}))*\s?(?P<unit>{_UNIT})(?!\w))"
    rf"|(?P<ratio>\b(?:{_NUM})(?: of |/)(?:{_NUM})\b)"
    rf"|(?P<signed>(?<![\w.,-])[+-](?:{_NUM})\b)"
    rf"|(?P<plain>(?<![\w.,/-])(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+\.\d+(?:e[-+]?\d+)?)(?![\w.]))"
)
_CITE = re.compile(r"measurements/[\w.-]+\.json")


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


def units(markdown: str) -> list[Unit]:
    """The paragraphs, list items and table rows of `markdown`, code blocks left out."""
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


def figures(unit: Unit) -> list[Figure]:
    """The figure-like numbers of one unit, after removing inline code, link targets and RULES phrases."""
    text = re.sub(r"`[^`]*`", " ", unit.text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"https?://\S+", " ", text)
    for rule in RULES:
        text = re.sub(rule, " ", text)
    found = []
    for match in _FIGURE.finditer(text):
        token = match.group(0)
        unit_name = match.group("unit") or ""
        body = token[: len(token) - len(unit_name)] if unit_name else token
        numbers = _numbers(body.replace(" of ", "/"))
        if match.group("signed"):  # the sign is part of the figure: -14.2 is not 14.2
            numbers = ((float(token.replace(",", "")), _precision(token)),)
        found.append(Figure(unit.line, token.strip(), numbers, tuple(_SCALE[unit_name])))
    return found


def stored_numbers(value: Any) -> list[float]:
    """Every number in a JSON value, including numbers written inside its strings."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, str):
        return [float(part.replace(",", "")) for part in re.findall(_NUM, value)]
    if isinstance(value, dict):
        return [number for item in value.values() for number in stored_numbers(item)]
    if isinstance(value, list):
        return [number for item in value for number in stored_numbers(item)]
    return []


def shown_as(printed: float, decimals: int, stored: float, scales: tuple[float, ...]) -> bool:
    """Whether `stored`, in any of the unit's scales, rounds to `printed` at `decimals` places."""
    slack = 0.5 * 10.0**-decimals * (1 + 1e-9) + 1e-12
    return any(math.isfinite(stored * scale) and abs(stored * scale - printed) <= slack for scale in scales)


def file_figures(path: Path) -> list[float]:
    """The numbers a measurement file stands behind: its `figures` and the run's own cost and load (wall
    and CPU seconds, load averages), or the whole file when it has no `figures`.

    The command, seeds and settings are left out: they echo the options, so a figure found there would
    be found by coincidence. Files written before `bot/measure/record.py` keep their figures at the top level."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "figures" not in data:
        return stored_numbers(data)
    return stored_numbers([data["figures"], data.get("wall_seconds"), data.get("cpu_seconds"), data.get("load")])


def problems(markdown: str, root: Path, name: str = "README") -> Iterator[str]:
    """One line per figure that cites no file, cites a missing file, or is not in the file it cites; `name` names
    the page in each line."""
    cache: dict[str, list[float]] = {}
    intro: list[str] = []  # the citations of the paragraph a table follows
    previous: Unit | None = None
    for unit in units(markdown):
        cites = _CITE.findall(unit.text)
        if unit.kind == "row":
            if previous is None or previous.kind != "row":
                intro = _CITE.findall(previous.text) if previous is not None else []
            cites = cites or intro
        previous = unit
        found = figures(unit)
        if not found:
            continue
        if not cites:
            shown = ", ".join(figure.text for figure in found[:4])
            yield f"{name} line {unit.line}: {shown} cites no measurements/*.json file"
            continue
        stored: list[float] = []
        for cite in cites:
            if cite not in cache:
                path = root / cite
                cache[cite] = file_figures(path) if path.is_file() else []
                if not path.is_file():
                    yield f"{name} line {unit.line}: cites {cite}, which does not exist"
            stored += cache[cite]
        for figure in found:
            for printed, decimals in figure.numbers:
                if not any(shown_as(printed, decimals, value, figure.scales) for value in stored):
                    yield f"{name} line {figure.line}: {figure.text!r} is not in {', '.join(cites)}"
                    break
