"""The FastAPI application: the five arena calls under /prod/, card images, records, and the oracle.

`create_app(settings)` builds a self-contained app; other features (the replay viewer) add routes with
`app.include_router(...)` and reach the referee and the records through `app.state.referee` and
`app.state.records`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from rummy.records import Records
from server.accounts import Accounts
from server.cards_images import CardImages
from server.protocol import (
    GAME_TYPE_ID,
    BadRequest,
    CancelRequest,
    GameStylesRequest,
    MakeMoveRequest,
    OfferGameRequest,
    PollRequest,
    Result,
    answer,
    parse_body,
)
from server.referee import Referee, Refusal
from server.settings import Settings
from server.viewer_routes import router as viewer_router

log = logging.getLogger(__name__)

DESCRIPTION = f"""
The local Rummy Vision referee. Bots call the arena's five `GM-` calls under `/prod/` with JSON bodies;
every answer is a JSON object whose first field is `Result`. Rummy Vision's `GameTypeId` here is
**{GAME_TYPE_ID}**. Malformed requests get HTTP 400 with an `ErrorMessage` naming the field; every
game answer (refusals included) is HTTP 200.
"""


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    # Bodies are read by hand (to answer bad ones in the protocol's own words), so describe them for /docs.
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


def create_app(settings: Settings) -> FastAPI:
    records = Records(settings.db_path)
    accounts = Accounts(records.db)
    referee = Referee(settings, records, accounts)
    images = CardImages(settings.images_dir)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        referee.start()
        try:
            yield
        finally:
            await referee.close()
            records.close()

    app = FastAPI(title="Rummy Vision referee", description=DESCRIPTION, version="1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.referee = referee
    app.state.records = records
    app.state.accounts = accounts
    app.state.images = images

    def base_url(request: Request) -> str:
        return settings.public_url or str(request.base_url).rstrip("/")

    async def call(
        request: Request, model: type[Any], handler: Callable[[Any], Awaitable[dict[str, Any]]]
    ) -> JSONResponse:
        try:
            body = parse_body(await request.body(), model)
            return JSONResponse(await handler(body))
        except BadRequest as bad:
            return JSONResponse(bad.answer, status_code=400)
        except Refusal as refusal:
            return JSONResponse(refusal.answer)

    arena = APIRouter(prefix="/prod", tags=["arena protocol"])

    @arena.post("/GM-GetListOfGameStyles", openapi_extra=_body_doc(GameStylesRequest))
    async def get_list_of_game_styles(request: Request) -> JSONResponse:
        """The hosted styles with rounds and move time in `GameTypeSpecificInfo`, and the bot's balance."""
        return await call(request, GameStylesRequest, referee.game_styles)

    @arena.post("/GM-OfferGame", openapi_extra=_body_doc(OfferGameRequest))
    async def offer_game(request: Request) -> JSONResponse:
        """Offer to play a style; waits up to `MaximumWaitTime` ms for an opponent."""
        return await call(request, OfferGameRequest, lambda body: referee.offer_game(body, base_url(request)))

    @arena.post("/GM-PollForGameState", openapi_extra=_body_doc(PollRequest))
    async def poll_for_game_state(request: Request) -> JSONResponse:
        """Long poll: answers when the match starts, it is the bot's turn or the match ends, or on time."""
        return await call(request, PollRequest, lambda body: referee.poll(body, base_url(request)))

    @arena.post("/GM-MakeMove", openapi_extra=_body_doc(MakeMoveRequest))
    async def make_move(request: Request) -> JSONResponse:
        """Play `Move` for the seat named by `PlayerKey`."""
        return await call(request, MakeMoveRequest, lambda body: referee.make_move(body, base_url(request)))

    @arena.post("/GM-CancelGameOffer", openapi_extra=_body_doc(CancelRequest))
    async def cancel_game_offer(request: Request) -> JSONResponse:
        """Withdraw an offer that is still waiting for an opponent."""
        return await call(request, CancelRequest, referee.cancel)

    app.include_router(arena)
    app.include_router(viewer_router)

    @app.get("/cards/{name}", tags=["cards"], response_class=Response)
    async def card_image(name: str) -> Response:
        """The picture of one card, as PNG."""
        token = name.removesuffix(".png")
        landmark = referee.landmark_of_token(token) if name.endswith(".png") else None
        if landmark is None:
            return JSONResponse({"ErrorMessage": f"no card {name}"}, status_code=404)
        data = await asyncio.to_thread(images.png, token, landmark)
        return Response(data, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/games", tags=["records"])
    async def list_games() -> dict[str, Any]:
        """Every recorded match, newest first (no decks or labels)."""
        return {"Games": records.list_matches()}

    @app.get("/games/{game_id}", tags=["records"])
    async def game_record(game_id: int) -> JSONResponse:
        """A finished (or aborted) match's full record for replay; a running match shows its summary only."""
        summary = records.match_summary(game_id)
        if summary is None:
            return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
        if summary["Status"] == "RUNNING":
            return JSONResponse({**summary, "Redacted": True, "ErrorMessage": "the match is still running"})
        return JSONResponse(records.match_record(game_id))

    if settings.oracle:

        @app.get("/oracle/labels/{game_id}", tags=["oracle"])
        async def oracle_labels(game_id: int, request: Request) -> JSONResponse:
            """{card url: landmark} for every card of the match's current round (local play only)."""
            labels = referee.oracle_labels(game_id, base_url(request))
            if labels is None:
                return JSONResponse({"ErrorMessage": f"no match {game_id} in play"}, status_code=404)
            return JSONResponse(labels)

    @app.exception_handler(RequestValidationError)
    async def bad_parameters(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}" for item in error.errors())
        return JSONResponse(answer(Result.INVALID_LOGIN_OR_PASSWORD, ErrorMessage=problems), status_code=400)

    return app
