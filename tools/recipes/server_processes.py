"""`python tools/measure.py server-processes`: GM-MakeMove latency with the bot clients in separate processes.

One httpx client process cannot generate the load of 50 matches on a small machine without becoming
the bottleneck itself (and inflating the latencies it reports). Here the referee runs as
`python -m server serve` in its own process, and the 2 x MATCHES bots are spread over CLIENTS worker
processes, each playing its bots' random matches with asyncio. Every bot offers once per wave, so a
wave is MATCHES matches at once; waves repeat until at least --min-moves moves were timed. Prints
moves per second and MakeMove p50/p99 over all timed moves.

`--login-flood RATE` adds one more process sending RATE wrong-password logins per second for a bot
with the default (production) PBKDF2 cost while the matches run, to see what a login flood costs them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from server.accounts import Accounts
from server.storage.records import connect
from tools.recipes.server_load import Tally, _play, server_process


def play_bots(prod: str, bots: list[tuple[str, str]], seed: int) -> tuple[list[float], int]:
    """In a client process: every bot plays one match; (MakeMove latencies in seconds, error answers)."""
    tally = Tally([])

    async def wave() -> None:
        rng = random.Random(seed)
        await asyncio.gather(*(_play(prod, name, pw, random.Random(rng.random()), tally) for name, pw in bots))

    asyncio.run(wave())
    return tally.latencies, tally.errors


def flood_logins(prod: str, bot_id: str, rate: float, stop: Any) -> None:
    """In its own process: wrong-password calls for `bot_id`, `rate` per second, until `stop` is set."""
    with httpx.Client(timeout=30) as client:
        sent = 0
        started = time.monotonic()
        while not stop.is_set():
            body = {"BotId": bot_id, "BotPassword": f"guess-{sent}"}
            client.post(f"{prod}GM-GetListOfGameStyles", json=body)
            sent += 1
            time.sleep(max(0.0, started + sent / rate - time.monotonic()))


def measure(prod: str, bots: list[tuple[str, str]], clients: int, min_moves: int) -> dict[str, float]:
    shares = [bots[index::clients] for index in range(clients)]
    latencies: list[float] = []
    errors = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=clients) as pool:
        wave = 0
        while len(latencies) < min_moves:
            futures = [
                pool.submit(play_bots, prod, share, wave * clients + index) for index, share in enumerate(shares)
            ]
            for future in futures:
                timed, failed = future.result()
                latencies.extend(timed)
                errors += failed
            wave += 1
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "moves": len(ordered),
        "moves_per_s": len(ordered) / elapsed,
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "mean_ms": 1000 * statistics.fmean(ordered),
        "errors": errors,
    }


def server_processes(
    matches: int = 50,
    clients: int = 4,
    min_moves: int = 2000,
    login_flood: float = 0.0,
    emit: Callable[[str], None] = print,
) -> dict[str, Any]:
    """MakeMove latency of `matches` matches at once, with an optional failed-login flood; the figures as data."""
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "bench.sqlite3"
        db = connect(db_path)
        accounts = Accounts(db)
        bots = [(f"bench-{i}", accounts.add_bot(f"bench-{i}", iterations=1000)) for i in range(2 * matches)]
        accounts.add_bot("victim")  # the default PBKDF2 cost, as a real bot has
        db.close()
        with server_process(db_path) as prod:
            stop = multiprocessing.Event()
            flood = multiprocessing.Process(target=flood_logins, args=(prod, "victim", login_flood, stop))
            if login_flood:
                flood.start()
            try:
                row = measure(prod, bots, clients, min_moves)
            finally:
                stop.set()
                if login_flood:
                    flood.join(timeout=30)
    flooded = f", {login_flood:g} failed logins/s meanwhile" if login_flood else ""
    emit(f"{matches} matches at once, bots in {clients} client processes{flooded}")
    emit("moves  moves/s  p50 ms  p99 ms  mean ms  errors")
    emit(
        f"{row['moves']:>5}  {row['moves_per_s']:>7.0f}  {row['p50_ms']:>6.2f}  {row['p99_ms']:>6.2f}"
        f"  {row['mean_ms']:>7.2f}  {row['errors']:>6}"
    )
    return {"matches": matches, "clients": clients, "login_flood_per_s": login_flood, **row}
