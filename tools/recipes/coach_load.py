"""Coaches at their maximum beside house bots and pictures: `python tools/measure.py coach-load` (issue 41).

A real `rummy-vision serve` of this tree runs while
- 8 /play games (the per-network cap) ask the coach (`--coach`, by default `exact`, which searches until
  its time is up) for `"TimeMs": 60000` a position: each
  person waits for the coach's advice, then moves, so the coaches always have work;
- arena bots playing random moves play style-1 matches (5 s a move) against `housebot-expert`, one after
  the other, on two seats at once;
- every few seconds a /play page is reloaded the way a browser loads it: the pictures of its hands it has
  not fetched before (captioned, small), six at a time; the time until the last one arrived is a page's.

Counted: housebot-expert's results (a loss on time is a match it lost by missing a deadline) and its
fallback moves (the server's "ran out of time" warnings), the pages' picture times, and how many coach
answers arrived. Timings depend on the machine and its load (recorded with the result).
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import median
from typing import Any

import httpx

from tools.recipes.server_load import random_move

GAMES = 8
COACH_MS = 60_000
EXPERT = "housebot-expert"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tree: Path, db: Path, port: int) -> subprocess.Popen[str]:
    code = "import sys; from bot.cli import app; sys.argv[0] = 'rummy-vision'; app()"
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--db", str(db), "--log-level", "warning"]
    return subprocess.Popen(command, cwd=tree, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)


def _wait_for(base: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/play/api/options", timeout=5)
            return
        except httpx.HTTPError:
            time.sleep(0.3)
    raise RuntimeError("the server did not start")


class Load:
    def __init__(self, base: str, until: float, coach: str, started: float = 0.0) -> None:
        self.base = base
        self.started = started  # the server's start (time.monotonic()), for the pages' start times
        self.coach = coach
        self.until = until
        self.lock = threading.Lock()
        self.coach_answers: Counter[str] = Counter()
        self.person_moves = 0
        self.expert: Counter[str] = Counter()
        self.pages: list[float] = []
        self.page_times: list[list[float]] = []  # [start s after the server's start, seconds] per page
        self.pictures = 0
        self.tokens: list[str] = []
        self.clients: list[httpx.Client] = []

    def new_game(self) -> dict[str, Any]:
        """A one-round game without a time limit against housebot-greedy, coached at the maximum."""
        return {"Opponent": "housebot-greedy", "GameStyleId": 7, "Coach": {"Strategy": self.coach, "TimeMs": COACH_MS}}

    def coached_game(self, client: httpx.Client, token: str) -> None:
        """A person who waits for the coach's advice on each turn, then gives a card away."""
        with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):  # the server stops at the end
            self._coached_game(client, token)

    def _coached_game(self, client: httpx.Client, token: str) -> None:
        while time.monotonic() < self.until:
            state = client.get(f"/play/api/games/{token}").json()
            if not state["Running"]:
                token = client.post("/play/api/games", json=self.new_game()).json()["Session"]
                continue
            if not state["IsMover"]:
                time.sleep(0.5)
                continue
            advice = client.get(f"/play/api/games/{token}/coach", timeout=900)
            with self.lock:
                self.coach_answers[str(advice.status_code)] += 1
            body = {"Action": "give", "Mine": [state["MyHand"][0]["Id"]]}
            client.post(f"/play/api/games/{token}/move", json=body)
            with self.lock:
                self.person_moves += 1

    def expert_matches(self, bot: str, password: str, seed: int) -> None:
        """Style-1 matches of random moves against housebot-expert, one after the other."""
        rng = random.Random(seed)
        prod = self.base + "/prod/"
        with httpx.Client(timeout=60) as client:
            while time.monotonic() < self.until:
                login = {"BotId": bot, "BotPassword": password}
                offer = {**login, "GameStyleId": 1, "MaximumWaitTime": 5000, "OpponentId": EXPERT}
                offer |= {"DontPlayAgainstSameUser": False, "DontPlayAgainstSameBot": False}
                answer = client.post(prod + "GM-OfferGame", json=offer).json()
                key = answer.get("PlayerKey")
                while answer.get("Result") in ("SUCCESS", "WAITING_FOR_GAME"):
                    state = answer.get("GameState") or {}
                    if state.get("GameStatus") not in (None, "RUNNING"):
                        with self.lock:
                            self.expert[_house_result(state["GameStatus"])] += 1
                        break
                    if state.get("IsMover"):
                        move = {**login, "PlayerKey": key, "Move": random_move(state, rng)}
                        answer = client.post(prod + "GM-MakeMove", json=move).json()
                        continue
                    poll = {**login, "PlayerKey": key, "MaximumWaitTime": 5000}
                    answer = client.post(prod + "GM-PollForGameState", json=poll).json()
                else:
                    time.sleep(1)

    def page_loads(self, every_s: float = 5.0) -> None:
        """Reload a coached game's page now and then: its new pictures, six at a time, as a browser does."""
        seen: set[str] = set()
        turn = 0
        with ThreadPoolExecutor(6) as fetchers:
            while time.monotonic() < self.until:
                time.sleep(every_s)
                if not self.tokens:
                    continue
                turn += 1
                index = turn % len(self.tokens)
                client, token = self.clients[index], self.tokens[index]
                try:
                    state = client.get(f"/play/api/games/{token}").json()
                except (httpx.HTTPError, ValueError):
                    continue
                urls = [card["Url"] for card in state.get("MyHand", []) + state.get("OppHand", [])]
                fresh = [url for url in urls if url not in seen]
                if not fresh:
                    continue
                seen.update(fresh)
                began, start_s = time.perf_counter(), time.monotonic() - self.started
                fetch = functools.partial(_picture, client)
                answers = list(fetchers.map(fetch, fresh))
                took = time.perf_counter() - began
                with self.lock:
                    self.pages.append(took)
                    self.page_times.append([round(start_s, 1), round(took, 3)])
                    self.pictures += sum(answer.status_code == 200 for answer in answers)


