"""The /play routes: the page's files and its JSON API (see server/play/hall.py for how a seat plays).

GET  /play                                   the page
GET  /play/api/options                       opponents, styles, coach strategies
POST /play/api/games                         {"Opponent", "GameStyleId", "Name"?, "Coach"?} -> state
GET  /play/api/games/{token}?since=V&wait=MS the state; waits up to MS for a version other than V
POST /play/api/games/{token}/check           {"Action", "Mine", "Theirs", "ConfirmPass"?} -> verdict
POST /play/api/games/{token}/move            same body; sent through the referee only if it is a move
GET  /play/api/games/{token}/coach?top=N     the coach's ranked moves on the person's turn
GET  /play/api/games/{token}/review          after the match: each move beside the best

A game belongs to the browser that started it: starting one sets an HttpOnly, SameSite=Strict cookie
(PLAY_COOKIE) holding a secret, and every call about a game needs that cookie (without it the game
does not exist). POSTs must be JSON (`Content-Type: application/json`, so a plain form or text post
from another site is refused) and, when the browser names an Origin, come from this server's own
origin. Bodies over MAX_BODY are refused before they are read, and each address's network may have
only a few games in play at once (server.play.hall).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from rummy import bounded_json
from server.http_io import BodyTooLarge, read_body, without_folders
from server.page_files import PageFiles
from server.play.hall import PlayError, PlayHall, PlaySession
from server.play.views import options_json, state_json
from strategies.coaching.coach import VALUED, CoachConfig
from strategies.coaching.game_review import ReviewError

STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "play.css": "text/css; charset=utf-8",
}
# Mounted at /play/static by server.app.
PLAY_FILES = PageFiles("server.play", STATIC_FILES, "play")
MAX_WAIT_MS = 10_000
MAX_BODY = 16_384
PLAY_COOKIE = "rummy_play"

router = APIRouter(tags=["play"])


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class CoachBody(_Body):
    Strategy: str | None = None
    Objective: str | None = None
    TimeMs: float | None = None


class NewGame(_Body):
    Opponent: str
    GameStyleId: int
    Name: str | None = None
    Coach: CoachBody | None = None


class Selection(_Body):
    Action: str
    Mine: list[int] = Field(default_factory=list, max_length=40)
    Theirs: list[int] = Field(default_factory=list, max_length=40)
    ConfirmPass: bool = False


def _hall(request: Request) -> PlayHall:
    state = request.app.state
    hall: PlayHall | None = getattr(state, "play_hall", None)
    if hall is None:
        hall = state.play_hall = PlayHall(state.referee, state.records, state.accounts)
    return hall


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"ErrorMessage": message}, status_code=status)


def _refused(error: PlayError | ValueError) -> JSONResponse:
    return _bad(without_folders(str(error)), error.status if isinstance(error, Forbidden) else 400)


class Forbidden(PlayError):
    """A request from the wrong place or in the wrong form (answered with its own HTTP status)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _own_origins(request: Request) -> set[str]:
    origins = {f"{request.url.scheme}://{request.headers.get('host', '')}".lower()}
    public_url = request.app.state.settings.public_url
    if public_url:
        scheme, _, rest = public_url.partition("://")
        origins.add(f"{scheme}://{rest.split('/', 1)[0]}".lower())
    return origins


def _check_post(request: Request) -> None:
    """JSON only, and from this server's own pages when a browser says where it comes from."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise Forbidden("send the body as JSON (Content-Type: application/json)", 415)
    origin = request.headers.get("origin")
    if origin is not None and origin.lower() not in _own_origins(request):
        raise Forbidden(f"requests from {origin[:80]!r} may not play here", 403)
    if request.headers.get("sec-fetch-site", "same-origin") not in {"same-origin", "none"}:
        raise Forbidden("requests from other sites may not play here", 403)


def _owner(request: Request) -> str:
    return request.cookies.get(PLAY_COOKIE, "")


async def _body(request: Request, model: type[Any]) -> Any:
    _check_post(request)
    try:
        raw = await read_body(request, MAX_BODY)
    except BodyTooLarge:
        raise Forbidden(f"the request body is over {MAX_BODY} bytes", 413) from None
    try:
        data = bounded_json.loads(raw or b"{}")
    except ValueError as error:
        raise PlayError(f"the request body is not valid JSON: {str(error)[:100]}") from None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'body'}: {item['msg']}" for item in error.errors()
        )
        raise PlayError(problems[:300]) from None


def _session(request: Request, token: str) -> PlaySession | None:
    owner = _owner(request)
    if not owner:
        return None
    try:
        return _hall(request).get(token, owner)
    except KeyError:
        return None


NO_GAME = "no such game here (it ended long ago, or the server restarted)"


@router.get("/play", include_in_schema=False)
async def play_page(request: Request) -> Response:
    """The page where a person plays the house bots."""
    return await PLAY_FILES.page_response(request.scope)


@router.get("/play/", include_in_schema=False)
async def play_page_slash() -> Response:
    return RedirectResponse("/play", status_code=307)


@router.get("/play/api/options")
async def play_options(request: Request) -> JSONResponse:
    """The opponents (house bots and characters), the styles and the coach's strategies."""
    styles = list(request.app.state.referee.styles.values())
    # In a worker thread: the first answer builds every strategy (loading tables), which on the event loop
    # stalled the whole server, pictures and house bots' deadlines included, for up to a minute.
    options = await run_in_threadpool(options_json, styles, VALUED, request.app.state.referee.house.withdrawn)
    return JSONResponse(options)


