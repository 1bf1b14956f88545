"""`python tools/measure.py server`: moves per second and GM-MakeMove latency over loopback HTTP.

Starts `python -m server serve` in its own process on a free port with a fresh database, registers bots,
and plays random matches with 1, 10 and 50 at once. The bots run in separate client processes
(`--client-processes`, each with its own event loop and one httpx client per bot), never in the bench's
own process, so a slow client loop is not counted as server latency. Then it times the same work in
process (Match.apply + render_gamestate per move) and prints the ratio of the time per move over HTTP
to the time per move in process. Percentiles need samples: p99 is printed only from 100 moves up.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from rummy import Give, Lay, Match, Take, render_gamestate
from server.accounts import Accounts
from server.storage.records import connect


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server_process(db_path: Path, *extra: str) -> Iterator[str]:
    """A referee in its own process; yields its /prod/ base URL."""
    port = free_port()
    command = [sys.executable, "-m", "server", "serve", "--port", str(port), "--db", str(db_path)]
    process = subprocess.Popen([*command, "--log-level", "warning", *extra], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/games", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield f"{base}/prod/"
    finally:
        process.terminate()
        process.wait(timeout=30)


def random_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal move without knowing any landmark: take, give, or lay 3 own cards (maybe a wasted turn)."""
    mine = [card[0] for card in state["MyHand"]]
    theirs = [card[0] for card in state["OppHand"]]
    choice = rng.random()
    if choice < 0.3 and len(mine) >= 3:
        return {"Lay": rng.sample(mine, 3)}
    if choice < 0.65 and theirs:
        return {"Take": rng.choice(theirs)}
    return {"Give": rng.choice(mine)}


@dataclass
class Tally:
    latencies: list[float]
    moves: int = 0
    errors: int = 0


async def _play(prod: str, name: str, password: str, rng: random.Random, tally: Tally) -> None:
    async with httpx.AsyncClient(timeout=60) as client:

        async def call(call_name: str, **fields: Any) -> dict[str, Any]:
            body = {"BotId": name, "BotPassword": password, **fields}
            answer: dict[str, Any] = (await client.post(f"{prod}GM-{call_name}", json=body)).json()
            if answer["Result"] not in ("SUCCESS", "WAITING_FOR_GAME"):
                tally.errors += 1
            return answer

        answer = await call(
            "OfferGame",
            GameStyleId=1,
            MaximumWaitTime=5000,
            OpponentId=None,
            DontPlayAgainstSameBot=False,
            DontPlayAgainstSameUser=False,
        )
        key = answer["PlayerKey"]
        while answer["Result"] == "WAITING_FOR_GAME":
            answer = await call("PollForGameState", PlayerKey=key, MaximumWaitTime=5000)
        state = answer["GameState"]
        while state["GameStatus"] == "RUNNING":
            if state["IsMover"]:
                started = time.perf_counter()
                answer = await call("MakeMove", PlayerKey=key, Move=random_move(state, rng))
                tally.latencies.append(time.perf_counter() - started)
                tally.moves += 1
            else:
                answer = await call("PollForGameState", PlayerKey=key, MaximumWaitTime=5000)
            state = answer["GameState"]


async def _bots_play(prod: str, bots: list[tuple[str, str]], seed: float, tally: Tally) -> None:
    rng = random.Random(seed)
    await asyncio.gather(*(_play(prod, name, pw, random.Random(rng.random()), tally) for name, pw in bots))


def _client_process(job: tuple[str, list[tuple[str, str]], float]) -> tuple[list[float], int, int]:
    """One client process: its share of the bots play one match each, in this process's event loop."""
    prod, bots, seed = job
    tally = Tally([])
    asyncio.run(_bots_play(prod, bots, seed, tally))
    return tally.latencies, tally.moves, tally.errors


def measure_http(
    prod: str, bots: list[tuple[str, str]], concurrent: int, min_moves: int, processes: int = 4
) -> dict[str, Any]:
    """Waves of `concurrent` matches (2 x concurrent bots spread over client processes) until `min_moves`."""
    players = bots[: 2 * concurrent]
    count = max(1, min(processes, len(players)))
    shares = [players[index::count] for index in range(count)]
    tally = Tally([])
    wave = 0
    # fork: the children need nothing but the arguments, and start at once.
    with multiprocessing.get_context("fork").Pool(count) as pool:
        started = time.perf_counter()
        while tally.moves < min_moves:
            jobs = [(prod, share, wave * 1000 + index) for index, share in enumerate(shares)]
            for latencies, moves, errors in pool.map(_client_process, jobs):
                tally.latencies.extend(latencies)
                tally.moves += moves
                tally.errors += errors
            wave += 1
        elapsed = time.perf_counter() - started
    ordered = sorted(tally.latencies)
    return {
        "concurrent": concurrent,
        "moves": tally.moves,
        "moves_per_s": tally.moves / elapsed,
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        # With fewer than 100 samples the 99th percentile is just the maximum: not reported as such.
        "p99_ms": 1000 * ordered[int(len(ordered) * 0.99)] if len(ordered) >= 100 else None,
        "max_ms": 1000 * ordered[-1],
        "mean_ms": 1000 * statistics.fmean(ordered),
        "errors": tally.errors,
        "client_processes": count,
    }


def measure_in_process(matches: int = 300) -> float:
    """Mean seconds per move for the referee's own work: apply the move and render the mover's view."""
    rng = random.Random(7)
    moves, spent = 0, 0.0
    for seed in range(matches):
        match = Match(seed=seed)
        while not match.over:
            player = match.current.mover
            state = render_gamestate(match, player)
            raw = random_move(state, rng)
            move = Lay(tuple(raw["Lay"])) if "Lay" in raw else Take(raw["Take"]) if "Take" in raw else Give(raw["Give"])
            started = time.perf_counter()
            match.apply(player, move)
            render_gamestate(match, player, url_prefix="http://127.0.0.1:8080")
            spent += time.perf_counter() - started
            moves += 1
    return spent / moves


def server_load(
    levels: list[int], min_moves: int = 600, client_processes: int = 4, emit: Callable[[str], None] = print
) -> dict[str, Any]:
    """Time the referee over HTTP at each level of concurrent matches, then in process; the figures as data."""
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "bench.sqlite3"
        db = connect(db_path)
        accounts = Accounts(db)
        bots = [(f"bench-{i}", accounts.add_bot(f"bench-{i}", iterations=1000)) for i in range(2 * max(levels))]
        db.close()
        with server_process(db_path) as prod:
            rows = [measure_http(prod, bots, level, min_moves, client_processes) for level in levels]
    in_process = measure_in_process()
    emit(f"in process: {1e6 * in_process:.1f} us per move (Match.apply + render_gamestate)")
    emit("concurrent  clients  moves  moves/s  p50 ms  p99 ms  max ms  mean ms  errors  HTTP/in-process (mean)")
    for row in rows:
        row["http_over_in_process"] = row["mean_ms"] / 1000 / in_process
        p99 = "     -" if row["p99_ms"] is None else f"{row['p99_ms']:>6.2f}"
        emit(
            f"{row['concurrent']:>10}  {row['client_processes']:>7}  {row['moves']:>5}  {row['moves_per_s']:>7.0f}"
            f"  {row['p50_ms']:>6.2f}  {p99}  {row['max_ms']:>6.2f}  {row['mean_ms']:>7.2f}"
            f"  {row['errors']:>6}  {row['http_over_in_process']:>8.0f}x"
        )
    return {"in_process_seconds_per_move": in_process, "levels": rows}
