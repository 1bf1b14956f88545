"""The arena protocol's vocabulary: Result codes, request bodies, and the answers to bad requests.

Every answer is a JSON object whose first field is `Result`. A request the server cannot read (not JSON,
not an object, a required field missing or of the wrong JSON type, `MaximumWaitTime` outside 0..5000)
gets HTTP 400 and an `ErrorMessage` naming the field and the problem. Its `Result` is the code of the
check the request could not pass:

- the body is not a JSON object, or `BotId`/`BotPassword` is bad: `INVALID_LOGIN_OR_PASSWORD`;
- `PlayerKey` is bad: `INVALID_PLAYER_KEY`;
- `Move` is missing: `INVALID_MOVE`;
- any other field (`MaximumWaitTime`, `GameStyleId`, `GameTypeId`, `OpponentId`, `DontPlayAgainst*`):
  `INVALID_LOGIN_OR_PASSWORD`, the code the arena itself uses for a failed request check
  ("Check of OpponentId failed").

Every answer about the game itself (wrong password, illegal move, not your move...) is HTTP 200.

What a request may hold: JSON without NaN or Infinity (JSON has neither), nested at most MAX_DEPTH
deep, and text fields that are valid Unicode (no lone surrogates). An ErrorMessage quotes the input
only as a short excerpt.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rummy import bounded_json

# The arena's id for Rummy Vision is not published anywhere we could find; this is the local server's own.
GAME_TYPE_ID = 15
MAX_WAIT_MS = 5000
MAX_DEPTH = 32  # a request is three levels deep; a Move at most five
MAX_MESSAGE_CHARS = 300
EXCERPT_CHARS = 60


class Result(StrEnum):
    SUCCESS = "SUCCESS"
    CALL_ALREADY_IN_PROCESS = "CALL_ALREADY_IN_PROCESS"
    WAITING_FOR_GAME = "WAITING_FOR_GAME"
    GAME_ALREADY_STARTED = "GAME_ALREADY_STARTED"
    GAME_HAS_ENDED = "GAME_HAS_ENDED"
    INVALID_LOGIN_OR_PASSWORD = "INVALID_LOGIN_OR_PASSWORD"
    INVALID_PLAYER_KEY = "INVALID_PLAYER_KEY"
    BOT_IS_SUSPENDED = "BOT_IS_SUSPENDED"
    BOT_IS_INACTIVE = "BOT_IS_INACTIVE"
    INSUFFICIENT_BALANCE = "INSUFFICIENT_BALANCE"
    NOT_YOUR_MOVE = "NOT_YOUR_MOVE"
    INVALID_MOVE = "INVALID_MOVE"


class _Request(BaseModel):
    # strict: a JSON string is not an integer and true is not a number; unknown extra fields are ignored.
    model_config = ConfigDict(strict=True, extra="ignore")

    BotId: str
    BotPassword: str


WaitTime = Field(ge=0, le=MAX_WAIT_MS, description="Long-poll time in milliseconds, 0 to 5000.")


class GameStylesRequest(_Request):
    GameTypeId: int | None = Field(default=None, description=f"{GAME_TYPE_ID} for Rummy Vision; null lists all.")


class OfferGameRequest(_Request):
    MaximumWaitTime: int = WaitTime
    GameStyleId: int
    DontPlayAgainstSameUser: bool = False
    DontPlayAgainstSameBot: bool = False
    OpponentId: str | None = None


class PollRequest(_Request):
    MaximumWaitTime: int = WaitTime
    PlayerKey: str


class MakeMoveRequest(_Request):
    PlayerKey: str
    Move: Any = Field(description='{"Lay": [id, ...]}, {"Take": id} or {"Give": id}; a JSON string of one is read too.')


class CancelRequest(_Request):
    PlayerKey: str


RequestT = TypeVar("RequestT", bound=BaseModel)

_RESULT_FOR_FIELD = {
    "BotId": Result.INVALID_LOGIN_OR_PASSWORD,
    "BotPassword": Result.INVALID_LOGIN_OR_PASSWORD,
    "PlayerKey": Result.INVALID_PLAYER_KEY,
    "Move": Result.INVALID_MOVE,
}


class BadRequest(Exception):
    """A request the server cannot read; `answer` is the JSON body sent back with HTTP 400."""

    def __init__(self, result: Result, message: str) -> None:
        super().__init__(message)
        self.answer = answer(result, ErrorMessage=clip(message, MAX_MESSAGE_CHARS))


def clip(text: str, limit: int = EXCERPT_CHARS) -> str:
    """At most `limit` characters of `text`, marked when cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A short JSON excerpt of a value a client sent, for an ErrorMessage."""
    try:
        text = json.dumps(value, default=str)
    except (ValueError, TypeError, RecursionError):
        text = f"<{type(value).__name__}>"
    return clip(text, limit)


def loads(raw: str | bytes) -> Any:
    """The project's bounded JSON reader (rummy.bounded_json) at MAX_DEPTH: no NaN, Infinity, numbers that
    overflow or integers past 64 bits; ValueError says what is wrong, never quoting more than an excerpt."""
    return bounded_json.loads(raw, max_depth=MAX_DEPTH)


def _bad_text(model: BaseModel) -> str | None:
    """The first text field that is not valid Unicode (a lone surrogate cannot be stored or answered)."""
    for name, value in model:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return name
    return None


def answer(result: Result, **fields: Any) -> dict[str, Any]:
    """An answer with `Result` first (dicts keep insertion order, and so does the JSON)."""
    return {"Result": result.value, **fields}


def parse_body(raw: bytes, model: type[RequestT]) -> RequestT:
    """Decode and check a request body, or raise BadRequest saying which field is wrong and why."""
    if not raw.strip():
        raise BadRequest(Result.INVALID_LOGIN_OR_PASSWORD, "the request body is empty: send a JSON object")
    try:
        data = loads(raw)
    except ValueError as error:  # UnicodeDecodeError included
        raise BadRequest(Result.INVALID_LOGIN_OR_PASSWORD, f"the request body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "null"
        raise BadRequest(Result.INVALID_LOGIN_OR_PASSWORD, f"the request body must be a JSON object, got {kind}")
    try:
        request = model.model_validate(data)
    except ValidationError as error:
        raise _bad_fields(error, model) from None
    bad_text = _bad_text(request)
    if bad_text is not None:
        result = _RESULT_FOR_FIELD.get(bad_text, Result.INVALID_LOGIN_OR_PASSWORD)
        raise BadRequest(result, f"{bad_text}: not valid Unicode text (it holds a lone surrogate)")
    return request


def _bad_fields(error: ValidationError, model: type[BaseModel]) -> BadRequest:
    order = list(model.model_fields)
    problems = sorted(error.errors(), key=lambda item: order.index(str(item["loc"][0])) if item["loc"] else 0)
    messages = [_describe(problem) for problem in problems]
    first = str(problems[0]["loc"][0]) if problems and problems[0]["loc"] else ""
    result = _RESULT_FOR_FIELD.get(first, Result.INVALID_LOGIN_OR_PASSWORD)
    return BadRequest(result, "; ".join(messages))


def _describe(problem: Any) -> str:
    field = ".".join(str(part) for part in problem["loc"]) or "body"
    if problem["type"] == "missing":
        return f"{field}: required field is missing"
    return f"{clip(field)}: {problem['msg']}, got {excerpt(problem.get('input'))}"
