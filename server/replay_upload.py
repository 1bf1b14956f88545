"""A replay file sent to the viewer, checked and cut down to what the viewer shows, before it is stored.

A `play` replay file (format: bot/replay/recording.py) holds no password and no PlayerKey, but a file sent
here may have been written by anything. So only the fields the viewer and the review read are kept, each of
the type they expect; everything else is dropped, never stored: the header's bot file path and recognizer
(a recognizer's options could hold a key), the client's free-text notes and error messages, any field this
format does not name. Card URLs keep their path only (a signed URL's query is a credential of sorts), and
the server's base URL its scheme, host and port.

A file that is not a replay file, or whose lines are not of the types the viewer needs, is refused as a whole
with `UploadError`, whose message names the line and what is wrong with it: nothing of it is stored. The
lines' types and bounds are declared once, in rummy/messages.py (`check_replay_line`); what is here is the
cutting down: which fields are kept, and a Lenient field that does not fit dropped rather than refused.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit

from rummy.messages import (
    GAMESTATE_KEYS,
    MAX_TEXT,
    MOVE_SHAPES,
    Gamestate,
    HeaderLine,
    MessageError,
    MoveLine,
    check_replay_line,
    excerpt,
    field_type,
    fits,
    move_shape,
)
from rummy.rebuild import ReplayError
from rummy.replay_lines import parse_replay

MAX_FILE_BYTES = 8 * 1024 * 1024  # a 20-round match with every label is about 3 MB
MAX_URL = 2000
MAX_NAME = 120
MAX_LOG = 4200  # a move's log as the bot client keeps it (4096 characters and the line saying what was cut)
# The fields of a gamestate kept when present; the declared bounds (rummy.messages) are checked on every line.
GAMESTATE_INTS = ("MyPoints", "OppPoints", "MyScore", "OppScore", "RemainingMoves", "CardsInDeck", "ResponseDeadline")


class UploadError(ValueError):
    """The upload is not a replay file the viewer can show; the message says why."""


def file_name(given: str | None) -> str:
    """The file's own name (no folders) for titles, or `replay.jsonl`."""
    name = PurePath((given or "").replace("\\", "/")).name.strip()
    return "".join(char for char in name if char.isprintable())[:MAX_NAME] or "replay.jsonl"


def cleaned_lines(data: bytes, name: str) -> list[dict[str, Any]]:
    """The lines of a replay file's bytes with only the fields the viewer reads, each checked."""
    if not data.strip():
        raise UploadError("the body is empty: send the replay file's text (a .jsonl file written by `play`)")
    if len(data) > MAX_FILE_BYTES:
        raise UploadError(f"the file is {len(data)} bytes; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = f"{error.reason} at byte {error.start}"
        raise UploadError(f"{name}: not UTF-8 text ({problem}): is it a replay file?") from None
    try:
        lines = parse_replay(text, name)
    except ReplayError as error:
        raise UploadError(f"not a replay file written by `play`: {error}") from None
    kept = []
    for number, line in enumerate(lines, start=1):
        clean = CLEANERS.get(str(line.get("type")))
        if clean is None:
            continue  # notes (free text) and any line of a type this format does not name
        try:
            check_replay_line(line)  # the declared types and bounds (rummy.messages)
            kept.append({"type": line["type"], **_time(line), **clean(line)})
        except (KeyError, TypeError, ValueError) as error:  # MessageError is a ValueError
            raise UploadError(f"{name}: line {number} ({line['type']}): {error}") from None
    if not any(line["type"] == "gamestate" for line in kept):
        raise UploadError(f"{name}: the file holds no gamestate, so there is nothing to show")
    return kept


def _number(value: Any) -> float | None:
    """A finite number, or None (JSON answers cannot carry NaN)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _time(line: Mapping[str, Any]) -> dict[str, float]:
    moment = _number(line.get("t"))
    return {} if moment is None else {"t": moment}


def _fitting(model: Any, line: Mapping[str, Any], key: str) -> Any:
    """A Lenient field's value when it fits its declared type, else None (it is dropped, not refused)."""
    value = line.get(key)
    return value if fits(field_type(model, key), value) else None


def _server(url: Any) -> str | None:
    """A server's URL without user, password, path query or fragment: scheme://host[:port]."""
    if not isinstance(url, str):
        return None
    parts = urlsplit(url[:MAX_URL])
    if not parts.scheme or not parts.hostname:
        return None
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}"


def _header(line: Mapping[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {"version": line["version"]}
    for key in ("game_id", "bot_id", "opponent_id"):
        kept[key] = line.get(key)
    for key in ("game_style_id", "move_time_ms"):
        kept[key] = _fitting(HeaderLine, line, key)
    kept["server"] = _server(line.get("base_url"))
    return kept


def _hand(cards: list[list[Any]]) -> list[list[Any]]:
    """[card id, URL] pairs with each URL's path only (a signed URL's query is a credential of sorts)."""
    return [[card_id, urlsplit(url).path] for card_id, url in cards]


def _gamestate(line: Mapping[str, Any]) -> dict[str, Any]:
    state = line["gamestate"]
    kept: dict[str, Any] = {key: _hand(state[key]) for key in ("MyHand", "OppHand")}
    for key in ("RemainingRounds", "GameStatus", "IsMover"):
        kept[key] = state[key]
    for key in (*GAMESTATE_INTS, "GameId", "OpponentId"):
        if key in state:
            kept[key] = state[key]
    types = _fitting(Gamestate, state, "AllCardTypes")
    if types is not None:
        kept["AllCardTypes"] = [kind[:MAX_TEXT] for kind in types]
    assert set(kept) <= set(GAMESTATE_KEYS)
    return {"call": line.get("call"), "result": line.get("result"), "gamestate": kept}


def _labels(labels: dict[str, str] | None) -> dict[str, str]:
    """{card id: landmark}, each id written as the number it is ("007" and "7" are the same card)."""
    return {str(int(card_id)): name for card_id, name in (labels or {}).items()}


def _move(line: Mapping[str, Any]) -> dict[str, Any]:
    applied = line.get("applied", True)
    move = move_shape(line.get("move"))
    if move is None and applied:
        raise MessageError(f"an applied move must be {MOVE_SHAPES}, not {excerpt(line.get('move'), 60)}")
    log = _fitting(MoveLine, line, "log")
    return {
        "move": move,
        "source": _fitting(MoveLine, line, "source"),
        "result": line.get("result"),
        "applied": applied,
        "labels": _labels(line.get("labels")),
        **({"log": log[:MAX_LOG]} if log else {}),
    }


def _labels_line(line: Mapping[str, Any]) -> dict[str, Any]:
    return {"remaining_rounds": line["remaining_rounds"], "labels": _labels(line.get("labels"))}


def _end(line: Mapping[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {"status": line["status"]}
    for key in ("game_id", "my_score", "opp_score", "moves", "fallbacks"):
        kept[key] = line.get(key)
    kept["duration_s"] = _number(line.get("duration_s"))
    return kept


CLEANERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "header": _header,
    "gamestate": _gamestate,
    "move": _move,
    "labels": _labels_line,
    "end": _end,
}
