"""Viewer tests: the real server under uvicorn on a free loopback port, real matches, Debian's chromium.

The server is started the way tests/server does it (uvicorn.Server in a daemon thread), with a temp database.
Matches are real: in-process rounds stored by `bot.matches.match_records.store_rounds`, or two arena clients
playing over HTTP, so the referee records them move by move.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The viewer tests share their live-server and arena-client helpers without a package.
sys.path.insert(0, str(Path(__file__).parent))

from viewer_testkit import FAST_HASH, ViewerServer, debian_chromium, servers_on  # noqa: E402

from server.accounts import Accounts  # noqa: E402
from server.storage.records import connect  # noqa: E402


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


@pytest.fixture
def start_viewer_server(db_path: Path) -> Iterator[Callable[..., ViewerServer]]:
    """Start real servers on the test's database; all are stopped after the test."""
    with servers_on(db_path) as start:
        yield start


@pytest.fixture
def arena_bots(db_path: Path) -> dict[str, str]:
    """Two bots of different users in the test database: name -> password."""
    db = connect(db_path)
    try:
        accounts = Accounts(db)
        return {
            name: accounts.add_bot(name, user=name, balance=1000, iterations=FAST_HASH) for name in ("alice", "bob")
        }
    finally:
        db.close()


@pytest.fixture
def finished_game(db_path: Path) -> int:
    """A finished one-round match, greedy against random, stored as the match command stores it."""
    from bot.matches.local_match import Contender, play_round
    from bot.matches.match_records import store_rounds

    result = play_round("viewer:1", (Contender("greedy"), Contender("random")))
    _, game_ids = store_rounds(db_path, [(result, 0)], ("greedy", "random"))
    return game_ids[0]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with debian_chromium() as browser:
        yield browser


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)  # generous: CI shares 2 cores with other work
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
