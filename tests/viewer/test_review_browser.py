"""The viewer's step-through and its review view in Debian's chromium, at desktop and phone widths; the
card pictures drawn with the deal, small, cached and revalidated by ETag."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_testkit import HttpMatch

from rummy.cards import token_of
from rummy.rebuild import replay_record
from server.cards.viewer_cards import opening_cards
from server.storage.records import Records

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


def _card_transfers(page: Any) -> list[int]:
    return page.evaluate(
        """() => performance.getEntriesByType('resource')
            .filter(entry => entry.name.includes('/cards/'))
            .map(entry => entry.transferSize)"""
    )


def _dealt_tokens(db_path: Path, game_id: int) -> list[str]:
    """The tokens of every card the match dealt: both hands and the deck of each round."""
    records = Records(db_path)
    record = records.match_record(game_id)
    records.close()
    assert record is not None
    return [
        token_of(card["Url"])
        for round_ in record["Rounds"]
        for part in (*round_["Hands"], round_["Deck"])
        for card in part
    ]


def test_cards_are_drawn_with_the_deal_and_served_from_the_cache(
    start_viewer_server, arena_bots, chromium, db_path
) -> None:
    server = start_viewer_server()
    images = server.app.state.images
    assert server.get("/viewer/api/entries").status_code == 200  # a person has the viewer open
    match = HttpMatch(server, arena_bots, style=1, seed=4)
    match.play()
    assert images.wait_prerendered(timeout=120)
    # Before any page asked: every card of the deal is drawn, with and without its caption.
    tokens = _dealt_tokens(db_path, match.game_id)
    assert len(tokens) == 40
    for token in tokens:
        assert images.cached(token, caption=True, small=True) is not None
        assert images.cached(token, caption=False, small=True) is not None
    # A browser with an empty cache opens the first step: its 20 pictures come inline with the steps, no
    # picture request of their own; stepping on fetches the next cards' pictures, none is drawn then.
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + f"/viewer#game/{match.game_id}/step/0")
    page.wait_for_function(IMAGES_LOADED, arg=".board img")
    assert page.locator(".board img").count() == 20
    sources = page.eval_on_selector_all(".board img", "images => images.map(image => image.src)")
    assert all(source.startswith("data:image/webp;base64,") for source in sources)
    assert _card_transfers(page) == []
    for _ in range(3):
        page.click("#next")
        page.wait_for_function(IMAGES_LOADED, arg=".board img")
    transferred = _card_transfers(page)
    assert transferred and all(size > 0 for size in transferred)  # fetched, not from a cache
    context.close()
    assert images.drawn_on_request == 0

    steps = server.get(f"/viewer/api/games/{match.game_id}/steps").json()["Steps"]
    url = steps[0]["Seats"][0]["Hand"][0]["Url"]
    small = server.get(url + "?caption=1&small=1")
    full = server.get(url)
    # A deal's card URL ends in .jpg, as the arena's: the full picture is its JPEG; the PNG is far larger still.
    png = server.get(url.removesuffix(".jpg") + ".png")
    assert small.headers["content-type"] == "image/webp" and full.headers["content-type"] == "image/jpeg"
    assert len(small.content) * 3 < len(full.content) and len(small.content) * 5 < len(png.content)
    assert "max-age" in small.headers["cache-control"] and small.headers["etag"]
    again = server.client.get(url + "?caption=1&small=1", headers={"If-None-Match": small.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_server_nobody_watches_draws_no_pictures_until_a_page_looks(start_viewer_server, arena_bots, db_path) -> None:
    server = start_viewer_server()
    images = server.app.state.images
    match = HttpMatch(server, arena_bots, style=1, seed=5)
    match.play()
    assert images.wait_prerendered(timeout=120)
    tokens = _dealt_tokens(db_path, match.game_id)
    assert all(images.cached(token, caption=True, small=True) is None for token in tokens)  # bots only: nothing drawn
    server.get("/viewer/api/entries")  # a person opens the viewer: the waiting deal is drawn
    assert images.wait_prerendered(timeout=120)
    assert all(images.cached(token, caption=True, small=True) is not None for token in tokens)


def test_a_match_recorded_elsewhere_is_drawn_when_the_list_or_its_steps_are_asked(
    start_viewer_server, finished_game, chromium, db_path
) -> None:
    records = Records(db_path)
    record = records.match_record(finished_game)
    records.close()
    dealt = set(_dealt_tokens(db_path, finished_game))
    # The list draws the opening step of its newest matches; the steps, every card the viewer shows (the
    # step asked for first), never the deck cards nobody drew.
    opening = [token for token, _ in opening_cards(record)]
    hands = [view["MyHand"] for step in replay_record(record).steps for view in step.views if view is not None]
    shown = list(dict.fromkeys(token_of(url) for hand in hands for _card_id, url in hand))
    assert len(opening) == 20 and set(opening) < set(shown) < dealt
    for asked, tokens in (("/viewer/api/entries", opening), (f"/viewer/api/games/{finished_game}/steps", shown)):
        # A fresh server, with no pictures kept beside the records: the match was not drawn by it nor before.
        shutil.rmtree(db_path.with_name(db_path.name + ".cards"), ignore_errors=True)
        server = start_viewer_server()
        images = server.app.state.images
        assert images.cached(tokens[0], caption=True, small=True) is None
        assert server.get(asked).status_code == 200
        assert images.wait_prerendered(timeout=120)
        assert all(images.cached(token, caption=True, small=True) is not None for token in tokens), asked
        assert images.drawn == len(tokens), asked
        assert all(images.cached(token, caption=True, small=True) is None for token in dealt - set(tokens)), asked
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(server.base + f"/viewer#game/{finished_game}/step/0")
        page.wait_for_function(IMAGES_LOADED, arg=".board img")
        context.close()
        assert images.drawn_on_request == 0
        server.stop()


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
