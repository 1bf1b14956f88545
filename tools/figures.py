"""Fill the measured figures of README.md and docs/*.md in from the measurements/*.json files they come from.

A figure on a page is written between two HTML comments, which neither GitHub nor MkDocs shows:

    won <!-- fig noise-cost-perfect-same.json rows[2].rate:.1% -->41.0%<!-- /fig --> of the rounds

The opening comment names the file in `measurements/`, then a field as in a Python f-string: a key path into the
file (`rows[2].rate` is `figures["rows"][2]["rate"]`; a name is looked up in `figures` first, then at the file's
top level, so `wall_seconds` works too), optionally a small arithmetic expression of key paths (`high*100`,
`wall_seconds/60`, `a/b`; `abs`, `min`, `max`, `round`, `len`, `sum` may be called, and `each(layers,
'pairs')[1:]` lists one key of every item from the second on), then after the last `:` a format spec (`.1%`,
`+.1f`, `,d`, `.2f`). A page may name the file once for the markers after it with `<!-- fig-file NAME.json -->`; a
marker that names no file uses the last one named above it. A marker stays on one line and never starts one
(CommonMark reads a line that opens with `<!--` as raw HTML).

`python tools/figures.py --write` rewrites the text between every marker pair from the files;
`python tools/figures.py --check` (the default) changes nothing and lists every figure that differs from what
its file gives, with its page, line, file, field, the expected and the found text; it exits 1 if any does.
`python tools/figures.py --find NAME.json 41.0%` lists the fields of a file that print as a given figure,
to help wrap a new one. A project-development tool: not installed, not imported by the product.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MEASUREMENTS = "measurements"

MARKER = re.compile(r"<!-- fig (?P<field>(?:(?!-->).)+?) -->(?P<text>[^<\n]*)<!-- /fig -->")
FILE_DIRECTIVE = re.compile(r"<!-- fig-file (?P<file>[\w.-]+\.json) -->")
_OPEN = re.compile(r"<!-- fig ")


def _each(items: list[Any], key: str) -> list[Any]:
    """The `key` of every object in `items`: `max(each(layers, 'pairs'))` is the largest layer's."""
    try:
        return [item[key] for item in items]
    except (KeyError, TypeError):
        raise FigureError(f"not every item has {key!r}") from None


_FUNCTIONS: dict[str, Any] = {
    "abs": abs,
    "min": min,
    "max": max,
    "round": round,
    "len": len,
    "sum": sum,
    "each": _each,
}
_OPERATORS: dict[type, Any] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


class FigureError(ValueError):
    """A marker that cannot be filled in: no such file, no such key, an expression or a format not allowed."""


@dataclass(frozen=True)
class Marker:
    """One figure marker of a page: where it is, what it names and the text it holds now."""

    page: str
    line: int
    file: str  # the file's name inside measurements/
    field: str  # the expression and format spec, as written
    text: str  # the text between the two comments

    def __str__(self) -> str:
        return f"{self.page} line {self.line}: measurements/{self.file} {self.field}"


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every page of docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def split_field(field: str) -> tuple[str, str]:
    """The expression and the format spec of a field: split at the last `:` outside brackets and quotes."""
    depth, quote, cut = 0, "", -1
    for index, char in enumerate(field):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == ":" and depth == 0:
            cut = index
    return (field, "") if cut < 0 else (field[:cut], field[cut + 1 :])


def _lookup(data: dict[str, Any], name: str) -> Any:
    figures = data.get("figures")
    if isinstance(figures, dict) and name in figures:
        return figures[name]
    if name in data:
        return data[name]
    raise FigureError(f"no key {name!r} in its figures or at its top level")


def _evaluate(node: ast.AST, data: dict[str, Any]) -> Any:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, data)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
        return node.value
    if isinstance(node, ast.Name):
        return _lookup(data, node.id)
    if isinstance(node, ast.Slice):  # items[1:], items[:-1]
        bounds = [None if part is None else _evaluate(part, data) for part in (node.lower, node.upper, node.step)]
        return slice(*bounds)
    if isinstance(node, ast.Attribute | ast.Subscript):
        holder = _evaluate(node.value, data)
        key = node.attr if isinstance(node, ast.Attribute) else _evaluate(node.slice, data)
        try:
            return holder[key]
        except (KeyError, IndexError, TypeError):
            raise FigureError(f"no {key!r} in {ast.unparse(node.value)}") from None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left, data), _evaluate(node.right, data))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, data)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        if node.keywords:
            raise FigureError("no keyword arguments")
        return _FUNCTIONS[node.func.id](*(_evaluate(argument, data) for argument in node.args))
    raise FigureError(f"{ast.unparse(node)!r} is not allowed (key paths, numbers, + - * / ** and a few functions)")


