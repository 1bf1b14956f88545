"""Reading request bodies within a size limit, and JSON answers that always encode.

A body larger than MAX_BODY_BYTES is refused with HTTP 413 as soon as the limit is passed (by its
Content-Length, or while it streams in): the server never holds more than that of one request.
An answer that holds text JSON cannot carry as UTF-8 (a lone surrogate a client sent) is written with
escapes instead, and NaN or Infinity from an old record is written as a string: never a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Annotated, Any, TypeVar

from fastapi import Path, Request
from fastapi.responses import JSONResponse

from server.protocol import Result, answer

MAX_BODY_BYTES = 64 * 1024
# A GameId, FileId or RunId in a path: SQLite's integer range, so a larger one is a 400, never an
# OverflowError (a 500) in the query.
RowId = Annotated[int, Path(ge=0, le=2**63 - 1)]
# The address a call came from, for throttling failed logins (set per request; tasks inherit it).
CLIENT_ADDRESS: ContextVar[str] = ContextVar("client_address", default="")
T = TypeVar("T")


class ClientGone(Exception):
    """The client closed the connection while its long poll waited: nobody is left to answer."""


async def unless_dropped(request: Request, work: Awaitable[T]) -> T:
    """`work`'s result, or ClientGone as soon as the client hangs up (the work is cancelled: a dropped long
    poll frees its seat at once instead of holding it "in process" for the rest of its wait)."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        raise ClientGone
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()


async def _disconnect(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


class BodyTooLarge(Exception):
    def __init__(self, size: str) -> None:
        super().__init__(f"the request body is {size}; the limit is {MAX_BODY_BYTES // 1024} KB")
        self.answer = answer(Result.INVALID_LOGIN_OR_PASSWORD, ErrorMessage=str(self))


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"{declared} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def finite(value: Any) -> Any:
    """`value` with NaN and infinities replaced by their names (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


class SafeJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(finite(content), ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()
        except ValueError:
            return super().render(finite(content))


def too_large(error: BodyTooLarge) -> JSONResponse:
    return SafeJSONResponse(error.answer, status_code=413)


ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])(?:~|/)[^\s;,'\"()]*/([^\s;,'\"()/]+)")


def without_folders(text: str) -> str:
    """`text` with every absolute path cut to its file name: answers may reach anyone, and a path names
    the server's user and home folder (a table's, the records')."""
    return ABSOLUTE_PATH.sub(r"\1", text)
