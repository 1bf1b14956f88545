"""The viewer in Debian's chromium shows what a bot that sees through an erring recognizer believed: its
suggested moves' values say they are expected over the belief, and the cards it was unsure of are listed
with their chances ("giralda 0.62 / koutoubia mosque 0.31"); a bot with true labels gets no such words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from rummy.belief import EXPECTED

pytestmark = pytest.mark.browser

CHANCE = re.compile(r"[a-z] 0\.\d\d\b")


def test_a_step_decided_on_a_belief_shows_it(start_viewer_server: Any, db_path: Path, page: Any) -> None:
    seer = play_round("display:viewer", (Contender("heuristic", "harsh:0.1", shown="seer"), Contender("greedy")))
    sighted = play_round("display:viewer", (Contender("heuristic", shown="sighted"), Contender("greedy")))
    _path, (seer_id,) = store_rounds(db_path, [(seer, 0)], ("seer", "greedy"))
    _path, (sighted_id,) = store_rounds(db_path, [(sighted, 0)], ("sighted", "greedy"))
    server = start_viewer_server()

    steps = httpx.get(server.base + f"/viewer/api/games/{seer_id}/steps", timeout=60).json()["Steps"]
    step = next(step for step in steps if step.get("Suggestions") and step["Suggestions"][0].get("Expected"))
    page.goto(server.base + f"/viewer#game/{seer_id}/step/{step['Step']}")
    page.wait_for_selector("#suggestions:not([hidden])")
    kinds = page.locator("#suggestions td.value-kind").all_inner_texts()
    assert kinds and all(kind.endswith(EXPECTED) for kind in kinds), kinds
    assert EXPECTED in page.inner_text("#suggestions .belief-note")
    beliefs = page.locator("#suggestions ul.beliefs li").all_inner_texts()
    assert beliefs and all(line.startswith("card ") or "laid unseen" in line for line in beliefs), beliefs
    assert any(CHANCE.search(line) for line in beliefs), beliefs
    assert [item["What"] + ": " + item["Belief"] for item in step["Suggestions"][0]["Beliefs"]] == beliefs
    page.locator("#suggestions").screenshot(path=str(db_path.parent / "beliefs.png"))

    # The same deal seen with true labels, where the opponent opened with nothing unseen: exact values, no belief.
    steps = httpx.get(server.base + f"/viewer/api/games/{sighted_id}/steps", timeout=60).json()["Steps"]
    step = next(step for step in steps if step.get("Suggestions") and not step["Suggestions"][0].get("Expected"))
    page.goto(server.base + f"/viewer#game/{sighted_id}/step/{step['Step']}")
    page.reload()
    page.wait_for_selector("#suggestions:not([hidden])")
    assert EXPECTED not in page.inner_text("#suggestions")
    assert page.locator("#suggestions ul.beliefs").count() == 0
