"""`python tools/measure.py viewer-load`: how long a viewer step of 20 cards takes to show in a cold browser.

A referee runs in this process on a loopback port with a fresh database; two random bots play one match
over HTTP while a person has the viewer open, so the server deals the cards (and draws their pictures
ahead) as in real use. Then, for each repetition, a new chromium context (an empty cache: a fresh
profile) opens `/viewer#game/N/step/0`, its first step (both hands full: 20 cards), and the page
notes when every card picture of the board has loaded. Four cases:

- `dealt_here`: the server that dealt the match, its pictures drawn ahead in memory;
- `after_restart`: a fresh server on the same records for each visit (its memory empty: the pictures
  come from the folder beside the records file);
- `recorded_by_match`: a match `rummy-vision match` recorded (its first round), a fresh server for each
  visit, opened straight away;
- `drawn_by_nobody`: a round of that run `match` left undrawn, with the pictures' folder emptied before
  each visit: every picture is drawn while the page waits (what the folder saves).

Figures per visit:

- `page_ms`: from the navigation's start to the 20th picture loaded (the page, its script, the match's
  steps as JSON and the pictures), noted by the pictures' own load events;
- `board_ms`: when the page had put the 20 pictures in the board (its script run, the steps read);
- `html_ms`, `script_ms`, `steps_start_ms`, `steps_end_ms`: when the page's HTML and its script had
  arrived (the same when the script comes inline), when the steps were asked for and when they had
  arrived (ms since the navigation's start);
- `shown_after_steps_ms`: from the steps' JSON arriving to every picture shown;
- `steps_request_ms`, `steps_bytes`: the steps' JSON, from its request to its last byte, and its size;
- `cards_inline`, `cards_fetched`: pictures that came inside the steps' answer, pictures asked for one by one;
- `drawn_on_request`: pictures the server drew while a page waited; `drawn`: cards it drew meanwhile at all.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from server.accounts import Accounts
from server.cards.picture_folder import folder_beside
from server.cards.viewer_cards import ROUNDS_DRAWN
from server.embedded import EmbeddedServer
from server.settings import Settings
from server.storage.records import connect
from tools.recipes.browser import debian_chromium
from tools.recipes.server_load import Tally, _play

CARDS = 20  # both hands of a step before anything is laid
# Rounds of the `match` run: one more than `match` draws the pictures of, so one round is drawn by nobody.
MATCH_ROUNDS = ROUNDS_DRAWN + 1
# Records in the page when every card picture of the board has loaded (performance.now(): ms since navigation).
# Before the page's own script: notes when each board picture is put in the page and when it has loaded
# (performance.now(): ms since navigation), so the figures do not depend on how often they are polled.
WATCH_BOARD = """(() => {
    window.boardImages = [];
    new MutationObserver(() => {
        for (const image of document.querySelectorAll('.board img')) {
            if (image.dataset.watched) continue;
            image.dataset.watched = '1';
            const seen = {added: performance.now(), loaded: null};
            window.boardImages.push(seen);
            const loaded = () => { seen.loaded = seen.loaded ?? performance.now(); };
            if (image.complete && image.naturalWidth > 0) loaded(); else image.addEventListener('load', loaded);
        }
    }).observe(document, {childList: true, subtree: true});
})();"""
SHOWN = """cards => {
    const images = [...document.querySelectorAll('.board img')];
    return images.length === cards && images.every(image => image.complete && image.naturalWidth > 0)
        && window.boardImages.filter(seen => seen.loaded !== null).length >= cards;
}"""
BOARD = """cards => {
    const first = window.boardImages.slice(0, cards);
    return {added: Math.max(...first.map(seen => seen.added)), loaded: Math.max(...first.map(seen => seen.loaded))};
}"""
TIMINGS = """() => {
    const entries = performance.getEntriesByType('resource');
    const navigation = performance.getEntriesByType('navigation')[0];
    const steps = entries.find(entry => entry.name.includes('/steps'));
    const script = entries.find(entry => entry.name.endsWith('/viewer.js'));
    const cards = entries.filter(entry => entry.name.includes('/cards/'));
    const images = [...document.querySelectorAll('.board img')];
    return {html: navigation.responseEnd, script: script ? script.responseEnd : navigation.responseEnd,
            stepsStart: steps.requestStart, stepsEnd: steps.responseEnd,
            stepsBytes: steps.encodedBodySize, fetched: cards.length,
            inline: images.filter(image => image.src.startsWith('data:')).length};
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
    before, drawn = images.drawn_on_request, images.drawn
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script(WATCH_BOARD)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.base}/viewer#game/{game_id}/step/0")
        page.wait_for_function(SHOWN, arg=CARDS, polling=5)
        board = page.evaluate(BOARD, CARDS)
        shown = board["loaded"]
        times = page.evaluate(TIMINGS)
        return {
            "page_ms": round(shown, 1),
            "board_ms": round(board["added"], 1),
            "html_ms": round(times["html"], 1),
            "script_ms": round(times["script"], 1),
            "steps_start_ms": round(times["stepsStart"], 1),
            "steps_end_ms": round(times["stepsEnd"], 1),
            "shown_after_steps_ms": round(shown - times["stepsEnd"], 1),
            "steps_request_ms": round(times["stepsEnd"] - times["stepsStart"], 1),
            "steps_bytes": times["stepsBytes"],
            "cards_inline": times["inline"],
            "cards_fetched": times["fetched"],
            "drawn_on_request": images.drawn_on_request - before,
            "drawn": images.drawn - drawn,
        }
    finally:
        context.close()


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for figure in ("page_ms", "steps_end_ms", "shown_after_steps_ms"):
        figures[f"{figure}_median"] = statistics.median(row[figure] for row in rows)
        figures[f"{figure}_max"] = max(row[figure] for row in rows)
    figures["under_200_ms"] = sum(row["page_ms"] < 200 for row in rows)
    figures["drawn_on_request"] = sum(row["drawn_on_request"] for row in rows)
    return {**figures, "visits": rows}


