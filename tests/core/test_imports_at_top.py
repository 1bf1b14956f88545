"""Imports stand at a module's top unless a comment says why (issue 42): an import inside a function hides
what the module depends on, so each one carries its reason.

An import inside a function passes when a comment on its line or on the line right above it gives the
reason, or when the module declares one reason for all of them in a line starting with
`# Imports inside functions:` at module level (a command module that keeps `rummy-vision --help` and the
other commands from loading the search, the server and numba, say). The reasons are read by people,
not checked; what is checked is that none is missing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("rummy", "server", "bot", "strategies", "recognizers")
MODULE_REASON = "# Imports inside functions:"


def inner_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def _said(comment: str) -> bool:
    """A comment that gives a reason: not empty, and not only a linter's `noqa` code."""
    text = re.sub(r"noqa(?::\s*[A-Z]+[0-9]+(?:,\s*[A-Z]+[0-9]+)*)?", "", comment.lstrip("#")).strip(" -:")
    return bool(text)


def has_reason(lines: list[str], node: ast.Import | ast.ImportFrom) -> bool:
    line = lines[node.lineno - 1]
    above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
    inline = line.split("#", 1)[1] if "#" in line else ""
    return _said(inline) or (above.startswith("#") and _said(above))


def unexplained(path: Path) -> list[str]:
    text = path.read_text()
    lines = text.splitlines()
    if any(line.startswith(MODULE_REASON) and len(line) > len(MODULE_REASON) + 8 for line in lines):
        return []
    tree = ast.parse(text)
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return [
        f"{where}:{node.lineno}: {lines[node.lineno - 1].strip()}"
        for node in inner_imports(tree)
        if not has_reason(lines, node)
    ]


def test_every_import_inside_a_function_says_why() -> None:
    found = [
        site for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py")) for site in unexplained(path)
    ]
    assert not found, (
        f"{len(found)} imports inside functions without a reason (move them to the top, or add a comment on "
        f"the line or above it, or one '{MODULE_REASON} ...' line for the module):\n" + "\n".join(found[:60])
    )


def test_a_missing_reason_is_found_and_a_stated_one_accepted(tmp_path: Path) -> None:
    bare = "def f():\n    import json\n    return json\n"
    said = "def f():\n    # json is only needed on this rare path\n    import json\n    return json\n"
    module = f"{MODULE_REASON} commands load their work when run\n\ndef f():\n    import json\n    return json\n"
    hidden = "def f():\n    import json  # noqa: PLC0415\n    return json\n"
    explained = "def f():\n    import json  # noqa: F401 - registers the codec on import\n    return json\n"
    for name, text in {"bare": bare, "said": said, "module": module, "explained": explained}.items():
        (tmp_path / f"{name}.py").write_text(text)
    assert len(unexplained(tmp_path / "bare.py")) == 1
    assert unexplained(tmp_path / "said.py") == []
    assert unexplained(tmp_path / "module.py") == []
    assert unexplained(tmp_path / "explained.py") == []
    (tmp_path / "hidden.py").write_text(hidden)
    assert len(unexplained(tmp_path / "hidden.py")) == 1  # a linter's code is no reason
