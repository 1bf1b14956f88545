"""The /play setup form fits its panel at a laptop's 1280 px: the Opponent menu, whose options carry each
house bot's note (a long one for `perfect`, or a withdrawn bot's reason), does not overflow it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 390])
def test_the_opponent_menu_stays_inside_its_panel(start_play_server, chromium: Any, width: int) -> None:
    server = start_play_server()
    context = chromium.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        page.goto(server.base + "/play")
        page.wait_for_selector("#opponent option", state="attached")
        panel = page.locator("#setup").bounding_box()
        for control in ("#opponent", "#style", "#coach-strategy", "#coach-objective"):
            box = page.locator(control).bounding_box()
            assert box is not None and panel is not None
            assert box["x"] >= panel["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"] + 0.5, (
                control,
                box,
                panel,
            )
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()
