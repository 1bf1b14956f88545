"""The documentation the tests read: README.md (the first page) and the pages of docs/, in reading order.

The order is the README's, then `nav` of mkdocs.yml: the order a newcomer reads them, and the order the
README walk (tests/bot/test_readme_walk.py) runs their commands in. A test that checks what the
documentation says reads every page through here, so moving a paragraph from one page to another never
hides it from a test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MKDOCS = REPO / "mkdocs.yml"
DOCS = REPO / "docs"


def _nav_files(entry: Any) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, list):
        return [name for item in entry for name in _nav_files(item)]
    if isinstance(entry, dict):
        return [name for value in entry.values() for name in _nav_files(value)]
    return []


def doc_pages() -> list[Path]:
    """docs/'s pages in the order of mkdocs.yml's nav."""
    config = yaml.safe_load(MKDOCS.read_text(encoding="utf-8"))
    return [DOCS / name for name in _nav_files(config["nav"])]


def pages() -> list[Path]:
    """README.md, then every docs/ page in nav order."""
    return [README, *doc_pages()]


def visible(text: str) -> str:
    """A page's text as its reader sees it: without HTML comments, such as the figure markers of
    tools/figures.py around each measured figure."""
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def page_text() -> str:
    """Every page's text as a reader sees it, one after the other, in reading order."""
    return "\n\n".join(visible(page.read_text(encoding="utf-8")) for page in pages())


def bash_blocks() -> list[str]:
    """The ```bash blocks of every page, in reading order."""
    return [block for page in pages() for block in re.findall(r"```bash\n(.*?)```", page.read_text("utf-8"), re.S)]


def shell_lines() -> list[str]:
    """The `rummy-vision` commands and `export` lines of the bash blocks, comments and a trailing "&" dropped,
    each once: a line shown on two pages (the README's short path repeats a few) counts where it first appears."""
    found: list[str] = []
    for block in bash_blocks():
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line.strip()).rstrip(" &")
            for part in re.split(r"\s*&&\s*", line):
                wanted = part.startswith(("rummy-vision ", ".venv/bin/rummy-vision ", "export "))
                if wanted and part not in found:
                    found.append(part)
    return found


def commands() -> list[str]:
    """The `rummy-vision` commands of every page's bash blocks, in reading order, each once."""
    return [line for line in shell_lines() if not line.startswith("export ")]
