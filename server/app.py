"""The FastAPI application: the five arena calls under /prod/, card images, records, the oracle and the
local admin API.

`create_app(settings)` builds a self-contained app; other features (the replay viewer) add routes with
`app.include_router(...)` and reach the referee and the records through `app.state.referee` and
`app.state.records`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect

from server.accounts import Accounts
from server.admin import create_token, remove_token
from server.admin import router as admin_router
from server.cards import CardImages
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.routes import router as cards_router
from server.http_io import (
    CLIENT_ADDRESS,
    BodyTooLarge,
    ClientGone,
    RowId,
    SafeJSONResponse,
    read_body,
    too_large,
    unless_dropped,
)
from server.play.routes import PLAY_FILES
from server.play.routes import router as play_router
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
from server.replay_file_store import ReplayFileStore
from server.settings import Settings
from server.storage.records import Records
from server.viewer_files import router as files_router
from server.viewer_positions import router as positions_router
from server.viewer_review import router as review_router
from server.viewer_routes import VIEWER_FILES
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


LOCAL_HOST_NAMES = ("127.0.0.1", "localhost", "::1")


def allowed_hosts(settings: Settings) -> list[str]:
    """The names a request's Host header may give: this machine's loopback names, the names the settings add
    (the bind address, --host-name) and the host of --public-url."""
    names = [*LOCAL_HOST_NAMES, *settings.host_names]
    if settings.public_url:
        public = urlsplit(settings.public_url).hostname
        if public:
            names.append(public)
    bare = [name.strip("[]").lower() for name in names if name and name.strip("[]") not in {"0.0.0.0", "::"}]
    return [f"[{name}]" if ":" in name else name for name in bare]  # a Host header brackets an IPv6 address


def create_app(settings: Settings) -> FastAPI:
    records = Records(settings.db_path)
    accounts = Accounts(records.db)
    referee = Referee(settings, records, accounts)
    pictures = folder_beside(settings.db_path)
    images = CardImages(
        settings.images_dir, captions=settings.captions, folder=None if pictures is None else PictureFolder(pictures)
    )
    admin_token = create_token(settings.db_path)
    referee.matches.on_deal = images.prerender

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        referee.start()
        try:
            yield
        finally:
            play_hall = getattr(_app.state, "play_hall", None)
            if play_hall is not None:
                await play_hall.close()
            await referee.close()
            images.close()
            records.close()
            remove_token(settings.db_path, admin_token)

    # FastAPIOffline serves Swagger UI and ReDoc from its own package instead of a CDN: /docs works offline.
    app = FastAPIOffline(title="Rummy Vision referee", description=DESCRIPTION, version="1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.referee = referee
    app.state.records = records
    app.state.accounts = accounts
    app.state.images = images
    app.state.admin_token = admin_token  # never logged, never in the records
    app.state.replay_files = ReplayFileStore(records.db)
    _add_vision(app, settings, referee)
    app.include_router(_arena_router(settings, referee))
    app.mount("/viewer/static", VIEWER_FILES, name="viewer-files")
    app.mount("/play/static", PLAY_FILES, name="play-files")
    app.include_router(viewer_router)
    app.include_router(review_router)
    app.include_router(positions_router)
    app.include_router(files_router)
    app.include_router(play_router)

    app.include_router(cards_router)
    app.include_router(admin_router)

    _add_records_routes(app, settings, referee, records)

    # Only requests that name this server in their Host header: a page of another site whose name now
    # resolves to 127.0.0.1 (DNS rebinding) names its own, and its same-origin calls are refused here.
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(settings))

    _add_error_handlers(app)
    return app


def _add_vision(app: FastAPI, settings: Settings, referee: Referee) -> None:
    """serve --vision: the Azure Computer Vision and Custom Vision calls of the starter templates."""
    app.state.vision = None
    if settings.vision is not None:
        from server.vision import VisionService
        from server.vision import router as vision_router

        app.state.vision = VisionService(referee, settings.vision, settings.vision_key, seed=settings.seed or 0)
        app.include_router(vision_router)


def _arena_router(settings: Settings, referee: Referee) -> APIRouter:
    """The arena's REST protocol under /prod: each route parses its body and hands it to the referee."""

    def base_url(request: Request) -> str:
        return settings.public_url or str(request.base_url).rstrip("/")

    async def call(
        request: Request,
        model: type[Any],
        handler: Callable[[Any], Awaitable[dict[str, Any]]],
        *,
        long_poll: bool = False,
    ) -> Response:
        CLIENT_ADDRESS.set(request.client.host if request.client else "")
        try:
            body = parse_body(await read_body(request), model)
            work = handler(body)
            return SafeJSONResponse(await (unless_dropped(request, work) if long_poll else work))
        except BodyTooLarge as error:
            return too_large(error)
        except BadRequest as bad:
            return SafeJSONResponse(bad.answer, status_code=400)
        except Refusal as refusal:
            return SafeJSONResponse(refusal.answer)
        except ClientGone:
            return Response(status_code=499)  # nobody reads it: the connection is closed

    arena = APIRouter(prefix="/prod", tags=["arena protocol"])

    @arena.post("/GM-GetListOfGameStyles", openapi_extra=_body_doc(GameStylesRequest))
    async def get_list_of_game_styles(request: Request) -> Response:
        """The hosted styles with rounds and move time in `GameTypeSpecificInfo`, and the bot's balance."""
        return await call(request, GameStylesRequest, referee.game_styles)

    @arena.post("/GM-OfferGame", openapi_extra=_body_doc(OfferGameRequest))
    async def offer_game(request: Request) -> Response:
        """Offer to play a style; waits up to `MaximumWaitTime` ms for an opponent."""
        return await call(
            request, OfferGameRequest, lambda body: referee.offer_game(body, base_url(request)), long_poll=True
        )

    @arena.post("/GM-PollForGameState", openapi_extra=_body_doc(PollRequest))
    async def poll_for_game_state(request: Request) -> Response:
        """Long poll: answers when the match starts, it is the bot's turn or the match ends, or on time."""
        return await call(request, PollRequest, lambda body: referee.poll(body, base_url(request)), long_poll=True)

    @arena.post("/GM-MakeMove", openapi_extra=_body_doc(MakeMoveRequest))
    async def make_move(request: Request) -> Response:
        """Play `Move` for the seat named by `PlayerKey`."""
        return await call(request, MakeMoveRequest, lambda body: referee.make_move(body, base_url(request)))

    @arena.post("/GM-CancelGameOffer", openapi_extra=_body_doc(CancelRequest))
    async def cancel_game_offer(request: Request) -> Response:
        """Withdraw an offer that is still waiting for an opponent."""
        return await call(request, CancelRequest, referee.cancel)

    return arena


