"""`recognize --recognizer oracle --base-url` takes the server's root or its /prod/ protocol base, like `play`,
and says plainly when the server is not there."""

from __future__ import annotations

import json
import socket

import pytest
from typer.testing import CliRunner

from bot.cli import app
from server.embedded import EmbeddedServer
from server.settings import Settings

runner = CliRunner()


def _reason(base_url: str) -> str:
    result = runner.invoke(
        app,
        ["recognize", "/cards/x.png", "--recognizer", "oracle", "--base-url", base_url, "--game-id", "999", "--json"],
    )
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)[0]["reason"])


@pytest.fixture(scope="module")
def oracle_server(tmp_path_factory):
    with EmbeddedServer(Settings(db_path=tmp_path_factory.mktemp("oracle") / "r.sqlite3", oracle=True)) as server:
        yield server


@pytest.mark.parametrize("form", ["{base}", "{base}/", "{base}/prod", "{base}/prod/"])
def test_both_forms_reach_the_oracle(oracle_server, form) -> None:
    # The real server's own answer for an unknown match: the request reached /oracle/labels/999.
    assert _reason(form.format(base=oracle_server.base)) == (
        f"oracle unavailable: {oracle_server.base}/oracle/labels/999: no match 999 in play"
    )


def test_a_server_that_is_down_is_named_without_library_noise() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reason = _reason(f"http://127.0.0.1:{port}/prod/")
    assert reason == f"oracle unavailable: connection refused at http://127.0.0.1:{port}: is the server running?"
    assert "mozilla" not in reason.lower()
