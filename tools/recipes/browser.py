"""Debian's chromium driven through Playwright, headless, for measurements and browser tests.

Playwright comes with the project's test extra (`pip install -e .[test]`); the browser is Debian's
(`apt-get install chromium`), never one Playwright downloads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps trying hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class BrowserMissing(RuntimeError):
    """Debian's chromium or Playwright is not installed; the message says how to install it."""


@contextmanager
def debian_chromium() -> Iterator[Any]:
    """A headless chromium (Playwright's Browser). Open it for a while at most: Playwright's sync API keeps
    an event loop running in this thread while it is open, and code after it that calls asyncio.run()
    must not find one."""
    if not CHROMIUM.exists():
        raise BrowserMissing(
            f"{CHROMIUM} is missing: install Debian's chromium (`bash .ci/setup --browser`, i.e. apt-get install "
            "chromium); do not run `playwright install`."
        )
    try:
        from playwright.sync_api import sync_playwright  # playwright is in the test extra only (pyproject.toml)
    except ImportError:
        raise BrowserMissing("Playwright is missing: install the test extra (pip install -e '.[test]')") from None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
