"""The documentation builds and holds together: `mkdocs build --strict` passes (no broken link or anchor, no page
left out of nav), and the README stays a short first page whose examples are real."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from doc_pages import DOCS, MKDOCS, README, REPO, doc_pages

from rummy import GAMESTATE_KEYS, Match, parse_move, render_gamestate

# A first page still, with the one table a bot author must see there: what misread cards cost (issue 38).
FIRST_PAGE_LINES = 90


def test_mkdocs_builds_the_pages_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(MKDOCS), "--site-dir", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "WARNING" not in said, said[-3000:]
    assert (tmp_path / "index.html").is_file() and (tmp_path / "perfect-play" / "index.html").is_file()


def test_every_docs_page_is_in_the_nav() -> None:
    assert sorted(doc_pages()) == sorted(DOCS.glob("*.md"))


def test_the_readme_is_a_short_first_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= FIRST_PAGE_LINES
    # The two commands, exactly as CI and the fresh-clone runs use them.
    run_it = "bash .ci/setup && source .venv/bin/activate\nrummy-vision match expectimax greedy --duplicate"
    assert f"```bash\n{run_it}\n```" in text
    assert "```bash\nbash .ci/test\n```" in text


def test_the_readme_links_resolve() -> None:
    """The README is read on the repository's file view, not in the site: its links point at files there, and a
    link into docs/ with an anchor names a heading of that page."""
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        assert (REPO / path).is_file(), link
        if anchor:
            headings = re.findall(r"^#+ (.+)$", (REPO / path).read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower()) for heading in headings}
            assert anchor in slugs, link


def test_the_readme_gamestate_has_the_referees_keys() -> None:
    block = re.search(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block is not None
    shown = json.loads(block.group(1))
    match = Match(seed=42)
    real = render_gamestate(match, match.current.mover)
    assert set(shown) == set(GAMESTATE_KEYS) == set(real)
    assert {key: type(value) for key, value in shown.items()} == {key: type(value) for key, value in real.items()}


def test_the_readme_minimal_bot_plays_legal_moves() -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block is not None
    bot: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), bot)
    match = Match(seed=7)
    moves = 0
    while not match.over:
        mover = match.current.mover
        assert mover is not None
        match.apply(mover, parse_move(bot["calculate_move"](render_gamestate(match, mover))))  # type: ignore[operator]
        moves += 1
    assert moves > 0