def value(data: dict[str, Any], expression: str) -> Any:
    """The value of `expression` (key paths and arithmetic) in a measurement file's data."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        raise FigureError(f"{expression!r} is no expression") from None
    try:
        return _evaluate(tree, data)
    except FigureError:
        raise
    except (ArithmeticError, TypeError, ValueError) as error:  # a division by zero, a list where a number goes
        raise FigureError(f"{expression!r} fails: {error}") from None


def render(number: Any, spec: str) -> str:
    """`number` printed with a Python format spec; a whole float may take an integer spec (`d`, `,d`)."""
    if isinstance(number, bool) or not isinstance(number, int | float):
        raise FigureError(f"the value is a {type(number).__name__}, not a number")
    if isinstance(number, float) and spec[-1:] in ("d", "n") and number.is_integer():
        number = int(number)
    if isinstance(number, float) and not math.isfinite(number):
        raise FigureError(f"the value is {number}")
    try:
        return format(number, spec)
    except (ValueError, TypeError) as error:
        raise FigureError(f"cannot format {number!r} with {spec!r}: {error}") from None


class Files:
    """The measurement files, each read once."""

    def __init__(self, root: Path = ROOT) -> None:
        self.folder = root / MEASUREMENTS
        self._cache: dict[str, dict[str, Any]] = {}

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in self._cache:
            path = self.folder / name
            if not path.is_file():
                raise FigureError(f"measurements/{name} does not exist")
            found = json.loads(path.read_text(encoding="utf-8"))
            figures = found.get("figures") if isinstance(found, dict) else None
            if isinstance(figures, dict) and figures.get("unfinished"):
                # A run cut short keeps its finished rows, and says so: it is no result to quote.
                raise FigureError(f"measurements/{name} is from a run that did not finish ({figures['unfinished']})")
            self._cache[name] = found
        return self._cache[name]

    def figure(self, name: str, field: str) -> str:
        """The text the marker `field` of file `name` stands for."""
        expression, spec = split_field(field)
        return render(value(self[name], expression), spec)


def _prose(text: str) -> str:
    """`text` with its code blocks and inline code blanked out, every character kept in its place: markers shown
    as code are examples, not figures."""
    lines, fenced = [], False
    for line in text.split("\n"):
        fence = line.lstrip().startswith("```")
        fenced = fenced != fence
        lines.append(" " * len(line) if fenced or fence else line)
    blank = "\n".join(lines)
    return re.sub(r"`[^`]*`", lambda code: re.sub(r"[^\n]", " ", code.group(0)), blank)


def _scan(text: str, page: str) -> Iterator[tuple[int, re.Match[str], str, str] | str]:
    """Each marker of a page with its line (from 1), its file and its field; or a line saying why it is malformed."""
    default = ""
    for number, line in enumerate(_prose(text).split("\n"), 1):
        complete = list(MARKER.finditer(line))
        if len(_OPEN.findall(line)) != len(complete) or line.count("<!-- /fig -->") != len(complete):
            yield f"{page} line {number}: a figure marker is not closed on its line, or holds a '<'"
        if re.match(r"\s*<!-- fig", line):
            yield f"{page} line {number}: a figure marker starts the line, where GitHub reads the line as raw HTML"
        directives = list(FILE_DIRECTIVE.finditer(line))
        for match in complete:
            for directive in directives:  # a fig-file directive holds for the markers after it, on its line too
                if directive.start() < match.start():
                    default = directive.group("file")
            words = match.group("field").split(None, 1)
            if words[0].endswith(".json") and len(words) == 2:
                yield number, match, words[0], words[1].strip()
            elif default:
                yield number, match, default, match.group("field").strip()
            else:
                yield f"{page} line {number}: {match.group('field')!r} names no file and no fig-file is above it"
        if directives:
            default = directives[-1].group("file")


def markers(text: str, page: str = "README.md") -> Iterator[Marker | str]:
    """The markers of a page in order, or a line saying why a marker is malformed."""
    for item in _scan(text, page):
        yield item if isinstance(item, str) else Marker(page, item[0], item[2], item[3], item[1].group("text"))


def fill(text: str, files: Files, page: str = "README.md") -> tuple[str, list[str]]:
    """The page with every marker's text made what its file gives, and a line for each marker that cannot be."""
    lines = text.split("\n")
    errors: list[str] = []
    edits: list[tuple[int, int, int, str]] = []  # line index, start and end of the text, new text
    for item in _scan(text, page):
        if isinstance(item, str):
            errors.append(item)
            continue
        number, match, name, field = item
        try:
            new = files.figure(name, field)
        except FigureError as error:
            errors.append(f"{page} line {number}: measurements/{name} {field}: {error}")
            continue
        edits.append((number - 1, match.start("text"), match.end("text"), new))
    for index, start, end, new in reversed(edits):
        lines[index] = lines[index][:start] + new + lines[index][end:]
    return "\n".join(lines), errors


