import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The server tests share their live-server and arena-client helpers without a package.
sys.path.insert(0, str(Path(__file__).parent))

from server_testkit import LiveServer, register_bots  # noqa: E402

from server.settings import Settings  # noqa: E402

StartServer = Callable[..., LiveServer]


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[StartServer]:
    """Start real uvicorn servers on free loopback ports; all are stopped after the test."""
    started: list[LiveServer] = []

    def start(**overrides: object) -> LiveServer:
        settings = Settings(**{"db_path": tmp_path / "records.sqlite3", **overrides})  # type: ignore[arg-type]
        server = LiveServer(settings)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def bots(tmp_path: Path) -> dict[str, str]:
    """Bots registered in the test database: name -> password. alice and bob are different users."""
    return register_bots(
        tmp_path / "records.sqlite3",
        {"alice": "alice", "bob": "bob", "carol": "team", "dave": "team", "eve": "eve"},
    )
