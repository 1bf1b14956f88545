"""Every figure the README and the docs/ pages quote stands on the measurements/*.json file it cites beside it."""

from __future__ import annotations

import json
from pathlib import Path

from doc_pages import pages
from readme_figures import RULES, figures, problems, units

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


def test_code_and_rules_are_not_figures() -> None:
    text = "```bash\nrummy-vision solve  # 107 s\n```\n\nUse `--nodes 20000`; style 1: one round, 5 s per move.\n"
    assert [figures(unit) for unit in units(text)] == [[]]
    assert len(RULES) <= 30  # the exemptions stay few enough to read
