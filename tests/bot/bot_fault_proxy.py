"""A fault-injecting HTTP proxy on loopback, in front of a real protocol server.

For each request a `plan(call, n)` (call name such as "GM-MakeMove", n = how many requests of that
call came before) returns what to do:

- "pass": forward and relay the answer;
- "drop": close the connection without answering (the server never sees the request);
- "drop_after": forward, then close without answering (the server acted; the answer is lost);
- "502": answer HTTP 502 with an HTML page, as a failing gateway does;
- "busy": answer {"Result": "CALL_ALREADY_IN_PROCESS"} without forwarding;
- "invalid": answer {"Result": "INVALID_MOVE"} without forwarding;
- "slow:S": wait S seconds, then forward.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import h11
import httpx

Plan = Callable[[str, int], str]
JSON = "application/json"


class FaultProxy:
    def __init__(self, upstream: str, plan: Plan) -> None:
        self.upstream = upstream.rstrip("/")
        self.plan = plan
        self.seen: Counter[str] = Counter()
        self.actions: list[tuple[str, str]] = []
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._upstream_client: httpx.AsyncClient | None = None

    def _client(self) -> httpx.AsyncClient:
        # One client for the proxy's life: building one per request costs tens of ms (TLS setup).
        if self._upstream_client is None:
            self._upstream_client = httpx.AsyncClient(timeout=30)
        return self._upstream_client

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h11.Connection(h11.SERVER)
        try:
            while True:
                request, body = await self._read_request(conn, reader)
                if request is None:
                    return
                path = request.target.decode()
                call = path.rsplit("/", 1)[-1]
                action = self.plan(call, self.seen[call])
                self.seen[call] += 1
                self.actions.append((call, action))
                if action == "drop":
                    return
                if action.startswith("slow:"):
                    await asyncio.sleep(float(action.split(":", 1)[1]))
                if action == "502":
                    await self._send(conn, writer, 502, b"<html><body>502 Bad Gateway</body></html>", "text/html")
                elif action == "busy":
                    await self._send(conn, writer, 200, b'{"Result": "CALL_ALREADY_IN_PROCESS"}')
                elif action == "invalid":
                    await self._send(conn, writer, 200, b'{"Result": "INVALID_MOVE", "ErrorMessage": "proxy says no"}')
                else:
                    upstream = await self._client().post(
                        self.upstream + path, content=body, headers={"Content-Type": JSON}
                    )
                    if action == "drop_after":
                        return
                    await self._send(conn, writer, upstream.status_code, upstream.content)
                if conn.our_state is h11.MUST_CLOSE:
                    return
                conn.start_next_cycle()
        except (h11.RemoteProtocolError, ConnectionError):
            return
        finally:
            writer.close()

    async def _read_request(
        self, conn: h11.Connection, reader: asyncio.StreamReader
    ) -> tuple[h11.Request | None, bytes]:
        request = None
        body = b""
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await reader.read(65536)
                conn.receive_data(data)
                if not data and conn.their_state is h11.IDLE:
                    return None, b""
                continue
            if isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                return request, body
            elif isinstance(event, h11.ConnectionClosed):
                return None, b""

    async def _send(
        self, conn: h11.Connection, writer: asyncio.StreamWriter, status: int, body: bytes, kind: str = JSON
    ) -> None:
        headers = [("Content-Type", kind), ("Content-Length", str(len(body)))]
        writer.write(conn.send(h11.Response(status_code=status, headers=headers)))
        writer.write(conn.send(h11.Data(data=body)))
        writer.write(conn.send(h11.EndOfMessage()))
        await writer.drain()

    @contextmanager
    def running(self) -> Iterator[str]:
        """Start the proxy in a thread; yields its base URL ending in /prod/."""
        started = threading.Event()

        async def main() -> None:
            server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            started.set()
            async with server:
                await server.serve_forever()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            with suppress(asyncio.CancelledError):
                self.loop.run_until_complete(main())

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        if not started.wait(5):
            raise RuntimeError("proxy did not start")
        try:
            yield f"http://127.0.0.1:{self.port}/prod/"
        finally:
            for task in asyncio.all_tasks(self.loop):
                self.loop.call_soon_threadsafe(task.cancel)
            thread.join(5)


def every(n: int, action: str, calls: tuple[str, ...] = ("GM-MakeMove", "GM-PollForGameState")) -> Plan:
    """`action` on every n-th request of the given calls (the first one included), else pass."""

    def plan(call: str, count: int) -> str:
        return action if call in calls and count % n == 0 else "pass"

    return plan
