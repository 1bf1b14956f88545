"""The local referee's admin API: bot accounts and runs, for the user's own tools (`match --server`).

Not part of the arena's protocol (the arena has no such calls). The referee creates a random token at
start and writes it, readable by its owner only, to `<records>.admin-token` beside its records file;
every admin call carries it as `Authorization: Bearer TOKEN`. Whoever can read that file could write the
records file itself, so the token gives nothing more. Calls from other machines are refused even with
the token unless the server was started with `--admin-remote`.

A client finds the token itself, beside the records file its user names (never at a path a server names:
a hostile server would have it read and send any file). Before it sends the token it asks
`GET /admin?challenge=NONCE`, and the referee proves it holds the token for the port it was reached on:
`Proof` is HMAC-SHA256(token, "NONCE|PORT"); whatever else listens on that port cannot answer it, even
by relaying the challenge to the real referee on another port.

    POST   /admin/bots         {"Name", "User"?, "Iterations"?} -> 201 {"BotId", "Password"}
    DELETE /admin/bots/{name}  -> {"Removed": name}
    POST   /admin/runs         {"Kind", "Title", "CreatedAt", "Players", "Standings", "Games"} -> 201 {"RunId"}
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rummy.private_files import create_private
from rummy.standings import Standings
from server.accounts import DEFAULT_ITERATIONS, AccountError
from server.deps import AccountsDep, AdminTokenDep, RecordsDep, SettingsDep
from server.http_io import BodyTooLarge, SafeJSONResponse, read_body
from server.storage.runs import store_run

TOKEN_SUFFIX = ".admin-token"
MIN_ITERATIONS = 1_000  # throwaway accounts of a local match may hash cheaply, never trivially
ShortName = Annotated[str, Field(min_length=1, max_length=200)]


def token_path(db_path: Path | str) -> Path:
    return Path(f"{db_path}{TOKEN_SUFFIX}")


def create_token(db_path: Path | str) -> str:
    """A fresh random token, written to a new 0600 file beside `db_path` (replacing an old one of ours; a file
    or link another user put there is refused: NotPrivate)."""
    token = secrets.token_urlsafe(32)
    create_private(token_path(db_path), token.encode())
    return token


def proof(token: str, challenge: str, port: int) -> str:
    """What the referee holding `token` answers to `challenge` on `port` (see the module's doc)."""
    return hmac.new(token.encode(), f"{challenge}|{port}".encode(), hashlib.sha256).hexdigest()


def remove_token(db_path: Path | str, token: str) -> None:
    """Delete the token file if it still holds this referee's token (never another referee's)."""
    path = token_path(db_path)
    try:
        if hmac.compare_digest(path.read_bytes(), token.encode()):
            path.unlink()
    except OSError:
        pass


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    Name: ShortName
    User: ShortName | None = None
    Iterations: int = Field(DEFAULT_ITERATIONS, ge=MIN_ITERATIONS, le=DEFAULT_ITERATIONS)


class StandingsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    Columns: list[Annotated[str, Field(max_length=200)]] = Field(max_length=50)
    Rows: list[list[str | int | float]] = Field(max_length=1000)


class RunGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    GameId: int = Field(ge=1, le=2**63 - 1)
    Label: Annotated[str, Field(max_length=500)]


class NewRun(BaseModel):
    model_config = ConfigDict(extra="forbid")
    Kind: Literal["match", "tournament"]
    Title: Annotated[str, Field(min_length=1, max_length=500)]
    CreatedAt: float = Field(ge=0, allow_inf_nan=False)
    Players: list[ShortName] = Field(min_length=1, max_length=100)
    Standings: StandingsBody
    Games: list[RunGame] = Field(min_length=1, max_length=10_000)


class ForgetGames(BaseModel):
    model_config = ConfigDict(extra="forbid")
    GameIds: list[Annotated[int, Field(ge=1, le=2**63 - 1)]] = Field(min_length=1, max_length=10_000)


def _error(message: str, status: int, **headers: str) -> JSONResponse:
    return SafeJSONResponse({"ErrorMessage": message}, status_code=status, headers=headers or None)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def refusal(request: Request, settings: SettingsDep, admin_token: AdminTokenDep) -> JSONResponse | None:
    """Why this caller may not use the admin API, or None when it may (a dependency: `refused: Refused`)."""
    host = request.client.host if request.client else ""
    if not _is_loopback(host) and not settings.admin_remote:
        return _error("admin calls are accepted from this machine only (serve --admin-remote allows others)", 403)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return _error(
            f"admin calls need 'Authorization: Bearer TOKEN', TOKEN from the file {TOKEN_SUFFIX} beside the records",
            401,
            **{"WWW-Authenticate": "Bearer"},
        )
    if not hmac.compare_digest(given.strip().encode(), admin_token.encode()):
        return _error("wrong admin token", 403)
    return None


# The answer that refuses the caller, or None for one the admin API serves. Checked before the body is read.
Refused = Annotated[JSONResponse | None, Depends(refusal)]


async def _allowed_body(request: Request, refused: JSONResponse | None, model: type[BaseModel]) -> Any:
    """The validated body of an allowed caller, or the JSONResponse that refuses the call."""
    if refused is not None:
        return refused
    try:
        return model.model_validate_json(await read_body(request))
    except BodyTooLarge as error:
        return _error(str(error), 413)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'body'}: {item['msg']}" for item in error.errors()
        )
        return _error(problems[:500], 400)


