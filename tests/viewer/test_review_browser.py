"""The viewer's step-through and its review view in Debian's chromium, at desktop and phone widths; the
card pictures small, cached and revalidated by ETag."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummy.records import Records

pytestmark = pytest.mark.browser

WIDTHS = [(1280, 900), (390, 844)]
IMAGES_LOADED = """selector => {
    const images = [...document.querySelectorAll(selector)];
    return images.length > 0 && images.every(image => image.complete && image.naturalWidth > 0);
}"""


@pytest.fixture
def sized_page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    width, height = request.param
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)  # the first review grades the match (a few seconds of CPU)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _no_horizontal_scroll(page: Any) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("sized_page", WIDTHS, indirect=True, ids=["desktop", "phone"])
def test_review_view_from_the_viewer(start_viewer_server, finished_game, db_path, sized_page, tmp_path) -> None:
    page = sized_page
    server = start_viewer_server()
    page.goto(server.base + f"/viewer#game/{finished_game}")
    page.wait_for_selector("#step-controls:not([hidden])")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")
    _no_horizontal_scroll(page)
    page.click("#review-link")
    page.wait_for_selector("#decisions")
    review = server.get(f"/viewer/api/games/{finished_game}/review").json()
    records = Records(db_path)
    record = records.match_record(finished_game)
    records.close()
    assert record is not None
    applied = [move for move in record["Moves"] if move["Applied"]]
    assert len(review["Decisions"]) == len(applied)
    assert [d["Player"] for d in review["Decisions"]] == [move["Bot"] for move in applied]
    assert page.locator("#decisions tr").count() == len(applied) + 1  # and the head row
    assert page.locator("#worst tr").count() == len(review["Worst"]) + 1
    assert page.locator("svg#chart circle").count() == len(applied)
    assert page.locator("#totals tr").count() == 3
    notes = page.inner_text("#notes")
    if not review["AllExact"]:
        assert "estimates, not exact values" in notes and "rummy-vision solve" in notes
    _no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / f"review-{page.viewport_size['width']}.png"), full_page=True)
    # A step number leads back into the viewer at that step.
    page.locator("#decisions a").first.click()
    page.wait_for_selector("#step-controls:not([hidden])")
    assert page.inner_text("#step-counter").startswith("Step 1 /")
    steps = server.get(f"/viewer/api/games/{finished_game}/steps").json()["Steps"]
    drawn = steps[1]["Drawn"]
    assert drawn["Landmark"] in record["Rounds"][0]["Landmarks"]
    assert page.inner_text("#drawn-card") == f"drew #{drawn['Id']} {drawn['Landmark']}"
    assert page.locator(f"#seat-{steps[1]['Mover']} .card.just-drawn").get_attribute("data-card-id") == str(drawn["Id"])
    _no_horizontal_scroll(page)


def test_review_api_refuses_bad_requests(start_viewer_server, finished_game) -> None:
    server = start_viewer_server()
    assert server.get("/viewer/api/games/999/review").status_code == 404
    bad = server.get(f"/viewer/api/games/{finished_game}/review?objective=points")
    assert bad.status_code == 400 and "objective" in bad.json()["ErrorMessage"]
    margin = server.get(f"/viewer/review/{finished_game}?objective=margin")
    assert margin.status_code == 200 and "expected final margin" in margin.text


def test_card_pictures_are_small_cached_and_revalidated(start_viewer_server, finished_game, chromium) -> None:
    server = start_viewer_server()
    timings: dict[str, float] = {}
    after_data: dict[str, float] = {}
    for visit in ("cold", "browser cache", "server cache"):
        for worker in threading.enumerate():  # the server (in this process) drawing the match's cards ahead
            if worker.name == "card-warm-up":
                worker.join(timeout=120)
        # A fresh browser for the last visit: nothing in its cache, the server has drawn them all by now.
        if visit != "browser cache":
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        began = time.perf_counter()
        page.goto(server.base + f"/viewer#game/{finished_game}/step/0")
        page.wait_for_function(IMAGES_LOADED, arg=".board img")
        timings[visit] = time.perf_counter() - began
        cards = page.locator(".board img").count()
        assert cards == 20
        transferred = page.evaluate(
            """() => performance.getEntriesByType('resource')
                .filter(entry => entry.name.includes('/cards/'))
                .map(entry => entry.transferSize)"""
        )
        # From the step's data arriving to its last picture arriving: how long the board waits for its cards.
        after_data[visit] = page.evaluate(
            """() => {
                const entries = performance.getEntriesByType('resource');
                const steps = entries.find(entry => entry.name.endsWith('/steps'));
                const cards = entries.filter(entry => entry.name.includes('/cards/'));
                return Math.max(...cards.map(entry => entry.responseEnd)) - steps.responseEnd;
            }"""
        )
        if visit == "browser cache":
            assert all(size == 0 for size in transferred)  # taken from the browser's cache, not fetched
        else:
            assert len(transferred) == cards and all(size > 0 for size in transferred)
        page.close()
        if visit != "cold":
            context.close()
    figures = ", ".join(
        f"{visit} {seconds * 1000:.0f} ms (cards {after_data[visit]:.0f} ms after the step's data)"
        for visit, seconds in timings.items()
    )
    print(f"the viewer's step 0 with 20 cards, page load to every picture shown: {figures}")
    Path("/tmp/viewer-card-timings.txt").write_text(figures + "\n")

    steps = server.get(f"/viewer/api/games/{finished_game}/steps").json()["Steps"]
    url = steps[0]["Seats"][0]["Hand"][0]["Url"]
    small = server.get(url + "?caption=1&small=1")
    full = server.get(url)
    assert small.headers["content-type"] == "image/webp" and full.headers["content-type"] == "image/png"
    assert len(small.content) * 5 < len(full.content)
    assert "max-age" in small.headers["cache-control"] and small.headers["etag"]
    again = server.client.get(url + "?caption=1&small=1", headers={"If-None-Match": small.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize("sized_page", WIDTHS, indirect=True, ids=["desktop", "phone"])
def test_head_to_head_table_in_the_viewer(start_viewer_server, db_path, sized_page) -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    page = sized_page
    answer = CliRunner().invoke(
        app, ["tournament", "greedy", "random", "heuristic", "--rounds", "2", "--db", str(db_path), "--json"]
    )
    assert answer.exit_code == 0, answer.output
    pairs = json.loads(answer.stdout.strip().splitlines()[-1])["head_to_head"]
    server = start_viewer_server()
    page.goto(server.base + "/viewer")
    page.locator("tr.run-row, tr.game-row").first.click()
    page.wait_for_selector("#head-to-head-box:not([hidden])")
    rows = page.locator("#head-to-head tr.pair-row")
    assert rows.count() == len(pairs) == 3
    for index, pair in enumerate(pairs):
        cells = rows.nth(index).locator("td")
        assert cells.nth(0).inner_text() == f"{pair['a']} v {pair['b']}"
        assert cells.nth(2).inner_text() == str(pair["wins_a"])
    first_label = page.locator("#run-games td").nth(1).inner_text()
    assert first_label == "1: greedy v random, deal 1"  # not the deal seed "1:greedy:random:0"
    _no_horizontal_scroll(page)
