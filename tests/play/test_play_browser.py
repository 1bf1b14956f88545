"""The /play page in Debian's chromium: complete matches against housebot-practise (desktop, mouse) and
the easy character (phone width, keyboard), with Lay, Take and Give, explained non-moves, the coach,
and the review checked against the strategy's own values. Screenshots go to the test's tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from play_helpers import check_review_is_the_records_review, no_set, own_review, valid_set

pytestmark = pytest.mark.browser

HANDS = """() => {
    const read = side => [...document.querySelectorAll(`.card[data-side="${side}"]`)].map(tile => ({
        Id: Number(tile.dataset.cardId), Landmark: tile.querySelector('.card-name').textContent}));
    return {mine: read('mine'), theirs: read('theirs')};
}"""
MY_TURN_OR_OVER = """() => {
    const turn = document.querySelector('#turn').textContent;
    return turn === 'Your turn' || turn === 'Match over';
}"""


def _new_page(chromium: Any, width: int, height: int) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _start(page: Any, server: Any, opponent: str) -> str:
    """Starts a game in the page; the test's own HTTP client then holds the browser's cookie, as the
    game's API answers only the browser that started it."""
    page.goto(server.base + "/play")
    page.wait_for_selector(f"#opponent option[value='{opponent}']", state="attached")
    page.select_option("#opponent", opponent)
    page.select_option("#style", "5")
    page.select_option("#coach-strategy", "heuristic")
    page.select_option("#coach-objective", "margin")  # the review below is checked in points
    page.click("#start")
    page.wait_for_selector("#my-hand .card")
    page.wait_for_function(MY_TURN_OR_OVER)
    token = page.evaluate("location.hash").split("/")[-1]
    assert token
    for cookie in page.context.cookies():
        server.client.cookies.set(cookie["name"], cookie["value"])
    return str(token)


def _events(page: Any) -> int:
    return int(page.locator("#log li").count())


def _played(page: Any, before: int) -> None:
    """Wait until the move just sent shows in the log, then until it is our turn again or the match is over."""
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    page.wait_for_function(MY_TURN_OR_OVER)


def _over(page: Any) -> bool:
    return bool(page.inner_text("#turn") == "Match over")


def _check_review(page: Any, server: Any, token: str, tmp_path: Path, name: str) -> dict[str, Any]:
    page.wait_for_selector("#review:not([hidden])")
    review = own_review(server.client, token)
    check_review_is_the_records_review(review, server.client)
    rows = page.locator("#review-moves tbody tr")
    assert rows.count() == len(review["Moves"])
    for index, entry in enumerate(review["Moves"]):
        row = rows.nth(index)
        assert row.get_attribute("data-step") == str(entry["Step"])
        # Shown to one decimal (JavaScript rounds halves up, Python to even: compare as numbers).
        assert abs(float(row.locator(".best-value").inner_text()) - entry["BestValue"]) <= 0.05 + 1e-9
        assert abs(float(row.locator(".played-value").inner_text()) - entry["PlayedValue"]) <= 0.05 + 1e-9
        assert abs(float(row.locator(".lost").inner_text()) - entry["Lost"]) <= 0.05 + 1e-9
    worst = page.locator("#worst li.worst")
    assert worst.count() == len(review["Worst"])
    summary = page.inner_text("#review-summary")
    assert summary.startswith(review["Summary"])  # the review engine's own sentence, as `review` prints it
    page.screenshot(path=str(tmp_path / f"{name}-review.png"), full_page=True)
    print(f"screenshots in {tmp_path}")
    return review