router = APIRouter(prefix="/admin", tags=["local admin (not the arena's)"])


@router.get("")
async def admin_hint(
    request: Request,
    settings: SettingsDep,
    admin_token: AdminTokenDep,
    challenge: Annotated[str | None, Query(min_length=16, max_length=200)] = None,
) -> JSONResponse:
    """The name of this referee's admin token file, beside its records (no folder); with `?challenge=`, the
    proof that it holds the token (module doc). Never the token itself."""
    hint: dict[str, Any] = {"TokenFile": "RECORDS" + TOKEN_SUFFIX, "RemoteAllowed": settings.admin_remote}
    if challenge is not None:
        port = request.scope.get("server", (None, 0))[1] or 0
        hint["Proof"] = proof(admin_token, challenge, int(port))
    return JSONResponse(hint)


@router.post("/bots", status_code=201)
async def add_bot(request: Request, refused: Refused, accounts: AccountsDep) -> Response:
    """Register a bot and answer its password (shown once: the server keeps a salted hash)."""
    body = await _allowed_body(request, refused, NewBot)
    if isinstance(body, Response):
        return body
    try:
        password = accounts.add_bot(body.Name, user=body.User, iterations=body.Iterations)
    except AccountError as error:
        return _error(str(error), 409 if accounts.get(body.Name.strip()) is not None else 400)
    return SafeJSONResponse({"BotId": body.Name.strip(), "Password": password}, status_code=201)


@router.delete("/bots/{name}")
async def remove_bot(name: str, refused: Refused, accounts: AccountsDep) -> Response:
    """Forget a bot: it can no longer log in; its recorded matches stay."""
    if refused is not None:
        return refused
    try:
        accounts.remove_bot(name)
    except AccountError as error:
        return _error(str(error), 404)
    return SafeJSONResponse({"Removed": name})


@router.post("/runs", status_code=201)
async def add_run(request: Request, refused: Refused, records: RecordsDep) -> Response:
    """Group recorded matches into a run the viewer shows as one entry, with its standings."""
    body = await _allowed_body(request, refused, NewRun)
    if isinstance(body, Response):
        return body
    unknown = [game.GameId for game in body.Games if records.match_summary(game.GameId) is None]
    if unknown:
        return _error(f"no recorded match with GameId {', '.join(map(str, unknown[:10]))}", 400)
    standings = Standings(tuple(body.Standings.Columns), tuple(tuple(row) for row in body.Standings.Rows))
    run_id = store_run(
        records.db,
        kind=body.Kind,
        title=body.Title,
        created_at=body.CreatedAt,
        players=body.Players,
        standings=standings,
        games=[(game.GameId, game.Label) for game in body.Games],
    )
    return SafeJSONResponse({"RunId": run_id}, status_code=201)


@router.post("/games/forget")
async def forget_games(request: Request, refused: Refused, records: RecordsDep) -> Response:
    """Delete finished matches from the records (a run asked not to be recorded); a running one is refused."""
    body = await _allowed_body(request, refused, ForgetGames)
    if isinstance(body, Response):
        return body
    summaries = {game_id: records.match_summary(game_id) for game_id in body.GameIds}
    unknown = [game_id for game_id, summary in summaries.items() if summary is None]
    if unknown:
        return _error(f"no recorded match with GameId {', '.join(map(str, unknown[:10]))}", 400)
    running = [game_id for game_id, summary in summaries.items() if summary is not None and summary["EndedAt"] is None]
    if running:
        listed = ", ".join(map(str, running[:10]))
        return _error(f"match {listed} has not ended: only finished matches are forgotten", 409)
    records.forget_matches(body.GameIds)
    return SafeJSONResponse({"Forgotten": body.GameIds})
