"""Real servers on loopback for the recognizer tests: a fake Azure Computer Vision and an oracle; a fake clock."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

AZURE_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "recognizers" / "azure"
GOOD_KEY = "fake-azure-key-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    base_url: str
    server: uvicorn.Server
    thread: threading.Thread


def serve(app: FastAPI) -> Served:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("test server did not start")
        time.sleep(0.01)
    return Served(f"http://127.0.0.1:{port}", server, thread)


def stop(served: Served) -> None:
    served.server.should_exit = True
    served.thread.join(timeout=10)


def azure_answer(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((AZURE_FIXTURES / f"{name}.json").read_text())
    return data


@dataclass
class FakeAzure:
    """Replays fixture answers per image URL: `script[url]` is a list of fixture names, used in
    order (the last one repeats). Every request is recorded as (path, image url). A picture sent
    as bytes (the SDK's *_in_stream calls) is scripted and recorded as `stream_key(bytes)`, and its
    bytes are kept in `streams`. `images[name]` is served at `/img/name`, a loopback card picture."""

    base_url: str = ""
    script: dict[str, list[str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    keys_seen: list[str] = field(default_factory=list)
    streams: list[bytes] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)
    image_gets: int = 0

    def answer(self, path: str, image_url: str, key: str) -> JSONResponse:
        self.calls.append((path, image_url))
        self.keys_seen.append(key)
        if key != GOOD_KEY:
            name = "error_401"
        else:
            queue = self.script.get(image_url, ["error_invalid_url"])
            name = queue.pop(0) if len(queue) > 1 else queue[0]
        data = azure_answer(name)
        return JSONResponse(data["body"], status_code=data["status"], headers=data["headers"])


def stream_key(data: bytes) -> str:
    return "bytes:" + hashlib.sha256(data).hexdigest()


@pytest.fixture
def fake_azure() -> Iterator[FakeAzure]:
    fake = FakeAzure()
    app = FastAPI()

    async def handle(request: Request, path: str) -> JSONResponse:
        key = request.headers.get("Ocp-Apim-Subscription-Key", "")
        if request.headers.get("content-type", "").startswith("application/octet-stream"):
            data = await request.body()
            fake.streams.append(data)
            return fake.answer(path, stream_key(data), key)
        try:
            body = await request.json()
        except ValueError:
            body = {}
        return fake.answer(path, str(body.get("url", "")), key)

    @app.get("/img/{name}")
    async def image(name: str) -> Response:
        fake.image_gets += 1
        if name not in fake.images:
            return Response(status_code=404)
        return Response(fake.images[name], media_type="image/png")

    @app.post("/vision/v3.2/analyze")
    async def analyze(request: Request) -> JSONResponse:
        assert "Landmarks" in request.query_params.get("details", "")
        return await handle(request, "analyze")

    @app.post("/vision/v3.2/models/{model}/analyze")
    async def domain(model: str, request: Request) -> JSONResponse:
        return await handle(request, f"models/{model}/analyze")

    @app.post("/vision/v3.2/describe")
    async def describe(request: Request) -> JSONResponse:
        return await handle(request, "describe")

    served = serve(app)
    fake.base_url = served.base_url
    yield fake
    stop(served)


@dataclass
class FakeOracle:
    base_url: str = ""
    labels: dict[int, dict[str, str]] = field(default_factory=dict)  # GameId -> {url: landmark}
    calls: int = 0


@pytest.fixture
def fake_oracle() -> Iterator[FakeOracle]:
    fake = FakeOracle()
    app = FastAPI()

    @app.get("/oracle/labels/{game_id}")
    def labels(game_id: int) -> JSONResponse:
        fake.calls += 1
        if game_id not in fake.labels:
            return JSONResponse({"error": f"no match {game_id}"}, status_code=404)
        return JSONResponse(fake.labels[game_id])

    served = serve(app)
    fake.base_url = served.base_url
    yield fake
    stop(served)


class FakeClock:
    """A clock that only moves when something sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
