"""Every hint that names `rummy-vision solve` says what that command will build and what it costs (or names a
smaller build): plain `solve` builds the margin table (1.1 GB, a few CPU minutes) and then the win table
(2.73 GB, about 22 CPU minutes), so a hint that calls it "about 4 CPU minutes, 1.1 GB" misleads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXEMPT: set[str] = set()  # files whose hints are checked elsewhere (none)
PLAIN_SOLVE = re.compile(r"rummy-vision solve(?![ \w-]*--(verify|top|win-top|margin-only|out))")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _texts(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_texts(part) if not isinstance(part, ast.FormattedValue) else "{}" for part in node.values)
    return ""


def hints_naming_solve() -> list[tuple[str, str]]:
    """(file:line, text) of every string a user can see that names plain `rummy-vision solve`."""
    found = []
    for folder in ("strategies", "bot", "server", "rummy"):
        for path in (REPO / folder).rglob("*.py"):
            if str(path.relative_to(REPO)) in EXEMPT:
                continue
            tree = ast.parse(path.read_text())
            skip = _docstrings(tree)
            inner = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
            for node in ast.walk(tree):
                if id(node) in skip or id(node) in inner:
                    continue
                text = _texts(node)
                if text and PLAIN_SOLVE.search(text):
                    found.append((f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}", text))
    return found


def test_every_hint_naming_solve_says_what_it_builds_and_costs() -> None:
    hints = hints_naming_solve()
    assert hints  # the scan finds the hints it is about
    wrong = [
        (where, text)
        for where, text in hints
        if "2.73 GB" not in text and "22 CPU minutes" not in text and "--margin-only" not in text
    ]
    assert not wrong, wrong
    assert not [where for where, text in hints if "about 4 CPU minutes" in text]


def test_the_missing_table_hint_names_both_tables_costs(tmp_path: Path) -> None:
    from strategies.table.disk.files import TableError
    from strategies.table.margin.fileformat import load_table

    try:
        load_table(tmp_path / "none.rvt")
    except TableError as error:
        said = str(error)
    else:
        raise AssertionError("no table, yet loaded")
    assert "--margin-only" in said and "1.1 GB" in said and "2.73 GB" in said, said
