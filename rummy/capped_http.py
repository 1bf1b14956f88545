"""Answers from a server are read up to a size and a time: a hostile or broken server can neither fill the
client's memory nor hold it forever.

httpx reads a whole body into memory, and inflates a compressed one as it goes: a 1 MB gzip answer can
become gigabytes. Clients made here ask for uncompressed answers, refuse a compressed one, and stop
reading past a limit. Both refusals are `AnswerRefused`, an `httpx.TransportError`, so every caller's
`except httpx.HTTPError` already says which call failed and why. httpx's timeouts bound each read, not
the whole answer: a server that sends a byte every few seconds keeps a call alive for days. `call_within`
bounds the whole call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

GAMESTATE_BYTES = 1 << 20  # a gamestate is a few KB: 40 cards with their URLs, the catalog
RECORD_BYTES = 64 << 20  # a match record holds every move's gamestate: a few MB for a long match
NO_COMPRESSION = {"Accept-Encoding": "identity"}


class AnswerRefused(httpx.TransportError):
    """A server's answer the client will not read: larger than its limit, or compressed when none was asked."""


class AnswerTooSlow(httpx.TimeoutException):
    """No whole answer within the time a call was given (`call_within`)."""


T = TypeVar("T")


def call_within(seconds: float, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`call(*args, **kwargs)`, or AnswerTooSlow once `seconds` have passed without it returning. The call goes
    on in a daemon thread until its own next read fails; the caller must not reuse what it was using (a
    connection that may still be read)."""
    done = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the caller as it is
            box["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, daemon=True, name="call-within").start()
    if not done.wait(seconds):
        raise AnswerTooSlow(f"no whole answer within {seconds:.0f} s")
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


class _CappedStream(httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, limit: int, url: str) -> None:
        self.inner, self.limit, self.url = inner, limit, url

    def __iter__(self) -> Iterator[bytes]:
        size = 0
        for chunk in self.inner:
            size += len(chunk)
            if size > self.limit:
                raise AnswerRefused(f"the answer from {self.url} is larger than {_size(self.limit)}: not read")
            yield chunk

    def close(self) -> None:
        self.inner.close()


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"


def cap_answers(limit: int) -> Callable[[httpx.Response], None]:
    """A response hook (httpx runs it before the body is read) that holds the body to `limit` bytes."""

    def hook(response: httpx.Response) -> None:
        url = str(response.request.url)
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise AnswerRefused(f"the answer from {url} is compressed ({encoding}), though none was asked: not read")
        declared = response.headers.get("Content-Length", "").strip()
        if declared.isdigit() and int(declared) > limit:
            raise AnswerRefused(f"the answer from {url} declares {declared} bytes, over {_size(limit)}: not read")
        if isinstance(response.stream, httpx.SyncByteStream):
            response.stream = _CappedStream(response.stream, limit, url)

    return hook


class _WholeWithin(httpx.Client):
    """A client whose every request, answer read included, ends within `whole_s` seconds (AnswerTooSlow)."""

    def __init__(self, whole_s: float, **options: Any) -> None:
        super().__init__(**options)
        self.whole_s = whole_s

    def send(self, request: httpx.Request, **options: Any) -> httpx.Response:
        return call_within(self.whole_s, super().send, request, **options)


def capped_client(limit: int, whole_s: float | None = None, **options: Any) -> httpx.Client:
    """An httpx.Client whose answers are read up to `limit` bytes, uncompressed, and with `whole_s` each within
    that many seconds, answer included (other options as httpx's). A client that calls `call_within` itself
    (the arena client, which then renews its connection) leaves `whole_s` out."""
    headers = {**NO_COMPRESSION, **dict(options.pop("headers", None) or {})}
    hooks = dict(options.pop("event_hooks", None) or {})
    hooks["response"] = [*hooks.get("response", []), cap_answers(limit)]
    if whole_s is not None:
        return _WholeWithin(whole_s, headers=headers, event_hooks=hooks, **options)
    return httpx.Client(headers=headers, event_hooks=hooks, **options)