def test_a_match_against_practise_with_the_mouse(start_play_server, chromium, tmp_path) -> None:
    server = start_play_server(seed=16)
    context, page, errors = _new_page(chromium, 1280, 900)
    token = _start(page, server, "housebot-practise")
    page.check("#names-toggle")
    page.check("#coach-toggle")
    page.wait_for_function("() => document.querySelector('#my-hand .card-name').offsetParent !== null")  # names shown
    used: set[str] = set()
    explained = False
    while not _over(page):
        hands = page.evaluate(HANDS)
        before = _events(page)
        if not explained:
            # A selection that is no move is explained, and nothing reaches the referee.
            page.click(f"#my-hand .card[data-card-id='{hands['mine'][0]['Id']}']")
            page.click("#lay")
            page.wait_for_function("() => document.querySelector('#message').textContent.includes('3 to 5')")
            page.click("#take")
            page.wait_for_function("() => document.querySelector('#message').textContent.includes('unselect')")
            page.click("#clear")
            pass_cards = no_set(hands["mine"])
            if pass_cards:
                for card_id in pass_cards:
                    page.click(f"#my-hand .card[data-card-id='{card_id}']")
                page.click("#lay")
                page.wait_for_selector("#confirm-pass:not([hidden])")
                assert "no set" in page.inner_text("#confirm-text")
                page.screenshot(path=str(tmp_path / "practise-pass-warning.png"))
                page.click("#pass-no")
                page.click("#clear")
            assert _events(page) == before
            page.wait_for_selector("#coach-moves tbody tr")
            assert page.inner_text("#coach-text").strip()
            # Clicking the coach's best move selects its cards (nothing is sent until a button is pressed).
            page.click("#coach-moves tbody tr >> nth=0")
            assert page.locator(".card.selected").count() >= 1 and _events(page) == before
            page.click("#clear")
            page.screenshot(path=str(tmp_path / "practise-turn.png"), full_page=True)
            explained = True
        if "take" not in used:
            page.click(f"#opp-hand .card[data-card-id='{hands['theirs'][0]['Id']}']")
            page.click("#take")
            used.add("take")
        elif "give" not in used:
            page.click(f"#my-hand .card[data-card-id='{hands['mine'][0]['Id']}']")
            page.click("#give")
            used.add("give")
        else:
            chosen = valid_set(hands["mine"])
            if chosen:
                for card_id in chosen:
                    page.click(f"#my-hand .card[data-card-id='{card_id}']")
                page.click("#lay")
                used.add("lay")
            else:
                page.click(f"#my-hand .card[data-card-id='{hands['mine'][0]['Id']}']")
                page.click("#give")
        _played(page, before)
        # The opponent's move is shown with its cards (a wasted Lay or a Give/Take names them too).
        if not _over(page) and page.locator("#last-move .theirs").count():
            assert page.locator("#last-move .theirs .mini img").count() >= 1
    assert {"take", "give", "lay"} <= used
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-text").startswith(("You won", "You lost", "The match is drawn"))
    assert "Round 1:" in page.inner_text("#round-results")
    review = _check_review(page, server, token, tmp_path, "practise")
    if review["Worst"]:
        # A worst moment links to that step of the match in the viewer.
        page.click("#worst li.worst a >> nth=0")
        page.wait_for_selector("#step-controls:not([hidden])")
        assert page.inner_text("#step-counter").startswith(f"Step {review['Worst'][0]['Step']} /")
    context.close()
    assert not errors, errors


def test_a_match_against_a_character_at_phone_width_with_the_keyboard(start_play_server, chromium, tmp_path) -> None:
    server = start_play_server(seed=61)
    context, page, errors = _new_page(chromium, 390, 844)
    token = _start(page, server, "housebot-easy")
    page.keyboard.press("n")  # show names
    assert page.evaluate("document.body.classList.contains('show-names')")
    page.keyboard.press("c")  # the coach
    used: set[str] = set()
    coached = False
    while not _over(page):
        if not coached:
            page.wait_for_selector("#coach-moves tbody tr")
            assert "worth" in page.inner_text("#coach-text")
            page.screenshot(path=str(tmp_path / "easy-phone-turn.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            coached = True
        hands = page.evaluate(HANDS)
        mine = hands["mine"][:10]  # keys 1..0 reach the first ten
        before = _events(page)
        chosen = valid_set(mine)
        if "give" not in used or (not chosen and "take" in used):
            page.keyboard.press("1")
            page.keyboard.press("g")
            used.add("give")
        elif "take" not in used or not chosen:
            page.keyboard.press("Shift+1")
            page.keyboard.press("t")
            used.add("take")
        else:
            for card_id in chosen:
                index = [card["Id"] for card in mine].index(card_id)
                page.keyboard.press(str((index + 1) % 10))
            page.keyboard.press("l")
            used.add("lay")
        _played(page, before)
    assert {"take", "give", "lay"} <= used
    page.wait_for_selector("#result:not([hidden])")
    events = server.get(f"/play/api/games/{token}").json()["Events"]
    assert any(not event["IsYou"] for event in events)
    _check_review(page, server, token, tmp_path, "easy-phone")
    context.close()
    assert not errors, errors


def test_closing_the_tab_loses_on_time_and_keeps_the_record_whole(start_play_server, chromium, db_path) -> None:
    import time

    from rummy.rebuild import replay_record
    from server.storage.records import Records

    # A short move time stands in for the style's two minutes.
    server = start_play_server(move_time_ms=1500, seed=9)
    context, page, errors = _new_page(chromium, 1280, 900)
    token = _start(page, server, "housebot-practise")
    context.close()  # the person leaves mid-match
    deadline = time.monotonic() + 15
    state = server.get(f"/play/api/games/{token}").json()
    while state["Running"] and time.monotonic() < deadline:
        state = server.client.get(f"/play/api/games/{token}", params={"since": state["Version"], "wait": 2000}).json()
    assert state["GameStatus"] == "LOST_BY_TIMEOUT"
    records = Records(db_path)
    try:
        record = records.match_record(state["GameId"])
    finally:
        records.close()
    assert record is not None and record["EndReason"] == "timeout"
    assert record["GameStatus"] == ["LOST_BY_TIMEOUT", "WON_BY_TIMEOUT"]
    assert not replay_record(record).mismatches
    assert server.get(f"/viewer/api/games/{state['GameId']}/steps").status_code == 200
    assert not errors, errors
