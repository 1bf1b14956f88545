"""HTTP connections that must send their request headers in time.

uvicorn closes idle keep-alive connections, but a connection that sends part of a request's headers
(or nothing at all) and then stalls would hold its file descriptor for ever: about a thousand such
connections exhaust the default limit and every real call times out. `GuardedH11Protocol` closes a
connection whose request headers are not complete HEADER_TIMEOUT_S after it opened or after the
first byte of the request arrived.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0


class GuardedH11Protocol(H11Protocol):
    header_timeout_s = HEADER_TIMEOUT_S
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._await_headers()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

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
