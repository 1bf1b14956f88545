"""The recipe `python tools/measure.py viewer-load` drives chromium against a real server and writes what it
saw: the cards of a match the server dealt come from the pictures drawn ahead."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tools.recipes.app import app

pytestmark = pytest.mark.browser


def test_measure_viewer_load_writes_the_visits(tmp_path) -> None:
    # Its own module: the command runs a match with asyncio before it opens chromium, which a browser
    # fixture open in the same module would forbid.
    answer = CliRunner().invoke(app, ["viewer-load", "--repeats", "1", "--out", str(tmp_path)])
    assert answer.exit_code == 0, answer.output
    result = json.loads((tmp_path / "viewer-load-cases.json").read_text())
    figures = result["figures"]
    for case in ("dealt_here", "after_restart", "recorded_by_match", "drawn_by_nobody"):
        (visit,) = figures[case]["visits"]
        assert visit["cards_inline"] + visit["cards_fetched"] >= 20 and visit["page_ms"] > 0, case
        assert visit["steps_bytes"] > 0 and 0 < visit["steps_end_ms"] <= visit["page_ms"], case
    # Drawn ahead, kept on disk, or left by `match`: the opening step comes with the steps, nothing drawn then.
    for case in ("dealt_here", "after_restart", "recorded_by_match"):
        (visit,) = figures[case]["visits"]
        assert visit["cards_inline"] == 20 and visit["cards_fetched"] == 0, case
        assert visit["drawn_on_request"] == 0, case
    # (`match` leaves the opening step's cards only: the server may draw the round's deck meanwhile.)
    assert figures["dealt_here"]["visits"][0]["drawn"] == figures["after_restart"]["visits"][0]["drawn"] == 0
    # Drawn by nobody before: nothing comes with the steps, and the server draws the pictures during the visit
    # (on the page's request, or first in its own drawing ahead: which wins that race depends on the load).
    (visit,) = figures["drawn_by_nobody"]["visits"]
    assert visit["cards_inline"] == 0 and visit["drawn"] > 0
    assert result["command"][:3] == ["python", "tools/measure.py", "viewer-load"] and result["cpu_seconds"] > 0
