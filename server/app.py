"""The FastAPI application: the five arena calls under /prod/, card images, records, the oracle and the
local admin API.

`create_app(settings)` builds a self-contained app and keeps its parts on `app.state`; the features'
routers (the arena in server/arena_routes.py, the replay viewer, the admin API...) are included here and
reach the referee, the settings and the records through the dependencies of server/deps.py.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect

from server.accounts import Accounts
from server.admin import create_token, remove_token
from server.admin import router as admin_router
from server.arena_routes import ARENA_BODY_LIMIT
from server.arena_routes import router as arena_router
from server.body_limit import BodyLimitMiddleware
from server.cards import CardImages
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.routes import router as cards_router
from server.deps import RecordsDep, RefereeDep
from server.http_io import RowId, SafeJSONResponse
from server.play.routes import PLAY_FILES
from server.play.routes import router as play_router
from server.protocol import GAME_TYPE_ID, Result, answer
from server.referee import Referee
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
    _add_routes(app, settings)

    # The arena's bodies are read within their size limit before its routes run (server/body_limit.py).
    app.add_middleware(BodyLimitMiddleware, limits=(ARENA_BODY_LIMIT,))
    # Added last, so it runs first: only requests that name this server in their Host header. A page of
    # another site whose name now resolves to 127.0.0.1 (DNS rebinding) names its own and is refused here.
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(settings))

    _add_error_handlers(app)
    return app


def _add_routes(app: FastAPI, settings: Settings) -> None:
    """The features' routers, at module level in their modules; they reach the referee, the settings and the
    records through the dependencies of server/deps.py."""
    app.include_router(arena_router)
    app.mount("/viewer/static", VIEWER_FILES, name="viewer-files")
    app.mount("/play/static", PLAY_FILES, name="play-files")
    for router in (viewer_router, review_router, positions_router, files_router, play_router, cards_router):
        app.include_router(router)
    app.include_router(admin_router)
    app.include_router(records_router)
    if settings.oracle:
        app.include_router(oracle_router)


def _add_vision(app: FastAPI, settings: Settings, referee: Referee) -> None:
    """serve --vision: the Azure Computer Vision and Custom Vision calls of the starter templates."""
    app.state.vision = None
    if settings.vision is not None:
        # only with `serve --vision`: the vision calls and the recognizer that answers them
        from server.vision import VisionService
        from server.vision import router as vision_router  # as above: only with `serve --vision`

        app.state.vision = VisionService(referee, settings.vision, settings.vision_key, seed=settings.seed or 0)
        app.include_router(vision_router)


# /games (the recorded matches) and, with --oracle, /oracle/labels.
records_router = APIRouter(tags=["records"])
oracle_router = APIRouter(tags=["oracle"])


@records_router.get("/games")
async def list_games(records: RecordsDep) -> dict[str, Any]:
    """Every recorded match, newest first (no decks or labels)."""
    return {"Games": records.list_matches()}


@records_router.get("/games/{game_id}")
async def game_record(game_id: RowId, records: RecordsDep) -> JSONResponse:
    """A finished (or aborted) match's full record for replay; a running match shows its summary only."""
    summary = records.match_summary(game_id)
    if summary is None:
        return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
    if summary["Status"] == "RUNNING":
        return JSONResponse({**summary, "Redacted": True, "ErrorMessage": "the match is still running"})
    return SafeJSONResponse(records.match_record(game_id))


@oracle_router.get("/oracle/labels/{game_id}")
async def oracle_labels(game_id: RowId, referee: RefereeDep, by: Literal["id", "url"] = "id") -> JSONResponse:
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
