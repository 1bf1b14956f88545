"""`rummy-vision measure viewer-load` drives chromium against a real server and writes what it saw: the cards
of a match the server dealt come from the pictures drawn ahead."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bot.cli import app

pytestmark = pytest.mark.browser


def test_measure_viewer_load_writes_the_visits(tmp_path) -> None:
    # Its own module: the command runs a match with asyncio before it opens chromium, which a browser
    # fixture open in the same module would forbid.
    answer = CliRunner().invoke(app, ["measure", "viewer-load", "--repeats", "1", "--out", str(tmp_path)])
    assert answer.exit_code == 0, answer.output
    result = json.loads((tmp_path / "viewer-load.json").read_text())
    dealt, elsewhere = result["figures"]["dealt_here"], result["figures"]["not_dealt_here"]
    for case in (dealt, elsewhere):
        (visit,) = case["visits"]
        assert visit["cards_fetched"] == 20 and visit["page_ms"] > 0 and visit["mean_card_bytes"] > 0
    assert dealt["drawn_on_request"] == 0
    assert result["command"][:3] == ["rummy-vision", "measure", "viewer-load"] and result["cpu_seconds"] > 0
