"""Helpers for the server tests: a uvicorn server on a free port in a thread, and arena-speaking clients."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx

from server.accounts import Accounts
from server.embedded import EmbeddedServer
from server.storage.records import connect
from tools.recipes.server_load import random_move

FAST_HASH = 1000  # PBKDF2 iterations for test bots: the tests are about the protocol, not the hash cost


def register_bots(db_path: Path, users_by_bot: dict[str, str], balance: int = 1000) -> dict[str, str]:
    db = connect(db_path)
    try:
        accounts = Accounts(db)
        return {
            name: accounts.add_bot(name, user=user, balance=balance, iterations=FAST_HASH)
            for name, user in users_by_bot.items()
        }
    finally:
        db.close()


class LiveServer(EmbeddedServer):
    """The real app under uvicorn on a free loopback port, with a helper to send raw arena calls."""

    def call(self, name: str, body: Any, **kwargs: Any) -> httpx.Response:
        """POST one arena call synchronously; `body` may be raw bytes to send malformed requests."""
        if isinstance(body, (bytes, str)):
            return httpx.post(self.prod + f"GM-{name}", content=body, timeout=15, **kwargs)
        return httpx.post(self.prod + f"GM-{name}", json=body, timeout=15, **kwargs)


class ArenaBot:
    """One bot's calls over HTTP, as an arena client makes them."""

    def __init__(self, client: httpx.AsyncClient, prod: str, name: str, password: str) -> None:
        self.client = client
        self.prod = prod
        self.name = name
        self.password = password
        self.answers: list[dict[str, Any]] = []

    async def call(self, name: str, **fields: Any) -> dict[str, Any]:
        body = {"BotId": self.name, "BotPassword": self.password, **fields}
        response = await self.client.post(self.prod + f"GM-{name}", json=body)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert next(iter(answer)) == "Result"
        self.answers.append({"call": name, **answer})
        return answer

    async def offer(self, style: int = 1, wait: int = 0, **fields: Any) -> dict[str, Any]:
        fields.setdefault("OpponentId", None)
        fields.setdefault("DontPlayAgainstSameUser", False)
        fields.setdefault("DontPlayAgainstSameBot", False)
        return await self.call("OfferGame", GameStyleId=style, MaximumWaitTime=wait, **fields)

    async def poll(self, key: str, wait: int = 0) -> dict[str, Any]:
        return await self.call("PollForGameState", PlayerKey=key, MaximumWaitTime=wait)

    async def move(self, key: str, move: Any) -> dict[str, Any]:
        return await self.call("MakeMove", PlayerKey=key, Move=move)

    async def play(self, style: int = 1, rng: random.Random | None = None, **offer_fields: Any) -> PlayedMatch:
        """Offer, wait for a match and play random legal moves to the end."""
        rng = rng or random.Random()
        answer = await self.offer(style, wait=5000, **offer_fields)
        key = answer["PlayerKey"]
        while answer["Result"] == "WAITING_FOR_GAME":
            answer = await self.poll(key, 5000)
        assert answer["Result"] == "SUCCESS", answer
        state = answer["GameState"]
        moves = 0
        while state["GameStatus"] == "RUNNING":
            if state["IsMover"]:
                answer = await self.move(key, random_move(state, rng))
                moves += 1
            else:
                answer = await self.poll(key, 5000)
            assert answer["Result"] == "SUCCESS", answer
            state = answer["GameState"]
        return PlayedMatch(key, state, moves)


class PlayedMatch:
    def __init__(self, key: str, final: dict[str, Any], moves: int) -> None:
        self.key = key
        self.final = final
        self.moves = moves


async def gather_bots(*coroutines: Any) -> list[Any]:
    return list(await asyncio.gather(*coroutines))


Seat = tuple["ArenaBot", str, dict[str, Any]]  # a bot, its PlayerKey and its first GameState


async def paired(first: ArenaBot, second: ArenaBot, style: int) -> tuple[Seat, Seat]:
    """`first` offers, `second` accepts, both see the match: (the mover's seat, the other's)."""
    first_key = (await first.offer(style))["PlayerKey"]
    second_answer = await second.offer(style)
    first_state = (await first.poll(first_key))["GameState"]
    seats = [(first, first_key, first_state), (second, second_answer["PlayerKey"], second_answer["GameState"])]
    mover, waiter = sorted(seats, key=lambda seat: not seat[2]["IsMover"])
    return mover, waiter
