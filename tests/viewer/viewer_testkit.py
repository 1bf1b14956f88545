"""Helpers for the viewer and play tests: a uvicorn server on a free port in a thread, Debian's chromium
through Playwright, and two arena bots playing over HTTP."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.embedded import EmbeddedServer
from server.settings import Settings
from tools.recipes.browser import BrowserMissing
from tools.recipes.browser import debian_chromium as browser_of_debian

FAST_HASH = 1000  # PBKDF2 iterations for test bots: these tests are about the viewer, not the hash cost


class ViewerServer(EmbeddedServer):
    """The real app on a free loopback port, with one kept-alive client (a match makes hundreds of calls)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.client = httpx.Client(base_url=self.base, timeout=15)

    def get(self, path: str) -> httpx.Response:
        return self.client.get(path)

    def stop(self) -> None:
        self.client.close()
        super().stop()


@contextmanager
def servers_on(db_path: Path) -> Iterator[Callable[..., ViewerServer]]:
    """`start(**settings)` starts a real server on the database; all are stopped on leaving."""
    started: list[ViewerServer] = []

    def start(**overrides: Any) -> ViewerServer:
        server = ViewerServer(Settings(**{"db_path": db_path, **overrides}))
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


@contextmanager
def debian_chromium() -> Iterator[Any]:
    """Debian's chromium through Playwright (tools.recipes.browser); a missing browser fails the test."""
    try:
        with browser_of_debian() as browser:
            yield browser
    except BrowserMissing as missing:
        pytest.fail(str(missing))


class ArenaSeat:
    """One bot's side of a match over the arena protocol, synchronously."""

    def __init__(self, server: ViewerServer, name: str, password: str) -> None:
        self.server, self.name, self.password = server, name, password
        self.key = ""
        self.state: dict[str, Any] = {}

    def call(self, call: str, **fields: Any) -> dict[str, Any]:
        body = {"BotId": self.name, "BotPassword": self.password, **fields}
        response = self.server.client.post(f"/prod/GM-{call}", json=body)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        if "GameState" in answer:
            self.state = answer["GameState"]
        return answer

    def offer(self, style: int, wait_ms: int) -> dict[str, Any]:
        answer = self.call(
            "OfferGame",
            GameStyleId=style,
            MaximumWaitTime=wait_ms,
            OpponentId=None,
            DontPlayAgainstSameUser=False,
            DontPlayAgainstSameBot=False,
        )
        self.key = answer["PlayerKey"]
        return answer

    def poll(self) -> dict[str, Any]:
        return self.call("PollForGameState", PlayerKey=self.key, MaximumWaitTime=0)

    def move(self, move: Any) -> dict[str, Any]:
        answer = self.call("MakeMove", PlayerKey=self.key, Move=move)
        assert answer["Result"] == "SUCCESS", answer
        return answer


class HttpMatch:
    """Two bots playing random legal moves over HTTP, one move at a time, so a test can look in between."""

    def __init__(self, server: ViewerServer, passwords: dict[str, str], style: int, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        first, second = (ArenaSeat(server, name, password) for name, password in passwords.items())
        assert first.offer(style, 0)["Result"] == "WAITING_FOR_GAME"
        assert second.offer(style, 5000)["Result"] == "SUCCESS"
        first.poll()
        self.seats = (first, second)
        self.game_id = int(first.state["GameId"])
        self.moves = 0

    @property
    def running(self) -> bool:
        return self.seats[0].state["GameStatus"] == "RUNNING"

    def play(self, moves: int | None = None) -> None:
        """Play `moves` moves (all of them when None) with whoever is to move."""
        played = 0
        while self.running and (moves is None or played < moves):
            mover = next(seat for seat in self.seats if seat.state["IsMover"])
            mover.move(self._random_move(mover.state))
            for seat in self.seats:
                if seat is not mover:
                    seat.poll()
            played += 1
            self.moves += 1

    def _random_move(self, state: dict[str, Any]) -> dict[str, Any]:
        mine = [card[0] for card in state["MyHand"]]
        theirs = [card[0] for card in state["OppHand"]]
        choice = self.rng.random()
        if choice < 0.35 and len(mine) >= 3:
            return {"Lay": self.rng.sample(mine, 3)}
        if choice < 0.7 and theirs:
            return {"Take": self.rng.choice(theirs)}
        return {"Give": self.rng.choice(mine)}