@router.post("/play/api/games")
async def new_game(request: Request) -> JSONResponse:
    """Start a game against a house bot; the person's seat is played through the referee."""
    settings = request.app.state.settings
    owner = _owner(request) or secrets.token_urlsafe(24)
    try:
        body: NewGame = await _body(request, NewGame)
        coach = body.Coach or CoachBody()
        config = CoachConfig.parse(coach.Strategy, coach.Objective, coach.TimeMs)
        session = await _hall(request).start(
            opponent=body.Opponent,
            style_id=body.GameStyleId,
            coach=config,
            base_url=settings.public_url or str(request.base_url).rstrip("/"),
            name=body.Name,
            owner=owner,
            address=request.client.host if request.client else "",
        )
    except (PlayError, ValueError) as error:
        return _refused(error)
    # A person's game: its cards are drawn from now on (the whole deal, ahead of the page's first pictures).
    request.app.state.images.watch()
    response = JSONResponse(state_json(_hall(request), session))
    response.set_cookie(PLAY_COOKIE, owner, httponly=True, samesite="strict", path="/")
    return response


@router.get("/play/api/games/{token}")
async def game_state(request: Request, token: str, since: int = -1, wait: int = 0) -> JSONResponse:
    """The person's view; with `since` and `wait`, answers when the version changes or the time is up."""
    session = _session(request, token)
    if session is None:
        return _bad(NO_GAME, 404)
    if since == session.version and wait > 0:
        await _hall(request).wait_for_change(session, since, min(wait, MAX_WAIT_MS) / 1000)
    return JSONResponse(state_json(_hall(request), session))


@router.post("/play/api/games/{token}/check")
async def check_selection(request: Request, token: str) -> JSONResponse:
    """What the selected cards and action would do, or why they are no move (nothing is sent)."""
    session = _session(request, token)
    if session is None:
        return _bad(NO_GAME, 404)
    try:
        body: Selection = await _body(request, Selection)
    except PlayError as error:
        return _refused(error)
    verdict = _hall(request).check(session, body.Action, body.Mine, body.Theirs, body.ConfirmPass)
    return JSONResponse(verdict.to_json())


@router.post("/play/api/games/{token}/move")
async def make_move(request: Request, token: str) -> JSONResponse:
    """Check the selection and, if it is a move (a pass only when confirmed), play it through the referee."""
    session = _session(request, token)
    if session is None:
        return _bad(NO_GAME, 404)
    hall = _hall(request)
    try:
        body: Selection = await _body(request, Selection)
        verdict, answer = await hall.move(session, body.Action, body.Mine, body.Theirs, body.ConfirmPass)
    except PlayError as error:
        return _refused(error)
    sent = answer is not None
    return JSONResponse(
        {
            "Sent": sent,
            "Verdict": verdict.to_json(),
            "Result": answer.get("Result") if answer else None,
            "ErrorMessage": answer.get("ErrorMessage") if answer else None,
            "State": state_json(hall, session),
        }
    )


@router.get("/play/api/games/{token}/coach")
async def coach(request: Request, token: str, top: int = 5) -> JSONResponse:
    """The coach's moves for the position in play, best first, with values and the reason in words."""
    session = _session(request, token)
    if session is None:
        return _bad(NO_GAME, 404)
    if not (session.running and session.gamestate.get("IsMover")):
        return _bad("the coach speaks on your turn", 409)
    advice = await _hall(request).advice_now(session)
    if advice is None:
        return _bad("the coach has no advice for this position", 503)
    return JSONResponse(advice.to_json(max(1, min(top, 40))))


@router.get("/play/api/games/{token}/review")
async def review(request: Request, token: str) -> JSONResponse:
    """After the match: every move of yours graded as `rummy-vision review` and the viewer grade it (one review
    engine), with your totals, the value lost by each move and the worst three."""
    session = _session(request, token)
    if session is None:
        return _bad(NO_GAME, 404)
    if session.running:
        return _bad("the review comes when the match is over", 409)
    try:
        data = await _hall(request).review(session)
    except ReviewError as error:
        return _bad(f"no review: {error}", 422)
    viewer = f"/viewer#game/{session.game_id}/step/"
    for entry in [*data["Moves"], *data["Worst"]]:
        entry["Viewer"] = viewer + str(entry["Step"])
    return JSONResponse({**data, "GameId": session.game_id, "Viewer": f"/viewer#game/{session.game_id}"})
