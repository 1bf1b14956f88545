"""A link to a finished match's step: the page's head asks for the steps (with that step's pictures inline)
before the viewer's script arrives, and the script uses that answer instead of asking again."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

IMAGES_LOADED = """selector => {
    const images = [...document.querySelectorAll(selector)];
    return images.length > 0 && images.every(image => image.complete && image.naturalWidth > 0);
}"""


def test_the_steps_are_asked_for_before_the_script_arrives(start_viewer_server, finished_game, page) -> None:
    server = start_viewer_server()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.route("**/viewer/static/viewer.js", lambda route: route.abort())  # the script never arrives
    page.goto(server.base + f"/viewer#game/{finished_game}/step/2")
    page.wait_for_function("() => window.earlySteps !== undefined")
    answer = page.evaluate("async () => (await window.earlySteps.answer).status")
    assert answer == 200
    assert server.base + f"/viewer/api/games/{finished_game}/steps?pictures=2" in asked


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
