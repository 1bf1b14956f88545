"""The request-body size limit as one ASGI middleware.

`BodyLimitMiddleware` reads the body of each request a `BodyLimit` covers before any route sees it: one
whose Content-Length is over the limit is refused at once, without reading it; a chunked one as soon as
what came in passes the limit. Either way the refusal is the covered routes' own answer (for the arena,
HTTP 413 with `Result` first: `http_io.too_large`), and the server never holds more than the limit of one
request. A body within the limit is handed on as it came, followed by whatever the server says next (a
long poll waits on the disconnect message for a client that hangs up).

It covers the arena only. The admin API and the replay-file upload (server/admin.py, server/viewer_files.py)
keep their bounded read (`http_io.read_body`): they refuse a caller without the admin token before reading
anything, and a middleware would answer such a caller 413 instead of 401 or 403. server/play/ has its own
limit and wording.

Slow bodies are not this module's business: the connection closes a body that has not arrived in time
(server/connections.py, BODY_TIMEOUT_S); the read here then sees the client gone and nobody is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.http_io import BodyTooLarge


@dataclass(frozen=True)
class BodyLimit:
    """The requests one limit covers (exact paths, these methods) and how it refuses a larger body."""

    paths: frozenset[str]
    limit: int
    refuse: Callable[[BodyTooLarge], Response]
    methods: frozenset[str] = frozenset({"POST"})


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, limits: Sequence[BodyLimit]) -> None:
        self.app = app
        self.limits = tuple(limits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        rule = self._rule(scope)
        if rule is None:
            await self.app(scope, receive, send)
            return
        try:
            body = await body_within(scope, receive, rule.limit)
        except BodyTooLarge as error:
            await rule.refuse(error)(scope, receive, send)
            return
        if body is None:  # the client closed the connection mid-body (or stalled past the body timeout)
            await Response(status_code=499)(scope, receive, send)  # nobody reads it: as server.app's for the rest
            return
        await self.app(scope, _replayed(body, receive), send)

    def _rule(self, scope: Scope) -> BodyLimit | None:
        if scope["type"] != "http":
            return None
        path = route_path(scope)
        return next((rule for rule in self.limits if path in rule.paths and scope["method"] in rule.methods), None)


def route_path(scope: Scope) -> str:
    """The path the routes match (without the root path a proxy may have put in front)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


async def body_within(scope: Scope, receive: Receive, limit: int) -> bytes | None:
    """The whole body, BodyTooLarge once it is known to pass `limit`, or None if the client went away."""
    declared = Headers(scope=scope).get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"{declared} bytes")
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"over {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replayed(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body read already, then passes on what the server sends next."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
