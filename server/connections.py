"""HTTP connections that must send their requests in time.

uvicorn closes idle keep-alive connections, but a connection that sends part of a request's headers
(or nothing at all) and then stalls would hold its file descriptor for ever: about a thousand such
connections exhaust the default limit and every real call times out. `GuardedH11Protocol` closes a
connection whose request headers are not complete HEADER_TIMEOUT_S after it opened or after the
first byte of the request arrived, and one whose request body is not complete BODY_TIMEOUT_S after
its headers (a stalled body held the handler waiting for ever; uvicorn has no such timeout).
The handler (or, for the arena, server/body_limit.py) then sees the client gone and answers it without a traceback.

`QuietAcceptErrors` keeps the log readable when the process runs out of file descriptors anyway:
asyncio logs a traceback for every failed accept (241,529 of them, 99 MB, in 40 s of the probe); it
lets one through a minute.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 60.0  # the largest body (an 8 MB replay file) takes well under a second on loopback


class GuardedH11Protocol(H11Protocol):
    header_timeout_s = HEADER_TIMEOUT_S
    body_timeout_s = BODY_TIMEOUT_S
    _header_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._await_headers()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_waiting()
        if self.conn.their_state is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_timeout_s, self._body_too_slow)
        else:
            self._stop_body_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._stop_body_timer()
        super().connection_lost(exc)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()

    def _await_headers(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _stop_waiting(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class QuietAcceptErrors(logging.Filter):
    """Lets one "socket.accept() out of system resource" record a minute through (asyncio's, per failure)."""

    def __init__(self, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every_s = every_s
        self.clock = clock
        self._last: float | None = None
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if "socket.accept() out of system resource" not in str(record.msg):
            return True
        now = self.clock()
        if self._last is not None and now - self._last < self.every_s:
            self.dropped += 1
            return False
        self._last = now
        if self.dropped:
            record.msg = f"{record.msg} ({self.dropped} more since the last one)"
            self.dropped = 0
        return True


QUIET_ACCEPT_ERRORS = QuietAcceptErrors()


def quiet_accept_errors() -> None:
    """Install the filter on asyncio's logger (once)."""
    asyncio_log = logging.getLogger("asyncio")
    if QUIET_ACCEPT_ERRORS not in asyncio_log.filters:
        asyncio_log.addFilter(QUIET_ACCEPT_ERRORS)
