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

from viewer_testkit import ViewerServer, debian_chromium, servers_on  # noqa: E402


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


@pytest.fixture
def start_play_server(db_path: Path) -> Iterator[Callable[..., ViewerServer]]:
    with servers_on(db_path) as start:
        yield start


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with debian_chromium() as browser:
        yield browser
