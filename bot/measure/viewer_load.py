"""`rummy-vision measure viewer-load`: how long a viewer step of 20 cards takes to show in a cold browser.

A referee runs in this process on a loopback port with a fresh database; two random bots play one match
over HTTP while a person has the viewer open, so the server deals the cards (and draws their pictures
ahead) as in real use. Then, for each repetition, a new chromium context (an empty cache: a fresh
profile) opens `/viewer#game/N/step/0`, its first step (both hands full: 20 cards), and the page
notes when every card picture of the board has loaded. Figures per repetition:

- `page_ms`: from the navigation's start to the 20th picture shown (the page, its script, the match's
  steps as JSON and the pictures);
- `cards_after_steps_ms`: from the steps' JSON arriving to the last picture arriving (what the board
  waits for its cards);
- `steps_request_ms`: the steps' JSON, from its request to its last byte (the server rebuilds the match);
- `drawn_on_request`: pictures the server had to draw while a page waited (0 when drawn ahead).

The same is then done against a fresh server on the same records for each visit, whose cache is empty:
a match the server did not deal (recorded by `rummy-vision match`, or before a restart), so its
pictures are drawn when its steps are first asked for.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bot.measure.browser import debian_chromium
from bot.measure.server_load import Tally, _play
from rummy.records import connect
from server.accounts import Accounts
from server.embedded import EmbeddedServer
from server.settings import Settings

CARDS = 20  # both hands of a step before anything is laid
# Records in the page when every card picture of the board has loaded (performance.now(): ms since navigation).
SHOWN = """cards => {
    const images = [...document.querySelectorAll('.board img')];
    const shown = images.length === cards && images.every(image => image.complete && image.naturalWidth > 0);
    if (shown && window.cardsShownAt === undefined) window.cardsShownAt = performance.now();
    return shown;
}"""
CARDS_AFTER_STEPS = """() => {
    const entries = performance.getEntriesByType('resource');
    const steps = entries.find(entry => entry.name.endsWith('/steps'));
    const cards = entries.filter(entry => entry.name.includes('/cards/'));
    return {after: Math.max(...cards.map(entry => entry.responseEnd)) - steps.responseEnd,
            steps: steps.responseEnd - steps.requestStart,
            bytes: cards.map(entry => entry.encodedBodySize), fetched: cards.filter(e => e.transferSize > 0).length};
}"""


def _one_match(server: EmbeddedServer, bots: list[tuple[str, str]], seed: int) -> int:
    tally = Tally([])

    async def both() -> None:
        rng = random.Random(seed)
        await asyncio.gather(*(_play(server.prod, name, pw, random.Random(rng.random()), tally) for name, pw in bots))

    asyncio.run(both())
    if tally.errors:
        raise RuntimeError(f"the bots' match had {tally.errors} error answers")
    games = server.app.state.records.list_matches()
    return int(games[0]["GameId"])


def _visit(browser: Any, server: EmbeddedServer, game_id: int) -> dict[str, Any]:
    """Open step 0 (both hands full: 20 cards) in a new browser context, with an empty cache."""
    images = server.app.state.images
    before = images.drawn_on_request
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.base}/viewer#game/{game_id}/step/0")
        page.wait_for_function(SHOWN, arg=CARDS, polling=5)
        cards = page.evaluate(CARDS_AFTER_STEPS)
        return {
            "page_ms": round(page.evaluate("window.cardsShownAt"), 1),
            "cards_after_steps_ms": round(cards["after"], 1),
            "steps_request_ms": round(cards["steps"], 1),
            "cards_fetched": cards["fetched"],
            "mean_card_bytes": round(statistics.fmean(cards["bytes"])),
            "drawn_on_request": images.drawn_on_request - before,
        }
    finally:
        context.close()


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "page_ms_median": statistics.median(row["page_ms"] for row in rows),
        "page_ms_max": max(row["page_ms"] for row in rows),
        "cards_after_steps_ms_median": statistics.median(row["cards_after_steps_ms"] for row in rows),
        "cards_after_steps_ms_max": max(row["cards_after_steps_ms"] for row in rows),
        "drawn_on_request": sum(row["drawn_on_request"] for row in rows),
        "visits": rows,
    }


def viewer_load(repeats: int, seed: int, emit: Callable[[str], None] = print) -> dict[str, Any]:
    """Play one match on a fresh server, then open its first step in cold browsers; the figures as data."""
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "viewer.sqlite3"
        db = connect(db_path)
        accounts = Accounts(db)
        bots = [(name, accounts.add_bot(name, user=name, iterations=1000)) for name in ("left", "right")]
        db.close()
        figures: dict[str, Any] = {}
        with EmbeddedServer(Settings(db_path=db_path)) as dealer:
            httpx.get(f"{dealer.base}/viewer/api/entries", timeout=60)  # a person has the viewer open
            game_id = _one_match(dealer, bots, seed)
            if not dealer.app.state.images.wait_prerendered(timeout=300):
                raise RuntimeError("the server had not drawn the deal's pictures after 300 s")
            with debian_chromium() as browser:
                figures["dealt_here"] = _summary([_visit(browser, dealer, game_id) for _ in range(repeats)])
        rows = []
        with debian_chromium() as browser:
            for _ in range(repeats):  # a fresh server each time: nothing of the match drawn yet
                with EmbeddedServer(Settings(db_path=db_path)) as restarted:
                    rows.append(_visit(browser, restarted, game_id))
        figures["not_dealt_here"] = _summary(rows)
    for case, words in (("dealt_here", "dealt by this server"), ("not_dealt_here", "not dealt by this server")):
        row = figures[case]
        emit(
            f"{words}: 20-card step in a cold browser, page start to every card shown {row['page_ms_median']:.0f} ms"
            f" median ({row['page_ms_max']:.0f} max); cards {row['cards_after_steps_ms_median']:.0f} ms after the"
            f" steps' data ({row['cards_after_steps_ms_max']:.0f} max); {row['drawn_on_request']} drawn on request"
        )
    return figures
