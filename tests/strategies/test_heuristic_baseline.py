"""`heuristic` against the 40-line "lay any set, else give the rarest card" bot: the stored result is
reproduced, and the docs say what it shows."""

from __future__ import annotations

import json
from pathlib import Path

from doc_pages import page_text

from tools.recipes.baseline_bot import FIXTURE, baseline_duel

REPO = Path(__file__).resolve().parents[2]


def test_the_fixture_bot_is_a_forty_line_bot() -> None:
    code = [line for line in FIXTURE.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert len(code) <= 40


def test_the_stored_result_replays_and_the_readme_quotes_it() -> None:
    stored = json.loads((REPO / "measurements" / "baseline-bot.json").read_text())["figures"]
    deals = stored["rounds"] // 2
    fresh = baseline_duel(stored["player"], deals, stored["deal_seeds"][0])
    assert (fresh["won"], fresh["rounds"], round(fresh["mean_margin"], 3)) == (
        stored["won"],
        stored["rounds"],
        round(stored["mean_margin"], 3),
    )
    readme = " ".join(page_text().split())
    quoted = f"wins {stored['won']} of {stored['rounds']} rounds ({stored['win_rate']:.1%},"
    assert quoted in readme and "measurements/baseline-bot.json" in readme
