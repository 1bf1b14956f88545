"""Real servers on loopback for the recognizer tests: a fake Azure Computer Vision and an oracle; a fake clock."""

from __future__ import annotations

import asyncio
import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
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
    bytes are kept in `streams`. `images[name]` is served at `/img/name`, a loopback card picture.

    `labeller(url)` answers URLs the script does not name: a landmark name (a landmark answer) or None
    (no landmark); the Custom Vision prediction route uses it too. `picture_labeller(bytes)` answers the
    same way for a picture sent as bytes, from what the picture shows. Every answer waits `delay_s` first
    (as the real service's latency), and `in_flight_max` records the most calls answered at once."""

    base_url: str = ""
    script: dict[str, list[str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    keys_seen: list[str] = field(default_factory=list)
    streams: list[bytes] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)
    image_gets: int = 0
    labeller: Callable[[str], str | None] | None = None
    picture_labeller: Callable[[bytes], str | None] | None = None
    delay_s: float = 0.0
    in_flight: int = 0
    in_flight_max: int = 0

    def answer(self, path: str, image_url: str, key: str, picture: bytes | None = None) -> JSONResponse:
        self.calls.append((path, image_url))
        self.keys_seen.append(key)
        if key != GOOD_KEY:
            name = "error_401"
        elif image_url not in self.script and (self.labeller is not None or self.picture_labeller is not None):
            if picture is not None and self.picture_labeller is not None:
                landmark = self.picture_labeller(picture)
            else:
                landmark = self.labeller(image_url) if self.labeller is not None else None
            landmarks = [{"name": landmark.title(), "confidence": 0.95}] if landmark else []
            category = {"name": "building_", "score": 0.9, "detail": {"landmarks": landmarks}}
            return JSONResponse({"categories": [category]})
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
        fake.in_flight += 1
        fake.in_flight_max = max(fake.in_flight_max, fake.in_flight)
        try:
            await asyncio.sleep(fake.delay_s)
            return await answer_request(request, path)
        finally:
            fake.in_flight -= 1

    async def answer_request(request: Request, path: str) -> JSONResponse:
        key = request.headers.get("Ocp-Apim-Subscription-Key", "")
        if request.headers.get("content-type", "").startswith("application/octet-stream"):
            data = await request.body()
            fake.streams.append(data)
            return fake.answer(path, stream_key(data), key, data)
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

    @app.post("/customvision/v3.0/Prediction/{project}/classify/iterations/{iteration}/url")
    async def predict(project: str, iteration: str, request: Request) -> JSONResponse:
        await asyncio.sleep(fake.delay_s)
        url = str((await request.json()).get("Url", ""))
        fake.calls.append((f"predict/{project}/{iteration}", url))
        fake.keys_seen.append(request.headers.get("Prediction-Key", ""))
        if request.headers.get("Prediction-Key", "") != GOOD_KEY:
            return JSONResponse({"code": "Unauthorized", "message": "Invalid prediction key"}, status_code=401)
        landmark = fake.labeller(url) if fake.labeller is not None else None
        tags = [(landmark or "haystack rock", 0.9 if landmark else 0.2), ("giralda", 0.05)]
        predictions = [{"probability": p, "tagId": f"t{i}", "tagName": n} for i, (n, p) in enumerate(tags)]
        return JSONResponse({"id": "p", "project": project, "iteration": iteration, "predictions": predictions})

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
