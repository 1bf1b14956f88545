"""A replay file whose match is not in the server's records, sent to the viewer and opened in Debian's chromium at
desktop and phone widths: listed, stepped through with the recognizer's labels and the drawn card, the note
that its pictures are drawn from those labels, a never-labelled card shown as unknown, and its review."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from test_file_in_viewer import Viewer

from bot.replay.recording import read_replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "viewer"))
from viewer_testkit import debian_chromium  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]

WIDTHS = [(1280, 900), (390, 844)]
# A loaded machine, and the first review of a process compiles the exact solver in a fresh install: generous,
# never asserted on.
TIMEOUT_MS = 900_000
IMAGES_LOADED = """selector => {
    const images = [...document.querySelectorAll(selector)];
    return images.length > 0 && images.every(image => image.complete && image.naturalWidth > 0);
}"""


def _no_horizontal_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def _without_label(path: Path) -> tuple[bytes, int]:
    """The file with one card of the opponent's first hand never labelled: (its text, that card's id)."""
    lines = read_replay(path)
    first = next(line["gamestate"] for line in lines if line["type"] == "gamestate")
    unlabelled = first["OppHand"][0][0]
    for line in lines:
        if line["type"] in ("move", "labels"):
            (line.get("labels") or {}).pop(str(unlabelled), None)
    return "".join(json.dumps(line) + "\n" for line in lines).encode(), unlabelled


def test_a_sent_file_in_the_browser_at_desktop_and_phone_widths(recorded, tmp_path) -> None:
    path, record = recorded
    truth = {card["Id"]: card["Landmark"] for round_ in record["Rounds"] for hand in round_["Hands"] for card in hand}
    truth |= {card["Id"]: card["Landmark"] for round_ in record["Rounds"] for card in round_["Deck"]}
    server = Viewer(tmp_path / "viewer.sqlite3")
    try:
        sent = server.send(path.read_bytes(), path.name, **server.admin)
        assert sent.status_code == 201, sent.text
        file_id = sent.json()["FileId"]
        edited, unlabelled = _without_label(path)
        other = server.send(edited, "edited.jsonl", **server.admin).json()["FileId"]
        steps = server.http.get(f"/viewer/api/files/{file_id}/steps").json()["Steps"]
        with_drawn = next(step for step in steps if "Drawn" in step and step["Drawn"]["Landmark"])
        with debian_chromium() as browser:
            for width, height in WIDTHS:
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                errors: list[str] = []
                page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
                # The list shows the file; its row opens the step-through.
                page.goto(server.server.base + "/viewer")
                row = page.locator(f'tr.file-row[data-file-id="{file_id}"]')
                row.wait_for()
                assert path.name in row.inner_text()
                _no_horizontal_scroll(page)
                row.locator("a").click()
                page.wait_for_selector("#step-controls:not([hidden])")
                page.wait_for_function(IMAGES_LOADED, arg="#seat-0 img")
                assert "not the arena's photos" in page.inner_text("#pictures-note")
                names = page.locator("#seat-0 .card").evaluate_all(
                    "cards => cards.map(card => [Number(card.dataset.cardId),"
                    " card.querySelector('.card-landmark').textContent])"
                )
                assert names and all(truth[card_id] == name for card_id, name in names)
                assert page.locator("#seat-1 .card").count() == len(steps[0]["Seats"][1]["Hand"])
                _no_horizontal_scroll(page)
                # A step where the mover drew: the drawn card is said and outlined in the mover's hand.
                page.goto(server.server.base + f"/viewer#file/{file_id}/step/{with_drawn['Step']}")
                page.wait_for_function(
                    "text => document.getElementById('step-counter').textContent.startsWith(text)",
                    arg=f"Step {with_drawn['Step']} /",
                )
                drawn = with_drawn["Drawn"]
                assert page.inner_text("#drawn-card") == f"drew #{drawn['Id']} {truth[drawn['Id']]}"
                tile = page.locator(f"#seat-{with_drawn['Mover']} .card.just-drawn")
                assert tile.get_attribute("data-card-id") == str(drawn["Id"])
                _no_horizontal_scroll(page)
                page.wait_for_function(IMAGES_LOADED, arg=".board img")  # every labelled card's picture, drawn here
                page.screenshot(path=str(tmp_path / f"file-step-{width}.png"), full_page=True)
                # Its review, graded from the file alone.
                page.click("#review-link")
                page.wait_for_selector("#decisions")
                review = server.http.get(f"/viewer/api/files/{file_id}/review", timeout=900).json()
                assert page.locator("#decisions tr").count() == len(review["Decisions"]) + 1 > 1
                assert "Rebuilt from the replay file" in page.inner_text("body")
                _no_horizontal_scroll(page)
                # A card the file never labelled shows as unknown: no picture, no name.
                page.goto(server.server.base + f"/viewer#file/{other}/step/0")
                unknown = page.locator(f'#seat-1 .card[data-card-id="{unlabelled}"]')
                unknown.wait_for()
                assert "unknown" in (unknown.get_attribute("class") or "")
                assert unknown.locator("img").count() == 0 and "unknown" in unknown.inner_text()
                _no_horizontal_scroll(page)
                context.close()
                assert not errors, f"JavaScript errors on the page at {width} px: {errors}"
    finally:
        server.stop()
