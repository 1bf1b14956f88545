"""The viewer in Debian's chromium (Playwright): the list, the step-through with card images, live spectating."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from viewer_testkit import HttpMatch

from rummy import DEFAULT_RULES
from server.storage.records import Records

pytestmark = pytest.mark.browser

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IMAGES_LOADED = """selector => {
    const images = [...document.querySelectorAll(selector)];
    return images.length > 0 && images.every(image => image.complete && image.naturalWidth > 0);
}"""


def _counter(page) -> str:
    return page.inner_text("#step-counter")


def _caption(page) -> str:
    return page.inner_text("#move-text")


def test_viewer_steps_through_a_finished_match(start_viewer_server, finished_game, db_path, page, tmp_path) -> None:
    server = start_viewer_server()
    records = Records(db_path)
    record = records.match_record(finished_game)
    records.close()
    assert record is not None
    steps = len([move for move in record["Moves"] if move["Applied"]]) + 1

    page.goto(server.base + "/viewer")
    row = page.locator(f"tr.game-row[data-game-id='{finished_game}']")
    row.wait_for()
    assert row.get_attribute("data-status") == "FINISHED"
    assert "greedy" in row.inner_text() and "finished" in row.inner_text()
    row.click()

    page.wait_for_selector("#step-controls:not([hidden])")
    assert _counter(page) == f"Step 0 / {steps - 1}"
    assert "The deal of round 1" in _caption(page)
    assert page.inner_text("#round-indicator") == "Round 1 of 1"
    page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-1 img")
    assert page.locator("#seat-0 .card").count() == 10 and page.locator("#seat-1 .card").count() == 10
    widths = page.eval_on_selector_all("#seat-0 img", "images => images.map(image => image.naturalWidth)")
    assert all(width > 0 for width in widths)
    assert page.locator("#prev").is_disabled() and page.locator("#first").is_disabled()

    # Landmarks show for a finished match: the round's legend and each card's name.
    landmarks = record["Rounds"][0]["Landmarks"]
    legend = page.inner_text("#table-info .legend")
    assert all(name in legend for name in landmarks)
    first_card = record["Rounds"][0]["Hands"][0][0]
    tile = page.locator(f"#seat-0 .card[data-card-id='{first_card['Id']}']")
    assert tile.locator(".card-landmark").inner_text() == first_card["Landmark"]
    assert page.locator("#suggestions").is_hidden()  # nothing recorded, nothing shown

    deal_caption = _caption(page)
    page.click("#next")
    assert _counter(page) == f"Step 1 / {steps - 1}"
    first_move = record["Moves"][0]
    assert _caption(page) != deal_caption and first_move["Bot"] in _caption(page)
    page.wait_for_function(IMAGES_LOADED, arg="#move-cards img")
    page.keyboard.press("ArrowRight")
    assert _counter(page) == f"Step 2 / {steps - 1}"
    second_caption = _caption(page)
    page.keyboard.press("ArrowLeft")
    assert _counter(page) == f"Step 1 / {steps - 1}"
    assert _caption(page) != second_caption
    page.click("#prev")
    assert _counter(page) == f"Step 0 / {steps - 1}"
    assert _caption(page) == deal_caption
    assert page.url.endswith(f"#game/{finished_game}/step/0")

    page.click("#last")
    assert _counter(page) == f"Step {steps - 1} / {steps - 1}"
    assert page.locator("#next").is_disabled()
    ended = page.inner_text("#round-ended")
    points = record["Rounds"][0]["Points"]
    assert f"{points[0]} : {points[1]}" in ended and "wins the round" in ended
    assert "won" in page.inner_text("#seat-0 .seat-head").lower() or "lost" in page.inner_text("#seat-0 .seat-head")
    page.keyboard.press("Home")
    assert _counter(page) == f"Step 0 / {steps - 1}"
    page.click("#next")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")

    shot = tmp_path / "viewer.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes().startswith(PNG_SIGNATURE)
    shutil.copyfile(shot, Path("/tmp/viewer.png"))  # for a person to look at


def test_viewer_spectates_a_running_match_without_revealing_landmarks(
    start_viewer_server, arena_bots, db_path, page, tmp_path
) -> None:
    server = start_viewer_server(seed=11, move_time_ms=60_000)
    match = HttpMatch(server, arena_bots, style=1, seed=2)
    match.play(moves=2)

    page.goto(server.base + "/viewer")
    row = page.locator(f"tr.game-row[data-game-id='{match.game_id}']")
    row.wait_for()
    assert row.get_attribute("data-status") == "RUNNING" and "running" in row.inner_text()
    row.locator("a").click()

    page.wait_for_selector("#live-bar:not([hidden])")
    assert page.locator("#step-controls").is_hidden()
    page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-1 img")
    mover = next(seat for seat in match.seats if seat.state["IsMover"])
    assert f"{mover.name} to move" in page.inner_text("#live-info")
    assert "round 1 of 1 \u00b7 turn 3 of the round" in page.inner_text("#live-info")  # two moves played
    assert "last move" in _caption(page).lower()
    deck_before = match.seats[0].state["CardsInDeck"]
    assert f"{deck_before} cards" in page.inner_text("#table-info")

    records = Records(db_path)
    record = records.match_record(match.game_id)
    records.close()
    assert record is not None
    hidden_deck = record["Rounds"][0]["Deck"][match.moves :]
    html = page.content().lower()
    text = page.inner_text("body").lower()
    for landmark in DEFAULT_RULES.catalog:
        assert landmark.lower() not in html, f"the live page names {landmark!r}"
    for card in hidden_deck:
        assert card["Url"].rsplit("/", 1)[-1] not in html
        assert page.locator(f".card[data-card-id='{card['Id']}']").count() == 0
    assert "hidden until the match ends" in text

    # The page polls: another move shows up without a reload.
    caption = _caption(page)
    match.play(moves=1)
    page.wait_for_function("caption => document.querySelector('#move-text').innerText !== caption", arg=caption)
    page.wait_for_function(
        "deck => document.querySelector('#table-info').innerText.includes(deck + ' cards')", arg=deck_before - 1
    )
    page.screenshot(path=str(tmp_path / "live.png"))
    assert (tmp_path / "live.png").read_bytes().startswith(PNG_SIGNATURE)

    # When the match ends the page switches to its step-through, landmarks and all.
    match.play()
    page.wait_for_selector("#step-controls:not([hidden])")
    assert page.locator("#live-bar").is_hidden()
    assert all(name in page.inner_text("#table-info") for name in record["Rounds"][0]["Landmarks"])
    assert page.locator("#game-status").inner_text() == "finished"


def test_the_list_and_the_live_view_fit_a_phone(start_viewer_server, arena_bots, chromium, tmp_path) -> None:
    server = start_viewer_server(seed=12, move_time_ms=60_000)
    server.get("/viewer/api/entries")  # a person has the viewer open as the match is dealt
    match = HttpMatch(server, arena_bots, style=1, seed=3)
    match.play(moves=2)
    assert server.app.state.images.wait_prerendered(timeout=120)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.base + "/viewer")
    row = page.locator(f"tr.game-row[data-game-id='{match.game_id}']")
    row.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    row.locator("a").click()
    page.wait_for_selector("#live-bar:not([hidden])")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")
    page.wait_for_function(IMAGES_LOADED, arg="#seat-1 img")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "live-phone.png"), full_page=True)
    context.close()
    # The live view's captionless pictures were drawn with the deal too.
    assert server.app.state.images.drawn_on_request == 0


def test_recorded_suggestions_say_exact_or_estimate(start_viewer_server, finished_game, db_path, page) -> None:
    from server.storage.records import connect

    suggestions = [
        {"Move": {"Take": 1}, "Value": 12.5, "Label": "take", "Exact": True},
        {"Move": {"Give": 2}, "Value": -3, "Label": "give (value at most)", "Exact": False},
        {"Move": {"Give": 3}, "Value": -4, "Label": "recorded without saying"},
    ]
    db = connect(db_path)
    first = db.execute("SELECT MIN(move_seq) FROM moves WHERE game_id=? AND applied=1", (finished_game,)).fetchone()[0]
    db.execute(
        "UPDATE moves SET suggestions=? WHERE game_id=? AND move_seq=?", (json.dumps(suggestions), finished_game, first)
    )
    db.commit()
    db.close()
    server = start_viewer_server()
    page.goto(server.base + f"/viewer#game/{finished_game}/step/1")
    page.wait_for_selector("#suggestions:not([hidden])")
    kinds = page.locator("#suggestions td.value-kind").all_inner_texts()
    assert kinds == ["exact", "estimate", "estimate"]
