"""The arena's REST protocol under /prod: the five `GM-` calls, each handing its body to the referee.

The routes take what they need as dependencies (server/deps.py: the referee, the settings) and their body
as its model (server/protocol.py). A body is read by `arena_body`, not by FastAPI's own JSON reading: the
protocol answers a bad one in its own words (the project's bounded JSON reader, `Result` first, the field
named; `protocol.parse_body`), and /docs is told the model by `openapi_extra`. Its size is checked before
the route runs, by the middleware of server/body_limit.py (`ARENA_BODY_LIMIT`).

`ArenaRoute` turns what the referee raises into the protocol's answers, the same for every route: a bad
request is HTTP 400, a refusal (wrong password, not your move...) HTTP 200 with its `Result`, a long poll
whose client hung up 499 (nobody reads it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import BaseModel

from server.body_limit import BodyLimit
from server.deps import RefereeDep, SettingsDep
from server.http_io import CLIENT_ADDRESS, MAX_BODY_BYTES, ClientGone, SafeJSONResponse, too_large, unless_dropped
from server.protocol import (
    BadRequest,
    CancelRequest,
    GameStylesRequest,
    MakeMoveRequest,
    OfferGameRequest,
    PollRequest,
    parse_body,
)
from server.referee import Refusal
from server.settings import Settings

RequestT = TypeVar("RequestT", bound=BaseModel)


def arena_body(model: type[RequestT]) -> Callable[[Request], Awaitable[RequestT]]:
    """The dependency that reads a request's body as `model` (BadRequest says which field is wrong)."""

    async def body(request: Request) -> RequestT:
        return parse_body(await request.body(), model)

    return body


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    # Bodies are read by arena_body (to answer bad ones in the protocol's own words), so describe them for /docs.
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


class ArenaRoute(APIRoute):
    """A /prod route: its errors answered in the protocol's shapes, and the caller's address noted."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def answer(request: Request) -> Response:
            CLIENT_ADDRESS.set(request.client.host if request.client else "")
            try:
                return await handle(request)
            except BadRequest as bad:
                return SafeJSONResponse(bad.answer, status_code=400)
            except Refusal as refusal:
                return SafeJSONResponse(refusal.answer)
            except ClientGone:
                return Response(status_code=499)  # nobody reads it: the connection is closed

        return answer


def base_url(request: Request, settings: Settings) -> str:
    """The base of the card URLs in an answer: --public-url, else the URL the request came in on."""
    return settings.public_url or str(request.base_url).rstrip("/")


GameStylesBody = Annotated[GameStylesRequest, Depends(arena_body(GameStylesRequest))]
OfferGameBody = Annotated[OfferGameRequest, Depends(arena_body(OfferGameRequest))]
PollBody = Annotated[PollRequest, Depends(arena_body(PollRequest))]
MakeMoveBody = Annotated[MakeMoveRequest, Depends(arena_body(MakeMoveRequest))]
CancelBody = Annotated[CancelRequest, Depends(arena_body(CancelRequest))]

router = APIRouter(prefix="/prod", tags=["arena protocol"], route_class=ArenaRoute)


@router.post("/GM-GetListOfGameStyles", openapi_extra=_body_doc(GameStylesRequest))
async def get_list_of_game_styles(body: GameStylesBody, referee: RefereeDep) -> Response:
    """The hosted styles with rounds and move time in `GameTypeSpecificInfo`, and the bot's balance."""
    return SafeJSONResponse(await referee.game_styles(body))


@router.post("/GM-OfferGame", openapi_extra=_body_doc(OfferGameRequest))
async def offer_game(request: Request, body: OfferGameBody, referee: RefereeDep, settings: SettingsDep) -> Response:
    """Offer to play a style; waits up to `MaximumWaitTime` ms for an opponent."""
    return SafeJSONResponse(await unless_dropped(request, referee.offer_game(body, base_url(request, settings))))


@router.post("/GM-PollForGameState", openapi_extra=_body_doc(PollRequest))
async def poll_for_game_state(request: Request, body: PollBody, referee: RefereeDep, settings: SettingsDep) -> Response:
    """Long poll: answers when the match starts, it is the bot's turn or the match ends, or on time."""
    return SafeJSONResponse(await unless_dropped(request, referee.poll(body, base_url(request, settings))))


@router.post("/GM-MakeMove", openapi_extra=_body_doc(MakeMoveRequest))
async def make_move(request: Request, body: MakeMoveBody, referee: RefereeDep, settings: SettingsDep) -> Response:
    """Play `Move` for the seat named by `PlayerKey`."""
    return SafeJSONResponse(await referee.make_move(body, base_url(request, settings)))


@router.post("/GM-CancelGameOffer", openapi_extra=_body_doc(CancelRequest))
async def cancel_game_offer(body: CancelBody, referee: RefereeDep) -> Response:
    """Withdraw an offer that is still waiting for an opponent."""
    return SafeJSONResponse(await referee.cancel(body))


# The arena's bodies are read within the protocol's limit before a route runs; a larger one is answered
# HTTP 413 with `Result` first, as before the routes ran (http_io.too_large).
ARENA_BODY_LIMIT = BodyLimit(
    paths=frozenset(route.path for route in router.routes if isinstance(route, APIRoute)),
    limit=MAX_BODY_BYTES,
    refuse=too_large,
)