def _recorded_by_match(db_path: Path, seed: int) -> tuple[list[int], float]:
    """Record a run with `rummy-vision match` (in its own process, as a person runs it): its GameIds, and
    the command's wall seconds (with the pictures it leaves beside the records)."""
    command = [sys.executable, "-c", "from bot.cli import app; app()", "match", "greedy", "random"]
    command += ["--rounds", str(MATCH_ROUNDS), "--seed", str(seed), "--db", str(db_path)]
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=600)
    wall = time.perf_counter() - started
    db = connect(db_path)
    try:
        game_ids = sorted(int(row[0]) for row in db.execute("SELECT game_id FROM matches"))
    finally:
        db.close()
    return game_ids, wall


def _fresh_visits(
    browser: Any, db_path: Path, game_id: int, repeats: int, *, empty_folder: bool
) -> list[dict[str, Any]]:
    """Each visit on a fresh server (nothing in memory); `empty_folder`: nor on disk."""
    rows = []
    folder = folder_beside(db_path)
    for _ in range(repeats):
        if empty_folder and folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        with EmbeddedServer(Settings(db_path=db_path)) as restarted:
            rows.append(_visit(browser, restarted, game_id))
    return rows


CASES = {
    "dealt_here": "dealt by this server",
    "after_restart": "after a restart",
    "recorded_by_match": "recorded by `match`",
    "drawn_by_nobody": "drawn by nobody before",
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
        match_db = Path(folder) / "match.sqlite3"
        game_ids, match_wall = _recorded_by_match(match_db, seed)
        with debian_chromium() as browser:
            figures["after_restart"] = _summary(_fresh_visits(browser, db_path, game_id, repeats, empty_folder=False))
            figures["recorded_by_match"] = _summary(
                _fresh_visits(browser, match_db, game_ids[0], repeats, empty_folder=False)
            )
            figures["drawn_by_nobody"] = _summary(
                _fresh_visits(browser, match_db, game_ids[-1], repeats, empty_folder=True)
            )
        figures["match_command"] = {"rounds": MATCH_ROUNDS, "wall_seconds": round(match_wall, 2)}
    for case, words in CASES.items():
        row = figures[case]
        emit(
            f"{words}: 20-card step in a cold browser, page start to every card shown {row['page_ms_median']:.0f} ms"
            f" median ({row['page_ms_max']:.0f} max, {row['under_200_ms']}/{repeats} under 200 ms); steps' data"
            f" in at {row['steps_end_ms_median']:.0f} ms; {row['drawn_on_request']} drawn on request"
        )
    return figures
