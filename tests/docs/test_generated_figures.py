"""The measured figures the README and docs/ print between `<!-- fig ... -->` markers are what `tools/figures.py`
makes of the measurements/*.json files: a figure typed by hand, or left behind when its file was measured again,
fails here with its page, line, file, field, and the expected and found text (`python tools/figures.py --write`
fills them in)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from doc_pages import REPO, pages


def _tool() -> ModuleType:
    """tools/figures.py, a development script outside the installed packages, loaded from its file."""
    spec = importlib.util.spec_from_file_location("figures_tool", REPO / "tools" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


figures = _tool()


def _checker() -> ModuleType:
    """tests/core/readme_figures.py, the check of the text a reader sees, loaded from its file."""
    spec = importlib.util.spec_from_file_location("readme_figures_for_markers", REPO / "tests/core/readme_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# Figures beside a cited file that stay typed: each is no value of the file (the page names why).
TYPED = {
    ("docs/perfect-play.md", "1.5e-4"),  # 20 / 131070, the 16-bit format's worst error, worked out from the rules
    ("docs/viewer.md", "200 ms"),  # the goal the visits are counted against, not a result
    ("docs/belief.md", "46%"),  # issue 38's aim for noisy:0.1, not a result
}


def test_every_page_holds_the_figures_its_files_give() -> None:
    found = figures.check(REPO, pages())
    assert not found, "figures that differ from measurements/ (python tools/figures.py --write):\n" + "\n".join(found)


def test_the_pages_hold_figure_markers() -> None:
    """The tool reads the pages the other documentation tests read, the pages use it, and it finds every marker
    outside code blocks (a stray backtick that made one look like inline code would leave it unchecked)."""
    assert sorted(figures.pages(REPO)) == sorted(pages())
    count = sum(1 for page in pages() for _ in figures.markers(page.read_text(encoding="utf-8")))
    written = 0
    for page in pages():
        blocks = re.split(r"^\s*```", page.read_text(encoding="utf-8"), flags=re.M)
        written += sum(block.count("<!-- fig ") for block in blocks[::2])  # outside code blocks
    assert count == written and count >= 400


def test_no_measured_figure_beside_a_cited_file_is_typed_by_hand() -> None:
    """In a paragraph, item or row that cites a measurement file, every percentage, quantity with a unit, decimal,
    signed number and "N of M" is a marker's text. Left to tests/core/test_readme_figures.py: bare counts (layer
    and turn numbers are structure), settings phrases (seeds, cores, load) and multiples worked out from two
    figures printed beside them."""
    checker = _checker()
    typed = []
    for page in pages():
        name = str(page.relative_to(REPO))
        text = figures.MARKER.sub("marked", page.read_text(encoding="utf-8"))
        for unit, cites in checker.cited_units(text):
            for figure in checker.figures(unit, settings=bool(cites)) if cites else []:
                if figure.kind in ("quantity", "plain", "signed", "ratio") and (name, figure.text) not in TYPED:
                    typed.append(f"{name} line {unit.line}: {figure.text!r}")
    assert not typed, "measured figures typed by hand (wrap them: docs/development.md):\n" + "\n".join(typed)


def test_markers_shown_as_code_are_examples(tmp_path: Path) -> None:
    text = "Write `<!-- fig gone.json x:d -->1<!-- /fig -->`:\n\n```markdown\n<!-- fig gone.json x:d -->1\n```\n"
    assert list(figures.markers(text)) == []
    assert figures.fill(text, figures.Files(_root(tmp_path, DUEL))) == (text, [])


def _root(tmp_path: Path, data: object, name: str = "duel.json") -> Path:
    (tmp_path / "measurements").mkdir(exist_ok=True)
    (tmp_path / "measurements" / name).write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


DUEL = {
    "command": ["rummy-vision", "measure", "duel"],
    "wall_seconds": 61.23,
    "figures": {
        "rows": [{"rate": 0.772, "low": 0.7531, "margin": -20.94, "wins": 1544}],
        "rounds": 2000,
        "harsh:0.1": {"rate": 0.11},
    },
}


def test_a_drifted_figure_is_named_with_its_file_key_and_both_values(tmp_path: Path) -> None:
    root = _root(tmp_path, DUEL)
    good = "won <!-- fig duel.json rows[0].rate:.1% -->77.2%<!-- /fig --> of the rounds\n"
    assert figures.problems(good, figures.Files(root), "README.md") == []
    drifted = good.replace("77.2%<", "78.2%<")
    assert figures.problems(drifted, figures.Files(root), "README.md") == [
        "README.md line 1: measurements/duel.json rows[0].rate:.1% gives '77.2%', the page has '78.2%'"
    ]
    # --write puts the file's figure back; the text around it stays as it was.
    filled, errors = figures.fill(drifted, figures.Files(root))
    assert (filled, errors) == (good, [])


def test_formats_expressions_and_a_file_named_once(tmp_path: Path) -> None:
    root = _root(tmp_path, DUEL)
    page = (
        "Duels: <!-- fig-file duel.json -->\n"
        "| <!-- fig rows[0].low*100:.1f -->75.3<!-- /fig -->% | <!-- fig rows[0].margin:+.1f -->-20.9<!-- /fig --> |"
        " <!-- fig rows[0].wins:,d -->1,544<!-- /fig --> of <!-- fig rounds:d -->2000<!-- /fig --> |"
        " <!-- fig wall_seconds/60:.1f -->1.0<!-- /fig --> minutes |"
        " <!-- fig rows[0].wins/rounds:.3f -->0.772<!-- /fig --> |"
        " <!-- fig figures['harsh:0.1'].rate:.0% -->11%<!-- /fig --> |"
        " <!-- fig max(each(rows, 'wins')[:1]):d -->1544<!-- /fig --> |\n"
    )
    assert figures.problems(page, figures.Files(root)) == []
    assert figures.find(DUEL, "+20.9") == [] and "rows[0].margin:.1f" in figures.find(DUEL, "-20.9")
    assert figures.find(DUEL, "75.3") == ["rows[0].low*100:.1f"]
    assert figures.find(DUEL, "11%") == ["figures['harsh:0.1'].rate:.0%"]  # a key that is no name


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("<!-- fig gone.json rate:.1% -->1%<!-- /fig -->", "measurements/gone.json does not exist"),
        ("<!-- fig duel.json rows[1].rate:.1% -->1%<!-- /fig -->", "no 1 in rows"),
        ("<!-- fig duel.json speed:.1f -->1<!-- /fig -->", "no key 'speed'"),
        ("<!-- fig duel.json __import__('os'):s -->1<!-- /fig -->", "is not allowed"),
        ("<!-- fig duel.json rounds/(wall_seconds-wall_seconds):d -->1<!-- /fig -->", "fails: float division by zero"),
        ("<!-- fig duel.json rows+1:d -->1<!-- /fig -->", "fails"),
        ("<!-- fig duel.json rows[0]:d -->1<!-- /fig -->", "the value is a dict, not a number"),
        ("<!-- fig rounds:d -->2000<!-- /fig -->", "names no file"),
        ("<!-- fig duel.json rounds:d -->2000", "not closed"),
        ("\n<!-- fig duel.json rounds:d -->2000<!-- /fig -->", "starts the line"),
    ],
)
def test_a_marker_that_cannot_be_filled_says_why(tmp_path: Path, text: str, said: str) -> None:
    found = figures.problems(f"It won {text}\n", figures.Files(_root(tmp_path, DUEL)))
    assert len(found) == 1 and said in found[0], found


def test_a_run_that_did_not_finish_is_not_quoted(tmp_path: Path) -> None:
    cut = DUEL | {"figures": DUEL["figures"] | {"unfinished": "1 of 3 rows measured; the run did not finish"}}
    found = figures.problems(
        "It won <!-- fig duel.json rounds:d -->2000<!-- /fig -->\n", figures.Files(_root(tmp_path, cut))
    )
    assert len(found) == 1 and "did not finish (1 of 3 rows measured" in found[0], found


def test_the_command_checks_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text("Played <!-- fig duel.json rounds:d -->1999<!-- /fig -->\n", encoding="utf-8")
    root = _root(tmp_path, DUEL)
    assert figures.check(root, [page]) == [
        "page.md line 1: measurements/duel.json rounds:d gives '2000', the page has '1999'"
    ]
    assert figures.write(root, [page]) == ([page], [])
    assert page.read_text(encoding="utf-8") == "Played <!-- fig duel.json rounds:d -->2000<!-- /fig -->\n"
    assert figures.check(root, [page]) == []
