"""A small protocol referee for the client's tests (the real one is server/).

One registered bot plays `housebot-fake`, a house player that answers at once with a random Give or
Take, so polls never wait. The referee enforces the deadline strictly (a move arriving after the
ResponseDeadline loses the match by timeout) and keeps a log of everything it saw, so tests can
check that the client never ran late, never sent a move the rules refuse, and cancelled its offers.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from rummy import MalformedMove, Match, parse_move, render_gamestate
from rummy.moves import Give, Take

HOUSE = "housebot-fake"


@dataclass
class Seat:
    match: Match | None
    opponent: str
    game_id: int
    deadline_ms: int = 0
    polls_until_match: int = 0
    cancelled: bool = False
    ended_seen: bool = False


@dataclass
class RefereeLog:
    calls: list[tuple[str, str]] = field(default_factory=list)
    accepted_moves: list[dict[str, Any]] = field(default_factory=list)
    refused_moves: list[tuple[Any, str]] = field(default_factory=list)
    late_moves: list[float] = field(default_factory=list)  # seconds late
    cancelled_offers: int = 0
    passwords_seen: set[str] = field(default_factory=set)


def create_referee(
    *,
    bots: dict[str, str] | None = None,
    move_time_ms: int = 400,
    rounds: int = 1,
    polls_until_match: int = 0,
    never_match: bool = False,
    seed: int = 7,
) -> tuple[FastAPI, RefereeLog]:
    app = FastAPI()
    accounts = bots or {"tester": "secret"}
    log = RefereeLog()
    seats: dict[str, Seat] = {}
    lock = threading.Lock()
    rng = random.Random(seed)
    game_ids = iter(range(1001, 10**6))

    def answer(call: str, result: str, **fields: Any) -> JSONResponse:
        log.calls.append((call, result))
        return JSONResponse({"Result": result, **fields})

    def state_of(seat: Seat, root: str) -> dict[str, Any]:
        assert seat.match is not None
        deadline = seat.deadline_ms if seat.match.mover == 0 else 0
        return render_gamestate(
            seat.match,
            0,
            game_id=seat.game_id,
            opponent_id=seat.opponent,
            response_deadline_ms=deadline,
            url_prefix=root,
        )

    def house_moves(seat: Seat) -> None:
        match = seat.match
        assert match is not None
        while not match.over and match.mover == 1:
            hands = match.current.hands
            options = [Give(card.id) for card in hands[1]] + [Take(card.id) for card in hands[0]]
            match.apply(1, rng.choice(options))
        if not match.over:
            seat.deadline_ms = int(time.time() * 1000) + move_time_ms

    def check_time(seat: Seat) -> None:
        """A mover past its deadline loses at once, as on the arena."""
        match = seat.match
        if match is not None and not match.over and match.mover == 0 and time.time() * 1000 > seat.deadline_ms:
            log.late_moves.append(time.time() - seat.deadline_ms / 1000)
            match.forfeit(0)

    def start(seat: Seat) -> None:
        seat.match = Match(seed=rng.getrandbits(32), rounds=rounds)
        house_moves(seat)

    async def body_of(request: Request, call: str) -> tuple[dict[str, Any] | None, JSONResponse | None]:
        try:
            data = json.loads(await request.body())
        except ValueError:
            return None, answer(call, "INVALID_LOGIN_OR_PASSWORD", ErrorMessage="body is not JSON")
        log.passwords_seen.add(str(data.get("BotPassword")))
        if accounts.get(data.get("BotId")) != data.get("BotPassword"):
            return None, answer(call, "INVALID_LOGIN_OR_PASSWORD")
        return data, None

    def end_or_state(call: str, seat: Seat, root: str) -> JSONResponse:
        assert seat.match is not None
        if seat.match.over:
            result = "GAME_HAS_ENDED" if seat.ended_seen else "SUCCESS"
            seat.ended_seen = True
            return answer(call, result, GameState=state_of(seat, root))
        return answer(call, "SUCCESS", GameState=state_of(seat, root))

    @app.post("/prod/GM-GetListOfGameStyles")
    async def styles(request: Request) -> JSONResponse:
        data, refused = await body_of(request, "GM-GetListOfGameStyles")
        if refused:
            return refused
        info = {"Rounds": rounds, "MoveTimeMs": move_time_ms}
        style = {"GameStyleId": 3, "GameType": 15, "Stake": 0, "Prize": 0, "GameTypeSpecificInfo": info}
        return answer("GM-GetListOfGameStyles", "SUCCESS", GameStyles=[style], Balance=1000)

    @app.post("/prod/GM-OfferGame")
    async def offer(request: Request) -> JSONResponse:
        call = "GM-OfferGame"
        data, refused = await body_of(request, call)
        if refused:
            return refused
        if data.get("OpponentId") not in (None, HOUSE):
            return answer(call, "INVALID_LOGIN_OR_PASSWORD", ErrorMessage="Check of OpponentId failed")
        key = secrets.token_urlsafe(16)
        with lock:
            seat = Seat(None, HOUSE, next(game_ids), polls_until_match=10**9 if never_match else polls_until_match)
            seats[key] = seat
            if seat.polls_until_match == 0:
                start(seat)
                return answer(call, "SUCCESS", PlayerKey=key, GameState=state_of(seat, str(request.base_url)))
        return answer(call, "WAITING_FOR_GAME", PlayerKey=key)

    @app.post("/prod/GM-PollForGameState")
    async def poll(request: Request) -> JSONResponse:
        call = "GM-PollForGameState"
        data, refused = await body_of(request, call)
        if refused:
            return refused
        with lock:
            seat = seats.get(data.get("PlayerKey"))
            if seat is None or seat.cancelled:
                return answer(call, "INVALID_PLAYER_KEY")
            if seat.match is None:
                seat.polls_until_match -= 1
                if seat.polls_until_match > 0:
                    return answer(call, "WAITING_FOR_GAME")
                start(seat)
            check_time(seat)
            return end_or_state(call, seat, str(request.base_url))

    @app.post("/prod/GM-MakeMove")
    async def make_move(request: Request) -> JSONResponse:
        call = "GM-MakeMove"
        data, refused = await body_of(request, call)
        if refused:
            return refused
        with lock:
            seat = seats.get(data.get("PlayerKey"))
            if seat is None or seat.match is None:
                return answer(call, "INVALID_PLAYER_KEY")
            check_time(seat)
            if seat.match.over:
                return end_or_state(call, seat, str(request.base_url))
            if seat.match.mover != 0:
                return answer(call, "NOT_YOUR_MOVE", GameState=state_of(seat, str(request.base_url)))
            try:
                seat.match.apply(0, parse_move(data.get("Move")))
            except MalformedMove as error:
                log.refused_moves.append((data.get("Move"), str(error)))
                return answer(call, "INVALID_MOVE", ErrorMessage=str(error))
            log.accepted_moves.append(data["Move"])
            house_moves(seat)
            return end_or_state(call, seat, str(request.base_url))

    @app.post("/prod/GM-CancelGameOffer")
    async def cancel(request: Request) -> JSONResponse:
        call = "GM-CancelGameOffer"
        data, refused = await body_of(request, call)
        if refused:
            return refused
        with lock:
            seat = seats.get(data.get("PlayerKey"))
            if seat is None:
                return answer(call, "INVALID_PLAYER_KEY")
            if seat.match is not None:
                return answer(call, "GAME_ALREADY_STARTED")
            seat.cancelled = True
            log.cancelled_offers += 1
        return answer(call, "SUCCESS")

    return app, log
