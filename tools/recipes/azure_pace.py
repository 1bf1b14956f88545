"""Azure labelling at the arena's pace, against a fake endpoint: `python tools/measure.py azure-pace`.

A fake Azure Computer Vision v3.2 `analyze` endpoint on loopback answers every picture after the
chosen latency (200 ms by default), naming its landmark. It also serves the card pictures (drawn
by the referee's card renderer, four landmarks as in a round), so `local:azure` can look at the
pixels; loopback pictures reach the fake as bytes, as a private picture reaches the real service.
Each run uses a fresh shared-limiter file, so nothing else counts against the tier. Cases:

- standard (20 calls a second): a first hand of 20 unseen cards, calls in parallel (8 at once) and
  one at a time;
- free (20 a minute, 5,000 a month): a first match's 20 cards, then a second match's 20 unseen
  cards in the same minute, with a 4 s budget for the move, by `azure` alone and by `local:azure`
  (the second match's cards go to the gallery learned from the first match; which ones it answers,
  whether rightly, and which stay unknown).
"""

from __future__ import annotations

import asyncio
import hashlib
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from recognizers.gallery import Gallery
from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG
from rummy.labels import recognize_within
from server.cards.render import draw_card, to_png

KEY = "measure-key-not-a-secret"
KINDS = ("trevi fountain", "big ben", "giralda", "bryggen")  # a round's four landmarks
HAND = 20  # both first hands of a deal
FREE_BUDGET_S = 4.0  # a 5 s move less the answer's margin


def true_landmark(card_id: int) -> str:
    return KINDS[card_id % len(KINDS)]


class FakeAzure:
    """The analyze endpoint and the card pictures, on one loopback port; `base_url` once started."""

    def __init__(self, latency_s: float, card_ids: list[int]) -> None:
        self.latency_s = latency_s
        self.pictures = {card_id: to_png(draw_card(true_landmark(card_id), f"pace-{card_id}")) for card_id in card_ids}
        self._by_hash = {hashlib.sha256(data).hexdigest(): card_id for card_id, data in self.pictures.items()}
        self.calls = 0
        self.base_url = ""

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/cards/{card_id}.png")
        def picture(card_id: int) -> Response:
            return Response(self.pictures[card_id], media_type="image/png")

        @app.post("/vision/v3.2/analyze")
        async def analyze(request: Request) -> JSONResponse:
            self.calls += 1
            await asyncio.sleep(self.latency_s)
            if request.headers.get("content-type", "").startswith("application/json"):
                card_id = int(str((await request.json()).get("url", "")).rsplit("/", 1)[1].split(".")[0])
            else:
                card_id = self._by_hash[hashlib.sha256(await request.body()).hexdigest()]
            landmark = {"name": true_landmark(card_id).title(), "confidence": 0.9}
            return JSONResponse({"categories": [{"name": "building_", "detail": {"landmarks": [landmark]}}]})

        return app

    @contextmanager
    def running(self) -> Iterator[FakeAzure]:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(self.app(), host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{port}"
        try:
            yield self
        finally:
            server.should_exit = True
            thread.join(5)


def label_hand(fake: FakeAzure, spec: str, first: int, budget_s: float | None, **options: Any) -> dict[str, Any]:
    """Label cards first..first+19 with recognizer `spec`; per card, who answered and whether rightly."""
    recognizer = get_recognizer(spec, endpoint=fake.base_url, key=KEY, cache=":memory:", **options)
    cards = [(card_id, f"{fake.base_url}/cards/{card_id}.png") for card_id in range(first, first + HAND)]
    calls_before = fake.calls
    started = time.perf_counter()
    labels = recognize_within(recognizer, cards, DEFAULT_CATALOG, budget_s)
    wall = time.perf_counter() - started
    answered_by: dict[str, list[int]] = {"azure": [], "gallery": [], "unknown": []}
    wrong = []
    for card_id, _url in cards:
        label = labels[card_id]
        if label.landmark is None:
            answered_by["unknown"].append(card_id)
            continue
        # The gallery's answers carry its margin; the service's do not.
        answered_by["gallery" if hasattr(label, "margin") else "azure"].append(card_id)
        if label.landmark != true_landmark(card_id):
            wrong.append(card_id)
    unknown_reasons = sorted({labels[card_id].reason for card_id in answered_by["unknown"]})
    return {
        "recognizer": spec,
        "cards": len(cards),
        "labelled": len(cards) - len(answered_by["unknown"]),
        "by_azure": answered_by["azure"],
        "by_gallery": answered_by["gallery"],
        "unknown": answered_by["unknown"],
        "wrong": wrong,
        "unknown_reasons": unknown_reasons,
        "azure_calls": fake.calls - calls_before,
        "wall_s": round(wall, 3),
    }


def azure_pace(latency_ms: int, emit: Callable[[str], None], budget_s: float = FREE_BUDGET_S) -> dict[str, Any]:
    """The figures of every case (see the module's docstring); `budget_s` is the free tier's time for a hand."""
    fake = FakeAzure(latency_ms / 1000, list(range(2 * HAND)) + list(range(100, 100 + HAND)))
    figures: dict[str, Any] = {"latency_ms": latency_ms, "landmarks": list(KINDS)}
    with fake.running(), tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        cases: list[tuple[str, str, int, float | None, dict[str, Any]]] = [
            ("standard_parallel_8", "azure", 0, None, {"tier": "standard", "limiter_path": tmp / "a.sqlite3"}),
            (
                "standard_one_at_a_time",
                "azure",
                0,
                None,
                {"tier": "standard", "limiter_path": tmp / "b.sqlite3", "parallel": 1},
            ),
            ("free_first_match", "azure", 0, budget_s, {"tier": "free", "limiter_path": tmp / "c.sqlite3"}),
            (
                "free_second_match_same_minute",
                "azure",
                100,
                budget_s,
                {"tier": "free", "limiter_path": tmp / "c.sqlite3"},
            ),
        ]
        gallery = Gallery(":memory:")
        local = {"tier": "free", "limiter_path": tmp / "d.sqlite3", "gallery": gallery}
        cases += [
            ("free_local_first_match", "local:azure", 0, budget_s, local),
            ("free_local_second_match_same_minute", "local:azure", HAND, budget_s, local),
        ]
        for name, spec, first, budget, options in cases:
            figures[name] = result = label_hand(fake, spec, first, budget, **options)
            emit(
                f"{name}: {result['labelled']}/{result['cards']} labelled in {result['wall_s']:.2f} s "
                f"(azure {len(result['by_azure'])}, gallery {len(result['by_gallery'])}, "
                f"unknown {len(result['unknown'])}, wrong {len(result['wrong'])})"
            )
        figures["gallery_pictures_after"] = len(gallery)
    return figures
