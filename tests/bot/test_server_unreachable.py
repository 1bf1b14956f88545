"""A server that is down or a wrong base URL: the first call fails at once with a plain message; once the server
has answered, a lost connection is retried with backoff and says so; `play` takes the base URL with or without
/prod/, like `recognize`."""

from __future__ import annotations

import logging
import socket

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, ProtocolError, RetryPolicy, ServerUnreachable, protocol_base
from server.embedded import EmbeddedServer
from server.settings import Settings

runner = CliRunner()
LOGIN = ["--bot-id", "nobody", "--password", "wrong-password"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with EmbeddedServer(Settings(db_path=tmp_path_factory.mktemp("down") / "r.sqlite3")) as running:
        yield running


def test_a_stopped_server_fails_the_first_call_at_once() -> None:
    url = f"http://127.0.0.1:{_free_port()}/prod/"
    sleeps: list[float] = []
    with (
        ArenaClient(url, Credentials("a", "b"), sleep=sleeps.append) as client,
        pytest.raises(ServerUnreachable) as err,
    ):
        client.game_styles()
    assert sleeps == []  # no backoff before the server has ever answered
    assert str(err.value) == (
        f"connection refused at {url}: is the server running? (start one with `rummy-vision serve`)"
    )


def test_play_says_connection_refused_in_one_line_without_library_noise() -> None:
    url = f"http://127.0.0.1:{_free_port()}/prod/"
    result = runner.invoke(app, ["play", "--strategy", "random", "--base-url", url, "--no-record", *LOGIN])
    assert result.exit_code == 1
    assert f"connection refused at {url}: is the server running?" in result.output
    for noise in ("attempt", "mozilla", "Traceback", "httpx"):
        assert noise not in result.output


@pytest.mark.parametrize("suffix", ["", "/", "/prod", "/prod/"])
def test_play_takes_the_base_url_with_or_without_prod(server, suffix) -> None:
    result = runner.invoke(app, ["play", "--strategy", "random", "--base-url", server.base + suffix, *LOGIN])
    # The referee itself answered (an unknown bot): the URL reached the protocol in every form.
    assert result.exit_code == 1
    assert "GM-GetListOfGameStyles answered INVALID_LOGIN_OR_PASSWORD" in result.output


def test_a_wrong_path_is_named() -> None:
    assert protocol_base("http://h:1") == protocol_base("http://h:1/prod") == "http://h:1/prod/"
    assert protocol_base("https://x.example/stage/prod/") == "https://x.example/stage/prod/"


def test_a_wrong_base_path_says_what_to_check(server) -> None:
    with ArenaClient(server.base + "/nope/", Credentials("a", "b")) as client, pytest.raises(ProtocolError) as err:
        client.game_styles()
    assert "does not exist (HTTP 404)" in str(err.value) and "ends in /prod/" in str(err.value)


def test_after_a_first_answer_an_outage_is_retried_with_a_visible_warning(tmp_path, caplog) -> None:
    sleeps: list[float] = []
    policy = RetryPolicy(max_attempts=3)
    running = EmbeddedServer(Settings(db_path=tmp_path / "r.sqlite3"))
    with ArenaClient(running.prod, Credentials("a", "b"), policy=policy, sleep=sleeps.append) as client:
        assert client.game_styles().result == "INVALID_LOGIN_OR_PASSWORD"
        running.stop()
        with caplog.at_level(logging.WARNING, logger="bot"), pytest.raises(ProtocolError) as err:
            client.game_styles()
    assert not isinstance(err.value, ServerUnreachable)
    assert len(sleeps) == 2  # three attempts, with backoff between them
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert any("retrying with backoff" in message for message in warnings), warnings
