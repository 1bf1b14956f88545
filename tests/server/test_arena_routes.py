"""The arena's routes (server/arena_routes.py) get the referee and the settings through Depends, their bodies
as the protocol's models, and their size limit from the middleware of server/body_limit.py: a stand-in
referee answers them without a server, a database or a lifespan."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from server.app import create_app
from server.arena_routes import ARENA_BODY_LIMIT
from server.arena_routes import router as arena_router
from server.body_limit import BodyLimitMiddleware
from server.deps import referee_of, settings_of
from server.protocol import CancelRequest, GameStylesRequest, MakeMoveRequest, OfferGameRequest, Result
from server.seats import Refusal
from server.settings import Settings

CREDENTIALS = {"BotId": "alice", "BotPassword": "secret"}


class FakeReferee:
    """Answers each call with what it was given; refuses a cancel."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, str | None]] = []

    async def game_styles(self, body: GameStylesRequest) -> dict[str, Any]:
        self.calls.append(("styles", body, None))
        return {"Result": "SUCCESS", "GameStyles": [], "Asked": body.GameTypeId}

    async def offer_game(self, body: OfferGameRequest, base_url: str) -> dict[str, Any]:
        self.calls.append(("offer", body, base_url))
        return {"Result": "WAITING_FOR_GAME", "PlayerKey": f"key-for-{body.BotId}-{body.GameStyleId}"}

    async def make_move(self, body: MakeMoveRequest, base_url: str) -> dict[str, Any]:
        self.calls.append(("move", body, base_url))
        return {"Result": "SUCCESS", "Move": body.Move}

    async def cancel(self, body: CancelRequest) -> dict[str, Any]:
        self.calls.append(("cancel", body, None))
        raise Refusal(Result.INVALID_PLAYER_KEY, f"no offer {body.PlayerKey}")


def arena_app(referee: FakeReferee, settings: Settings) -> FastAPI:
    app = FastAPI()
    app.include_router(arena_router)
    app.add_middleware(BodyLimitMiddleware, limits=(ARENA_BODY_LIMIT,))
    app.dependency_overrides[referee_of] = lambda: referee
    app.dependency_overrides[settings_of] = lambda: settings
    return app


@pytest.fixture
def referee() -> FakeReferee:
    return FakeReferee()


@pytest.fixture
def client(referee: FakeReferee) -> TestClient:
    return TestClient(arena_app(referee, Settings(db_path="unused.sqlite3", public_url="https://cards.example")))


def test_a_stand_in_referee_answers_the_arena_routes_with_the_bodies_as_models(client, referee):
    offered = client.post("/prod/GM-OfferGame", json={**CREDENTIALS, "GameStyleId": 3, "MaximumWaitTime": 0})
    assert offered.status_code == 200
    assert offered.json() == {"Result": "WAITING_FOR_GAME", "PlayerKey": "key-for-alice-3"}
    moved = client.post("/prod/GM-MakeMove", json={**CREDENTIALS, "PlayerKey": "k", "Move": {"Take": 7}})
    assert moved.json() == {"Result": "SUCCESS", "Move": {"Take": 7}}
    styles = client.post("/prod/GM-GetListOfGameStyles", json=CREDENTIALS)
    assert styles.json()["Asked"] is None

    (offer_kind, offer, offer_url), (_, move, move_url), (_, asked, _) = referee.calls
    assert offer_kind == "offer" and isinstance(offer, OfferGameRequest)
    assert (offer.GameStyleId, offer.MaximumWaitTime, offer.DontPlayAgainstSameBot) == (3, 0, False)
    assert isinstance(move, MakeMoveRequest) and move.PlayerKey == "k"
    assert isinstance(asked, GameStylesRequest)
    # The settings come through their dependency too: --public-url is the card URLs' base.
    assert offer_url == move_url == "https://cards.example"


def test_a_refusal_is_a_200_and_a_bad_body_a_400_that_never_reaches_the_referee(client, referee):
    refused = client.post("/prod/GM-CancelGameOffer", json={**CREDENTIALS, "PlayerKey": "gone"})
    assert refused.status_code == 200
    assert refused.content == b'{"Result":"INVALID_PLAYER_KEY","ErrorMessage":"no offer gone"}'
    assert [kind for kind, _, _ in referee.calls] == ["cancel"]

    bad = client.post("/prod/GM-MakeMove", json={**CREDENTIALS, "PlayerKey": 5, "Move": 1})
    assert bad.status_code == 400
    assert bad.json() == {
        "Result": "INVALID_PLAYER_KEY",
        "ErrorMessage": "PlayerKey: Input should be a valid string, got 5",
    }
    nan = client.post("/prod/GM-GetListOfGameStyles", content=b'{"BotId": "a", "BotPassword": "b", "GameTypeId": NaN}')
    assert nan.status_code == 400 and "not valid JSON" in nan.json()["ErrorMessage"]
    assert [kind for kind, _, _ in referee.calls] == ["cancel"]


def test_the_middleware_refuses_a_large_body_before_the_route_runs(client, referee):
    declared = client.post("/prod/GM-GetListOfGameStyles", content=b"{" + b" " * 70_000 + b"}")
    assert declared.status_code == 413
    assert declared.json() == {
        "Result": "INVALID_LOGIN_OR_PASSWORD",
        "ErrorMessage": "the request body is 70002 bytes; the limit is 64 KB",
    }
    chunked = client.post("/prod/GM-GetListOfGameStyles", content=iter([b"{"] + [b" " * 10_000] * 10 + [b"}"]))
    assert chunked.status_code == 413 and "over 65536 bytes" in chunked.json()["ErrorMessage"]
    assert referee.calls == []


def test_a_body_whose_client_goes_away_mid_read_reaches_no_route(referee):
    app = arena_app(referee, Settings(db_path="unused.sqlite3"))
    sent: list[dict[str, Any]] = []
    incoming = iter(
        [{"type": "http.request", "body": b'{"BotId": "al', "more_body": True}, {"type": "http.disconnect"}]
    )

    async def receive() -> dict[str, Any]:
        return next(incoming)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/prod/GM-GetListOfGameStyles",
        "raw_path": b"/prod/GM-GetListOfGameStyles",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 499 and referee.calls == []


def test_the_served_app_takes_its_referee_from_the_dependency(tmp_path, referee):
    app = create_app(Settings(db_path=tmp_path / "records.sqlite3", public_url="https://public.example"))
    app.dependency_overrides[referee_of] = lambda: referee
    client = TestClient(app, base_url="http://127.0.0.1")  # no lifespan: the real referee never starts
    try:
        body = {**CREDENTIALS, "GameStyleId": 2, "MaximumWaitTime": 0}
        answer = client.post("/prod/GM-OfferGame", content=json.dumps(body))
        assert answer.json() == {"Result": "WAITING_FOR_GAME", "PlayerKey": "key-for-alice-2"}
        assert referee.calls[0][2] == "https://public.example"  # the real settings, through their dependency
        too_big = client.post("/prod/GM-OfferGame", content=b" " * 100_000)
        assert too_big.status_code == 413 and len(referee.calls) == 1
    finally:
        app.state.images.close()
        app.state.records.close()
