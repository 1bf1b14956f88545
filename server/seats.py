"""A seat at the referee's table: one PlayerKey, the match it sits in, and the long poll that waits on it.

Everything here runs on the server's event loop (one thread), so a seat's state never changes between
two lines without an `await`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from rummy import Match
from server.accounts import Bot
from server.lobby import OfferTerms
from server.protocol import Result, answer
from server.styles import GameStyle


class Refusal(Exception):
    """Ends a call early with this answer (HTTP 200: a protocol answer, not a malformed request)."""

    def __init__(self, result: Result, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.answer = answer(result, ErrorMessage=message, **fields)


@dataclass(eq=False)
class Seat:
    key: str
    bot: Bot
    style: GameStyle
    terms: OfferTerms
    live: LiveMatch | None = None
    index: int = 0
    cancelled: bool = False
    why_cancelled: str = "this offer was cancelled"
    stake_held: bool = False  # the offer's stake is held in the records until it is paired or released
    busy: bool = False
    last_seen: float = 0.0  # event-loop time when a call on this seat last ended
    # What this seat has been told, so that a long poll knows whether there is news.
    told_started: bool = False
    told_end: bool = False
    poke: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class LiveMatch:
    game_id: int
    style: GameStyle
    match: Match
    seats: tuple[Seat, Seat]
    url_prefix: str
    turn: int = 0  # accepted moves so far
    deadline_ms: int = 0
    timer: asyncio.TimerHandle | None = None
    tokens: set[str] = field(default_factory=set)
    refused_turn: int = -1  # the turn whose refused moves `refused_in_turn` counts
    refused_in_turn: int = 0

    def opponent_name(self, index: int) -> str:
        return self.seats[1 - index].bot.name


def has_news(seat: Seat) -> bool:
    live = seat.live
    if live is None:
        return False
    if not seat.told_started:
        return True
    if live.match.over:
        return not seat.told_end
    # While it is the seat's turn a poll answers at once, even if this turn was told before: the
    # earlier answer may have been lost on the way, and a bot must not wait out its own deadline.
    return live.match.mover == seat.index


async def wait_for_news(seat: Seat, wait_ms: int, shutdown: asyncio.Event | None = None) -> None:
    """Until the seat has news, `wait_ms` pass, or the server shuts down (which pokes every seat)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + wait_ms / 1000
    while not has_news(seat) and not (shutdown is not None and shutdown.is_set()):
        remaining = end - loop.time()
        if remaining <= 0:
            return
        seat.poke.clear()
        try:
            await asyncio.wait_for(seat.poke.wait(), remaining)
        except TimeoutError:
            return


class BusySeat:
    """One call at a time per PlayerKey: a second one answers CALL_ALREADY_IN_PROCESS at once."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    async def __aenter__(self) -> Seat:
        if self.seat.busy:
            raise Refusal(Result.CALL_ALREADY_IN_PROCESS, "another call on this PlayerKey is still being answered")
        self.seat.busy = True
        return self.seat

    async def __aexit__(self, *exc_info: object) -> None:
        self.seat.busy = False  # also when a dropped connection cancelled the call
        self.seat.last_seen = asyncio.get_running_loop().time()
