"""Measure Azure labelling at the arena's pace: `python -m recognizers.measure_azure_pace`.

A fake Azure Computer Vision v3.2 `analyze` endpoint on loopback answers every picture after
`--latency-ms` (200 by default), naming the landmark. The azure recognizer (the real SDK client)
labels a first hand of 20 unseen cards (both hands of a deal) under each tier, with the limiter
shared through a fresh SQLite file:

- standard (20 calls a second): calls in parallel (the default, 8 at once) and one at a time;
- free (20 calls a minute, 5,000 a month): the first match's 20 cards, then a second match's 20
  unseen cards straight after it, within the same minute, with a 4 s budget for the move.

Writes measurements/azure_pace.json (command, commit, machine, load, figures).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from recognizers.registry import get_recognizer
from recognizers.remote import ApiRecognizer
from rummy.catalog import DEFAULT_CATALOG

OUT = Path(__file__).resolve().parents[1] / "measurements" / "azure_pace.json"
KEY = "measure-key-not-a-secret"
KINDS = ("trevi fountain", "big ben", "giralda", "bryggen")


def fake_azure(latency_s: float) -> tuple[str, uvicorn.Server, threading.Thread]:
    app = FastAPI()

    @app.post("/vision/v3.2/analyze")
    async def analyze(request: Request) -> JSONResponse:
        await asyncio.sleep(latency_s)
        url = str((await request.json()).get("url", ""))
        kind = KINDS[int(url.rsplit("/", 1)[1].split(".")[0]) % 4]
        landmark = {"name": kind.title(), "confidence": 0.9}
        return JSONResponse({"categories": [{"name": "building_", "detail": {"landmarks": [landmark]}}]})

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}", server, thread


def label(
    endpoint: str, tier: str, limiter_path: Path, first: int, budget_s: float | None, **options: Any
) -> dict[str, Any]:
    azure = get_recognizer(
        "azure", endpoint=endpoint, key=KEY, tier=tier, limiter_path=limiter_path, cache=":memory:", **options
    )
    assert isinstance(azure, ApiRecognizer)
    cards = [(i, f"https://cards.example/{i}.png") for i in range(first, first + 20)]
    started = time.perf_counter()
    labels = azure.recognize(cards, DEFAULT_CATALOG, budget_s=budget_s)
    wall = time.perf_counter() - started
    unknown = sorted(card_id for card_id, lab in labels.items() if lab.landmark is None)
    reasons = sorted({labels[card_id].reason for card_id in unknown})
    return {
        "cards": len(cards),
        "labelled": len(cards) - len(unknown),
        "unknown_card_ids": unknown,
        "unknown_reasons": reasons,
        "wall_s": round(wall, 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Azure labelling at the arena's pace against a fake endpoint.")
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    load_before = list(os.getloadavg())
    cpu_started = time.process_time()
    endpoint, server, thread = fake_azure(args.latency_ms / 1000)
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        figures["standard_parallel_8"] = label(endpoint, "standard", tmp / "a.sqlite3", 0, None)
        figures["standard_one_at_a_time"] = label(endpoint, "standard", tmp / "b.sqlite3", 0, None, parallel=1)
        figures["free_first_match"] = label(endpoint, "free", tmp / "c.sqlite3", 0, 4.0)
        figures["free_second_match_same_minute"] = label(endpoint, "free", tmp / "c.sqlite3", 100, 4.0)
    server.should_exit = True
    thread.join(5)
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    result = {
        "command": "python -m recognizers.measure_azure_pace " + " ".join(argv if argv is not None else sys.argv[1:]),
        "commit": commit,
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": list(os.getloadavg()),
        },
        "latency_ms": args.latency_ms,
        "figures": figures,
        "not_measured": "the local gallery fallback (local:azure) for the cards the free tier leaves unknown; "
        "labelling on the opponent's turn",
        "cpu_s": round(time.process_time() - cpu_started, 2),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
