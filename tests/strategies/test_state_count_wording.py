"""`solve` and the docs (docs/perfect-play.md) give the same state counts and say which layers each counts."""

from __future__ import annotations

from pathlib import Path

from doc_pages import page_text

from bot.cli.solve import plan_line
from rummy import DEFAULT_RULES
from strategies.table.margin.build import planned_sizes, table_bytes


def test_solve_and_the_readme_agree_on_the_state_counts() -> None:
    sizes = planned_sizes(DEFAULT_RULES)
    top = len(sizes) - 1
    line = plan_line(Path("t.rvt"), sizes, top, 0, table_bytes(DEFAULT_RULES, top))
    stored, everything = f"{sum(sizes[1:]):,}", f"{sum(sizes):,}"
    assert f"layers 1..{top}, {stored} states stored" in line
    assert f"layer 0's {sizes[0]:,} end-of-round states are scored, not stored" in line
    readme = " ".join(page_text().split())
    assert f"There are {everything} such states" in readme
    holds = f"so the table holds {stored}, the count `solve` prints for layers 1..{top} ({everything} with layer 0)"
    assert holds in readme
    assert f"| full build | {stored} states stored (layers 1..{top})" in readme
