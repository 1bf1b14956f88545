"""Template tests: the real referee on loopback with its app at hand, and the recognizer tests' fake Azure."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

TESTS = Path(__file__).resolve().parents[1]
for folder in ("bot", "recognizers"):  # the loopback server helper and the fake Azure live there
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))

from bot_loopback import serve  # noqa: E402
from recognizers_fakes import GOOD_KEY, fake_azure  # noqa: E402

__all__ = ["GOOD_KEY", "fake_azure"]


@dataclass
class Referee:
    base: str  # ends in /prod/
    password: str  # of bot "tester"
    app: Any

    def true_landmark(self, url: str) -> str | None:
        """What the card at `url` shows, looked up in the referee's matches in play (for the fake Azure)."""
        path = urlsplit(url).path
        for live in self.app.state.referee.live.values():
            shown = live.match.current
            for card in [*shown.hands[0], *shown.hands[1], *shown.laid]:
                if card.url in (url, path):
                    return str(card.kind)
        return None


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Callable[..., Referee]]:
    from server.app import create_app
    from server.settings import Settings

    stack = []

    def start(move_time_ms: int = 5000, vision: str | None = None) -> Referee:
        db_path = tmp_path / f"records-{len(stack)}.sqlite3"
        app = create_app(Settings(db_path=db_path, move_time_ms=move_time_ms, vision=vision))
        password = app.state.accounts.add_bot("tester", iterations=1000)
        context = serve(app)
        root = context.__enter__()
        stack.append(context)
        return Referee(root + "/prod/", password, app)

    yield start
    for context in reversed(stack):
        context.__exit__(None, None, None)
