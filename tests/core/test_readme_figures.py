"""Every figure the README and the docs/ pages quote stands on the measurements/*.json file it cites beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from doc_pages import README, pages
from readme_figures import RULES, SETTINGS, figures, problems, units

ROOT = Path(__file__).resolve().parents[2]


def test_every_readme_figure_is_in_the_measurement_file_it_cites() -> None:
    found = [
        line
        for page in pages()
        for line in problems(page.read_text(encoding="utf-8"), ROOT, str(page.relative_to(ROOT)))
    ]
    assert not found, "figures of the README or docs/ without stored evidence:\n" + "\n".join(found)


def _stored(tmp_path: Path, name: str, values: object) -> None:
    folder = tmp_path / "measurements"
    folder.mkdir(exist_ok=True)
    stored = {"figures": values, "settings": {"rounds": 999}, "wall_seconds": 61.2}
    (folder / name).write_text(json.dumps(stored), encoding="utf-8")


def test_a_figure_that_drifted_from_its_file_is_named(tmp_path: Path) -> None:
    _stored(tmp_path, "duel.json", {"rate": 0.772, "low": 0.753, "high": 0.790, "rounds": 2000, "margin": 20.94})
    good = "`perfect` won 77.2% of 2,000 rounds (75.3-79.0%), mean margin +20.9 (`measurements/duel.json`).\n"
    assert list(problems(good, tmp_path)) == []
    drifted = good.replace("77.2%", "78.2%")
    assert [line for line in problems(drifted, tmp_path)] == ["README line 1: '78.2%' is not in measurements/duel.json"]
    assert list(problems(good.replace("+20.9", "-20.9"), tmp_path)) == [
        "README line 1: '-20.9' is not in measurements/duel.json"
    ]
    # The run's own cost counts; its settings do not (999 is an option, echoed back).
    assert list(problems("It took 61 s (`measurements/duel.json`).\n", tmp_path)) == []
    assert list(problems("It played 999 of 1,000 (`measurements/duel.json`).\n", tmp_path)) == [
        "README line 1: '999 of 1,000' is not in measurements/duel.json"
    ]


def test_a_figure_without_a_file_or_with_a_missing_file_is_named(tmp_path: Path) -> None:
    assert list(problems("The build takes 107 s with 2 workers.\n", tmp_path)) == [
        "README line 1: 107 s cites no measurements/*.json file"
    ]
    assert list(problems("It won 85 of 100 rounds (measurements/gone.json).\n", tmp_path))[0] == (
        "README line 1: cites measurements/gone.json, which does not exist"
    )


def test_units_scales_and_printed_precision(tmp_path: Path) -> None:
    _stored(
        tmp_path, "table.json", {"bytes": 1106976592, "lookup_seconds": 3.46e-6, "p95_ms": 557.0, "states": 24209692}
    )
    text = "A 1.107 GB table; 3.5 us a look-up; p95 0.56 s; 24.2 M states at the peak (measurements/table.json).\n"
    assert list(problems(text, tmp_path)) == []
    assert list(problems(text.replace("24.2 M", "24.3 M"), tmp_path)) == [
        "README line 1: '24.3 M' is not in measurements/table.json"
    ]


def test_a_table_row_may_lean_on_the_paragraph_that_introduces_it(tmp_path: Path) -> None:
    _stored(tmp_path, "strength.json", [{"rate": 0.854, "low": 0.831, "high": 0.875, "margin": 25.4}])
    text = (
        "Strength (`measurements/strength.json`):\n\n"
        "| against | wins | interval | margin |\n|---|---|---|---|\n"
        "| `greedy` | 85.4% | 83.1-87.5% | +25.4 |\n"
        "| `heuristic` | 64.4% | 61.4-67.3% | +34.1 |\n"
    )
    assert list(problems(text, tmp_path)) == [
        f"README line 6: {figure!r} is not in measurements/strength.json" for figure in ("64.4%", "61.4-67.3%", "+34.1")
    ]


def test_code_and_rules_are_not_figures(tmp_path: Path) -> None:
    text = "```bash\nrummy-vision solve  # 107 s\n```\n\nUse `--nodes 20000`; one round, 5 s per move.\n"
    assert [figures(unit) for unit in units(text)] == [[]]
    # A bare count in a text that cites nothing is no claim; in one that cites a file it is (below).
    assert list(problems("Style 1 plays 5 rounds a match.\n", tmp_path)) == []
    assert list(problems("At load 5.4 it plays 3.4x faster.\n", tmp_path)) == [
        "README line 1: 5.4, 3.4x cites no measurements/*.json file"
    ]
    assert len(RULES) <= 30 and len(SETTINGS) <= 10  # the exemptions stay few enough to read


def test_a_bare_count_in_a_text_that_cites_a_file_is_checked(tmp_path: Path) -> None:
    _stored(tmp_path, "duel.json", {"wins": 1117, "rounds": 2000})
    assert list(problems("It won 1117 rounds (`measurements/duel.json`).\n", tmp_path)) == []
    assert list(problems("It won 1118 rounds (`measurements/duel.json`).\n", tmp_path)) == [
        "README line 1: '1118' is not in measurements/duel.json"
    ]
    # 999 is a setting (the rounds asked for): it counts where the text presents it as one, never as a result.
    assert list(problems("It won 999 rounds (`measurements/duel.json`).\n", tmp_path)) == [
        "README line 1: '999' is not in measurements/duel.json"
    ]
    assert list(problems("It won 1117 of 999 rounds (`measurements/duel.json`).\n", tmp_path)) == []


def test_a_figure_is_found_only_among_measured_results(tmp_path: Path) -> None:
    folder = tmp_path / "measurements"
    folder.mkdir()
    stored = {
        "command": ["rummy-vision", "measure", "duel", "--rounds", "20000", "--name", "duel-nodes-459000"],
        "source": {"commit": "705e759e2314cae6bb03f03b19f02b351cd391e2", "dirty": False},
        "seeds": {"deals": "0..9999"},
        "settings": {"rounds": 20000, "judge": "/root/tables/win-9610071ea705a8f0.rvw"},
        "machine": {"cores": 2},
        "load": {"before": [0.71, 0.95, 1.21], "after": [1.46, 1.12, 1.25]},
        "wall_seconds": 33.0,
        "figures": {"rate": 0.571, "judge": "/root/tables/win-9610071ea705a8f0.rvw", "note": "won 12345 rounds"},
    }
    (folder / "duel.json").write_text(json.dumps(stored), encoding="utf-8")
    # Each number is in the file, but not among its results: in a path or a hash, its file name, a note written in
    # its figures, its settings, its load.
    named = {"705 ms": "705 ms", "459000 nodes": "459000", "12345 rounds": "12345", "20000 wins": "20000"}
    for text, figure in {**named, "1.46 points": "1.46", "0.95 s": "0.95 s"}.items():
        assert list(problems(f"It took {text} (`measurements/duel.json`).\n", tmp_path)) == [
            f"README line 1: {figure!r} is not in measurements/duel.json"
        ]
    # The same numbers where the text presents them as what they are: the run's settings, machine and load.
    good = (
        "Over 20000 rounds (deals 0..9999) on 2 cores at load 1.46, it won 57.1% in 33 s (`measurements/duel.json`).\n"
    )
    assert list(problems(good, tmp_path)) == []
    assert list(problems(good.replace("load 1.46", "load 3"), tmp_path)) == [
        "README line 1: 'load 3' is not in the load of measurements/duel.json"
    ]
    assert list(problems(good.replace("deals 0..9999", "deals 0..9998"), tmp_path)) == [
        "README line 1: 'deals 0..9998' is not in the settings of measurements/duel.json"
    ]


def test_a_multiple_or_a_comparison_must_follow_from_two_figures_printed_beside_it(tmp_path: Path) -> None:
    first = {"seconds": 224.0, "rate": 0.60, "low": 0.50, "high": 0.70}
    second = {"seconds": 41.0, "rate": 0.555, "low": 0.55, "high": 0.56}
    _stored(tmp_path, "duel.json", {"first": first, "second": second, "layer": 5})
    cite = " (`measurements/duel.json`).\n"
    assert list(problems("224 s against 41 s, 5.5x faster" + cite, tmp_path)) == []
    assert list(problems("224 s against 41 s, a 6x speed-up" + cite, tmp_path)) == [
        "README line 1: '6x' is no quotient or difference of two figures printed beside it from measurements/duel.json"
    ]
    # Not from figures the text does not print (layer 5 is in the file), nor from two of different kinds.
    assert list(problems("a 5x speed-up" + cite, tmp_path))
    assert list(problems("224 s at 55.5%, 4x faster" + cite, tmp_path))
    assert list(problems("60.0% against 55.5%, 8% stronger" + cite, tmp_path)) == []  # 0.600 / 0.555 - 1
    assert list(problems("60.0% against 55.5%, 4.5% stronger" + cite, tmp_path)) == []  # points
    assert list(problems("60.0% against 55.5%, 9% stronger" + cite, tmp_path))
    # Two intervals' widths: 50-70% is 20 times as wide as 55-56%, not ten.
    assert list(problems("50-70% against 55-56%, 20 times wider" + cite, tmp_path)) == []
    assert list(problems("50-70% against 55-56%, ten times wider" + cite, tmp_path)) == [
        "README line 1: 'ten times' is no quotient or difference of two figures printed beside it from "
        "measurements/duel.json"
    ]


INVENTED = [  # the audit: each passed the old check beside a real file; the figure it is named by
    ("won 12345 rounds", "duel-perfect-vs-perfect-objective-margin-20000.json", "12345"),
    ("3.4x faster", "table-build.json", "3.4x"),
    ("a 5x speed-up", "table-build.json", "5x"),
    ("459000 nodes a second", "duel-perfect-vs-expectimax-objective-win-nodes-459000.json", "459000"),
    ("8% stronger", "duel-perfect-vs-perfect-objective-margin-20000.json", "8% stronger"),
    ("705 ms", "win-table-build.json", "705 ms"),  # digits of the win table's hashed file name
    ("1.46 points", "duel-perfect-vs-perfect-objective-margin-20000.json", "1.46"),  # a load average of the run
]


@pytest.mark.parametrize(("sentence", "name", "figure"), INVENTED)
def test_an_invented_figure_beside_a_real_file_is_named(sentence: str, name: str, figure: str) -> None:
    """Added to the README, or into the first paragraph of the docs that cites the file, each is named."""
    cite = f"`measurements/{name}`"
    readme = README.read_text(encoding="utf-8") + f"\n`perfect` {sentence} ({cite}).\n"
    page = next(page for page in pages() if cite in page.read_text(encoding="utf-8"))
    text = page.read_text(encoding="utf-8")
    assert list(problems(text, ROOT)) == []
    for changed in (readme, text.replace(cite, f"{sentence}; {cite}", 1)):
        found = list(problems(changed, ROOT))
        assert len(found) == 1 and f": {figure!r} is" in found[0], found
