"""Play tests: the real server on a loopback port (as the viewer tests start it), a person's seat driven
through /play/api, the page in Debian's chromium, and the terminal command fed with input lines."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "viewer"))

from viewer_testkit import ViewerServer  # noqa: E402

from server.settings import Settings  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


@pytest.fixture
def start_play_server(db_path: Path) -> Iterator[Callable[..., ViewerServer]]:
    started: list[ViewerServer] = []

    def start(**overrides: Any) -> ViewerServer:
        server = ViewerServer(Settings(**{"db_path": db_path, **overrides}))
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium through Playwright, never a downloaded browser (module-scoped, as in tests/viewer)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with `bash .ci/setup --browser`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
