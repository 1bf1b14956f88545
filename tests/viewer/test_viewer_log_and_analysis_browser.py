"""The viewer in Debian's chromium: a step shows its mover's log (what the bot printed while choosing, as the
arena's editor does), and "analyse this position" ranks the moves of the player to move, as `replay
--position` then `analyze` does."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from bot.cli import app

pytestmark = pytest.mark.browser

PRINTER = """
N = 0

def calculate_move(gamestate):
    global N
    N += 1
    print(f"thinking about move {N}")
    return {"Give": gamestate["MyHand"][0][0]}
"""


def test_a_step_shows_its_log_and_analyses_its_position(start_viewer_server, db_path, page, tmp_path: Path) -> None:
    bot = tmp_path / "printer.py"
    bot.write_text(PRINTER, encoding="utf-8")
    result = CliRunner().invoke(app, ["match", str(bot), "greedy", "--rounds", "1", "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    [game_id] = json.loads(result.stdout.strip().splitlines()[-1])["records"]["game_ids"]
    server = start_viewer_server()
    steps = httpx.get(server.base + f"/viewer/api/games/{game_id}/steps", timeout=60).json()["Steps"]
    logged = next(step for step in steps if step.get("Log"))

    page.goto(server.base + f"/viewer#game/{game_id}/step/{logged['Step']}")
    page.wait_for_selector("#bot-log:not([hidden])")
    assert "thinking about move" in page.inner_text("#bot-log") and "printer" in page.inner_text("#bot-log")
    page.goto(server.base + f"/viewer#game/{game_id}/step/0")
    page.reload()
    page.wait_for_selector("#step-controls:not([hidden])")
    assert page.locator("#bot-log").is_hidden()  # the deal: nobody chose anything

    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.click("#position-analysis button.analyse")
    try:
        page.wait_for_selector("#position-analysis table", timeout=120_000)
    except Exception:
        raise AssertionError(f"{page.inner_text('#position-analysis')!r}; console errors {errors}") from None
    shown = page.eval_on_selector_all("#position-analysis tr td:nth-child(2)", "cells => cells.map(c => c.textContent)")
    analysis = httpx.get(server.base + f"/viewer/api/games/{game_id}/steps/0/analysis", timeout=120).json()
    assert [json.loads(cell) for cell in shown] == [ranked["move"] for ranked in analysis["moves"]]