def _picture(client: httpx.Client, url: str) -> httpx.Response:
    return client.get(url, params={"caption": 1, "small": 1}, timeout=600)


def _house_result(status: str) -> str:
    """housebot-expert's result from its opponent's GameStatus."""
    return {
        "LOST": "won",
        "WON": "lost",
        "DRAWN": "drawn",
        "LOST_BY_TIMEOUT": "won on time",
        "WON_BY_TIMEOUT": "lost on time",
    }.get(status, status)


def measure(tree: Path, minutes: float, coach: str = "exact") -> tuple[dict[str, Any], str]:
    folder = Path(tempfile.mkdtemp(prefix="coach-load-"))
    db = folder / "records.sqlite3"
    port = _free_port()
    server, started = _serve(tree, db, port), time.monotonic()
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base)
        token = Path(f"{db}.admin-token").read_text()
        admin = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=60)
        bots = [admin.post("/admin/bots", json={"Name": f"random-{n}", "Iterations": 1000}).json() for n in (1, 2)]
        load = Load(base, time.monotonic() + minutes * 60, coach, started)
        for _ in range(GAMES):
            client = httpx.Client(base_url=base, timeout=120)
            load.tokens.append(client.post("/play/api/games", json=load.new_game()).json()["Session"])
            load.clients.append(client)
        threads = [
            threading.Thread(target=load.coached_game, args=(client, token), daemon=True)
            for client, token in zip(load.clients, load.tokens)
        ]
        threads += [
            threading.Thread(target=load.expert_matches, args=(bot["BotId"], bot["Password"], n), daemon=True)
            for n, bot in enumerate(bots)
        ]
        threads.append(threading.Thread(target=load.page_loads, daemon=True))
        for thread in threads:
            thread.start()
        for thread in threads[GAMES:]:
            thread.join()
    finally:
        server.terminate()
        try:
            _out, said = server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            _out, said = server.communicate()
    pages = sorted(load.pages)
    figures = {
        "expert_results": dict(load.expert),
        "expert_matches": sum(load.expert.values()),
        "expert_losses_on_time": load.expert.get("lost on time", 0),
        "expert_fallback_moves": len(re.findall(rf"{EXPERT} ran out of time", said)),
        "house_fallback_moves": len(re.findall(r"housebot-\S+ ran out of time", said)),
        "pages": len(pages),
        "fresh_pictures": load.pictures,
        "page_seconds_median": round(median(pages), 3) if pages else None,
        "page_seconds_max": round(pages[-1], 3) if pages else None,
        "pages_over_1_s": sum(took > 1.0 for took in pages),
        "page_start_s_and_seconds": load.page_times,
        "coach_answers_by_status": dict(load.coach_answers),
        "person_moves": load.person_moves,
    }
    return figures, said