def _add_records_routes(app: FastAPI, settings: Settings, referee: Referee, records: Records) -> None:
    """/games (the recorded matches) and, with --oracle, /oracle/labels."""

    @app.get("/games", tags=["records"])
    async def list_games() -> dict[str, Any]:
        """Every recorded match, newest first (no decks or labels)."""
        return {"Games": records.list_matches()}

    @app.get("/games/{game_id}", tags=["records"])
    async def game_record(game_id: RowId) -> JSONResponse:
        """A finished (or aborted) match's full record for replay; a running match shows its summary only."""
        summary = records.match_summary(game_id)
        if summary is None:
            return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
        if summary["Status"] == "RUNNING":
            return JSONResponse({**summary, "Redacted": True, "ErrorMessage": "the match is still running"})
        return SafeJSONResponse(records.match_record(game_id))

    if settings.oracle:

        @app.get("/oracle/labels/{game_id}", tags=["oracle"])
        async def oracle_labels(game_id: RowId, by: Literal["id", "url"] = "id") -> JSONResponse:
            """{card id: landmark} for the cards in view in the match's current round, in id order (local play
            only; nothing about the deck). `?by=url` keys them by URL path instead."""
            labels = referee.oracle_labels(game_id, by_url=by == "url")
            if labels is None:
                return JSONResponse({"ErrorMessage": f"no match {game_id} in play"}, status_code=404)
            return JSONResponse(labels)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ClientDisconnect)
    async def client_gone(_request: Request, _error: ClientDisconnect) -> Response:
        # The client closed the connection mid-body (or stalled past the body timeout, server.connections):
        # nobody reads an answer, and a traceback per truncated body only floods the log.
        return Response(status_code=499)

    @app.exception_handler(RequestValidationError)
    async def bad_parameters(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}" for item in error.errors())
        return JSONResponse(answer(Result.INVALID_LOGIN_OR_PASSWORD, ErrorMessage=problems), status_code=400)
