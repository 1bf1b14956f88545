"""A link to a finished match's step: the page comes in one answer (stylesheet and script inline), its head asks
for the steps (with that step's pictures inline) at once, and the script uses that answer instead of asking again."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

IMAGES_LOADED = """selector => {
    const images = [...document.querySelectorAll(selector)];
    return images.length > 0 && images.every(image => image.complete && image.naturalWidth > 0);
}"""


def test_the_page_comes_in_one_answer_and_asks_for_the_steps_at_once(start_viewer_server, finished_game, page) -> None:
    server = start_viewer_server()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server.base + f"/viewer#game/{finished_game}/step/2")
    page.wait_for_selector("#step-controls:not([hidden])")
    assert page.locator("#step-counter").inner_text().startswith("Step 2 ")
    # The page, then straight away the steps (with step 2's pictures): no stylesheet or script to wait for.
    assert asked[:2] == [server.base + "/viewer", server.base + f"/viewer/api/games/{finished_game}/steps?pictures=2"]
    assert not [url for url in asked if "/viewer/static/" in url]


def test_the_script_takes_the_early_answer_and_asks_once(start_viewer_server, finished_game, page) -> None:
    server = start_viewer_server()
    server.get(f"/viewer/api/games/{finished_game}/steps")  # its pictures drawn, as a page opened before
    assert server.app.state.images.wait_prerendered(timeout=120)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server.base + f"/viewer#game/{finished_game}/step/0")
    page.wait_for_function(IMAGES_LOADED, arg=".board img")
    assert page.locator(".board img").count() == 20
    assert [url for url in asked if "/viewer/api/" in url] == [
        server.base + f"/viewer/api/games/{finished_game}/steps?pictures=0"
    ]
    assert not [url for url in asked if "/cards/" in url]  # the step's pictures came inline
    # Stepping on asks for the next pictures by URL (the early answer is used once).
    page.click("#next")
    page.wait_for_function(IMAGES_LOADED, arg=".board img")
    assert page.locator("#step-counter").inner_text().startswith("Step 1 ")
