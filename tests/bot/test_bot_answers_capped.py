"""A server cannot fill the client's memory or hold it: answers are read uncompressed, up to a size and a time.

Each server here is a real one on loopback. Before the cap, httpx read each of these answers whole: the
gzip answer inflated to 256 MB in the client, the endless one until the server stopped sending."""

from __future__ import annotations

import contextlib
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx
import pytest
from bot_loopback import RawServer  # tests/bot/conftest.py puts the shared helpers on the path

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, ProtocolError, RetryPolicy
from rummy.capped_http import GAMESTATE_BYTES, AnswerRefused, AnswerTooSlow, capped_client

MB = 1 << 20
BOMB_MB = 256  # what the gzip answer inflates to
ENDLESS_MB = 512  # where the endless server gives up if nobody stops reading


def _bomb() -> bytes:
    """A gzip body of BOMB_MB megabytes of zeros, about 256 KB on the wire."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"0" * MB
    return b"".join(packer.compress(zeros) for _ in range(BOMB_MB)) + packer.flush()


class Flood:
    """A server on loopback whose every answer is too large, in one of three ways; counts the bytes it sent."""

    def __init__(self, how: str) -> None:
        self.sent = 0
        self.stop = threading.Event()
        flood = self
        bomb = _bomb() if how == "gzip" else b""

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                try:
                    if how == "gzip":
                        self.send_header("Content-Encoding", "gzip")
                        self.send_header("Content-Length", str(len(bomb)))
                        self.end_headers()
                        self.wfile.write(bomb)
                        flood.sent += len(bomb)
                    elif how == "declared":
                        self.send_header("Content-Length", str(10**10))
                        self.end_headers()
                        self.wfile.write(b'{"Result": "SUCCESS", "pad": "')
                    elif how == "trickle":  # a whole answer, a byte at a time, each well within a read timeout
                        body = b'{"Result": "SUCCESS", "GameStyles": []}'
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        for byte in body:
                            if flood.stop.wait(0.2):
                                return
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            flood.sent += 1
                    else:  # endless: a chunked body that never ends
                        self.send_header("Transfer-Encoding", "chunked")
                        self.end_headers()
                        self.wfile.write(b'6\r\n{"a":"\r\n')
                        chunk = b"%x\r\n%s\r\n" % (64 * 1024, b"0" * 64 * 1024)
                        while flood.sent < ENDLESS_MB * MB:
                            self.wfile.write(chunk)
                            flood.sent += 64 * 1024
                except OSError:
                    pass  # the client stopped reading: what it should do

            do_GET = do_POST = _answer  # noqa: N815

            def handle(self) -> None:
                with contextlib.suppress(OSError):  # the client hung up on a keep-alive connection: it read enough
                    super().handle()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = RawServer(Handler)
        self.base = self.server.base

    def close(self) -> None:
        self.stop.set()
        self.server.close()


@pytest.fixture(params=["gzip", "declared", "endless"])
def flood(request: pytest.FixtureRequest) -> Iterator[Flood]:
    server = Flood(request.param)
    yield server
    server.close()


def test_the_arena_client_refuses_an_answer_too_large_in_one_error_without_retrying(flood: Flood) -> None:
    client = ArenaClient(f"{flood.base}/prod/", Credentials("tester", "secret"), policy=RetryPolicy(max_attempts=3))
    with client, pytest.raises(ProtocolError) as raised:
        client.game_styles()
    said = str(raised.value)
    assert "not read" in said and ("larger than 1 MiB" in said or "compressed" in said or "declares" in said), said
    assert "secret" not in said
    assert flood.sent < 64 * MB, "the client stopped reading long before the server stopped sending"


def test_a_capped_client_asks_for_no_compression_and_reads_small_answers_whole() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("Accept-Encoding", ""))
        return httpx.Response(200, json={"Result": "SUCCESS", "pad": "0" * 1000})

    with capped_client(GAMESTATE_BYTES, transport=httpx.MockTransport(answer)) as http:
        assert http.get("http://arena.test/x").json()["Result"] == "SUCCESS"
    assert seen == ["identity"]
    with capped_client(500, transport=httpx.MockTransport(answer)) as http, pytest.raises(AnswerRefused):
        http.get("http://arena.test/x")


def test_an_answer_sent_a_byte_at_a_time_is_given_up_on_and_asked_again_within_the_policy() -> None:
    server = Flood("trickle")  # 40 bytes at one every 0.2 s: no single read times out, the whole takes 8 s
    policy = RetryPolicy(first_wait_s=0.01, max_wait_s=0.01, max_attempts=2, request_timeout_s=1.0)
    try:
        client = ArenaClient(f"{server.base}/prod/", Credentials("tester", "secret"), policy=policy)
        with client, pytest.raises(ProtocolError) as raised:
            client.game_styles()
    finally:
        server.close()
    said = str(raised.value)
    assert "failed after 2 attempt(s)" in said and "no whole answer within 2 s" in said, said
    assert "too slowly" in said


def test_a_one_shot_client_gives_up_on_a_trickle_with_an_error_every_caller_catches() -> None:
    server = Flood("trickle")
    try:
        with capped_client(GAMESTATE_BYTES, whole_s=1.0, timeout=5.0) as http, pytest.raises(httpx.HTTPError) as raised:
            http.get(f"{server.base}/games/1")
    finally:
        server.close()
    assert isinstance(raised.value, AnswerTooSlow) and "no whole answer within 1 s" in str(raised.value)