def problems(text: str, files: Files, page: str = "README.md") -> list[str]:
    """One line per marker whose text differs from what its file gives, or that cannot be filled in."""
    found = []
    for item in markers(text, page):
        if isinstance(item, str):
            found.append(item)
            continue
        try:
            expected = files.figure(item.file, item.field)
        except FigureError as error:
            found.append(f"{item}: {error}")
            continue
        if expected != item.text:
            found.append(f"{item} gives {expected!r}, the page has {item.text!r}")
    return found


def check(root: Path = ROOT, paths: list[Path] | None = None) -> list[str]:
    """Every problem of every page (README.md and docs/*.md unless `paths` names others)."""
    files = Files(root)
    return [
        line
        for path in paths or pages(root)
        for line in problems(path.read_text(encoding="utf-8"), files, _name(path, root))
    ]


def write(root: Path = ROOT, paths: list[Path] | None = None) -> tuple[list[Path], list[str]]:
    """Fill every page in; the pages changed, and the markers that could not be filled."""
    files, changed, errors = Files(root), [], []
    for path in paths or pages(root):
        text = path.read_text(encoding="utf-8")
        new, found = fill(text, files, _name(path, root))
        errors += found
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed, errors


def _name(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _leaves(item: Any, path: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(item, bool):
        return
    if isinstance(item, int | float):
        yield path, float(item)
    elif isinstance(item, dict):
        for key, inner in item.items():
            step = f".{key}" if key.isidentifier() else f"[{key!r}]"
            # A top-level key that is no name is reached through `figures` (the figures' own key).
            yield from _leaves(inner, f"{path}{step}" if path else (key if key.isidentifier() else f"figures{step}"))
    elif isinstance(item, list):
        for index, inner in enumerate(item):
            yield from _leaves(inner, f"{path}[{index}]")


_SCALES = ["", "*100", "*1000", "*1e6", "/1000", "/1e6", "/1e9", "/60", "/3600"]


def find(data: dict[str, Any], shown: str) -> list[str]:
    """The fields of a file's data that print exactly as `shown` ("41.0%", "+20.9", "1,234", "9.9")."""
    match = re.fullmatch(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(%|e[+-]\d+)?", shown.strip())
    if match is None:
        return []
    sign, whole, decimals, percent = match.groups()
    places = len(decimals or "")
    flags = f"{'+' if sign == '+' else ''}{',' if ',' in whole else ''}"
    specs = [f"{flags}.{places}{(percent or 'f')[0]}"]
    if not decimals and not percent:
        specs.insert(0, f"{flags}d")
    figures = data.get("figures")
    meta = ("format", "name", "command", "commit", "source", "seeds", "settings", "machine", "load", "started")
    tree = figures if isinstance(figures, dict) else {key: item for key, item in data.items() if key not in meta}
    tree = {**tree, **{key: data[key] for key in ("wall_seconds", "cpu_seconds") if key in data and key not in tree}}
    found = []
    for path, _ in _leaves(tree):
        for scale in [""] if percent else _SCALES:
            for spec in specs:
                try:
                    if render(value(data, path + scale), spec) == shown.strip():
                        found.append(f"{path}{scale}:{spec}")
                except (FigureError, ZeroDivisionError):
                    continue
    return list(dict.fromkeys(found))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="list figures that differ from their files (default)")
    mode.add_argument("--write", action="store_true", help="fill every marker in from its file")
    mode.add_argument("--find", nargs=2, metavar=("FILE", "FIGURE"), help="fields of FILE that print as FIGURE")
    parser.add_argument("pages", nargs="*", type=Path, help="pages to read (default: README.md and docs/*.md)")
    options = parser.parse_args(argv)
    if options.find:
        name, shown = options.find
        for field in find(Files()[Path(name).name], shown):
            print(f"<!-- fig {Path(name).name} {field} -->{shown}<!-- /fig -->")
        return 0
    paths = [path.resolve() for path in options.pages] or None
    if options.write:
        changed, errors = write(ROOT, paths)
        for path in changed:
            print(f"wrote {_name(path, ROOT)}")
        print("\n".join(errors), file=sys.stderr) if errors else None
        return 1 if errors else 0
    found = check(ROOT, paths)
    if found:
        print("figures that differ from measurements/:\n" + "\n".join(found), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
