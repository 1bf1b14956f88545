"""A replay file sent to the viewer, checked and cut down to what the viewer shows, before it is stored.

A `play` replay file (format: bot/replay/recording.py) holds no password and no PlayerKey, but a file sent
here may have been written by anything. So only the fields the viewer and the review read are kept, each of
the type they expect; everything else is dropped, never stored: the header's bot file path and recognizer
(a recognizer's options could hold a key), the client's free-text notes and error messages, any field this
format does not name. Card URLs keep their path only (a signed URL's query is a credential of sorts), and
the server's base URL its scheme, host and port.

A file that is not a replay file, or whose lines are not of the types the viewer needs, is refused as a whole
with `UploadError`, whose message names the line and what is wrong with it: nothing of it is stored.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit

from rummy.gamestate import GAMESTATE_KEYS
from rummy.rebuild import ReplayError
from rummy.replay_lines import parse_replay
from server.file_steps import MAX_ROUNDS

MAX_FILE_BYTES = 8 * 1024 * 1024  # a 20-round match with every label is about 3 MB
MAX_CARDS = 100  # in a hand, or labelled on one line
MAX_TEXT = 200  # a name, a landmark, a status
MAX_URL = 2000
MAX_NAME = 120
# Every count a line holds is bounded by what a match can have: the viewer builds a round per round
# number (RemainingRounds 10^6 made every public steps answer take 9 s, 440 MB and ~90 MB of JSON).
MAX_POINTS = 10_000
MAX_COUNT = 100_000  # moves or fallbacks of a whole match
MAX_CARD_ID = 2**53  # ids the browser's numbers hold exactly
MAX_MOMENT_MS = 2**53
MAX_LOG = 4200  # a move's log as the bot client keeps it (4096 characters and the line saying what was cut)

HEADER_FIELDS = ("version", "game_id", "bot_id", "opponent_id", "game_style_id", "move_time_ms")
END_FIELDS = ("game_id", "status", "my_score", "opp_score", "moves", "fallbacks", "duration_s")
GAMESTATE_RANGES = {
    "MyPoints": (-MAX_POINTS, MAX_POINTS),
    "OppPoints": (-MAX_POINTS, MAX_POINTS),
    "MyScore": (-MAX_POINTS, MAX_POINTS),  # rounds won, or points under the other reading of the rules
    "OppScore": (-MAX_POINTS, MAX_POINTS),
    "RemainingMoves": (0, MAX_CARDS * 2),
    "CardsInDeck": (0, MAX_CARDS),
    "ResponseDeadline": (0, MAX_MOMENT_MS),
}
GAMESTATE_INTS = tuple(GAMESTATE_RANGES)


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
            kept.append({"type": line["type"], **_time(line), **clean(line)})
        except (KeyError, TypeError, ValueError) as error:
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


def _int(value: Any, what: str, *, optional: bool = False, low: int = 0, high: int = 2**63 - 1) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {str(value)[:40]!r}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {str(value)[:40]}")
    return value


def _text(value: Any, what: str, *, optional: bool = False, limit: int = MAX_TEXT) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{what} must be a text of at most {limit} characters")
    return value


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
    kept["game_id"] = _int(line.get("game_id"), "game_id", optional=True)
    for key in ("bot_id", "opponent_id"):
        kept[key] = _text(line.get(key), key, optional=True)
    for key in ("game_style_id", "move_time_ms"):
        value = line.get(key)
        fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MOMENT_MS
        kept[key] = value if fits else None
    kept["server"] = _server(line.get("base_url"))
    return kept


def _url_path(url: Any) -> str:
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise ValueError("a card's URL must be a text of at most 2000 characters")
    return urlsplit(url).path


def _hand(cards: Any, what: str) -> list[list[Any]]:
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise ValueError(f"{what} must be a list of at most {MAX_CARDS} [card id, URL] pairs")
    hand = []
    for card in cards:
        if not isinstance(card, list) or len(card) != 2:
            raise ValueError(f"{what} must hold [card id, URL] pairs, not {str(card)[:40]!r}")
        hand.append([_int(card[0], f"a card id of {what}", low=-MAX_CARD_ID, high=MAX_CARD_ID), _url_path(card[1])])
    return hand


def _gamestate(line: Mapping[str, Any]) -> dict[str, Any]:
    state = line["gamestate"]
    if not isinstance(state, dict):
        raise ValueError("its gamestate must be a JSON object")
    kept: dict[str, Any] = {key: _hand(state.get(key), key) for key in ("MyHand", "OppHand")}
    kept["RemainingRounds"] = _int(state.get("RemainingRounds"), "RemainingRounds", high=MAX_ROUNDS)
    kept["GameStatus"] = _text(state.get("GameStatus"), "GameStatus")
    if not isinstance(state.get("IsMover"), bool):
        raise ValueError("IsMover must be true or false")
    kept["IsMover"] = state["IsMover"]
    for key in GAMESTATE_INTS:
        if key in state:
            kept[key] = _int(state[key], key, low=GAMESTATE_RANGES[key][0], high=GAMESTATE_RANGES[key][1])
    types = state.get("AllCardTypes")
    if isinstance(types, list) and len(types) <= MAX_CARDS and all(isinstance(kind, str) for kind in types):
        kept["AllCardTypes"] = [kind[:MAX_TEXT] for kind in types]
    if "GameId" in state:
        kept["GameId"] = _int(state["GameId"], "GameId", optional=True)
    if "OpponentId" in state:
        kept["OpponentId"] = _text(state["OpponentId"], "OpponentId", optional=True)
    assert set(kept) <= set(GAMESTATE_KEYS)
    return {
        "call": _text(line.get("call"), "call", optional=True),
        "result": _text(line.get("result"), "result", optional=True),
        "gamestate": kept,
    }


def _labels(labels: Any) -> dict[str, str]:
    if labels is None:
        return {}
    if not isinstance(labels, dict) or len(labels) > MAX_CARDS:
        raise ValueError(f"labels must be an object of at most {MAX_CARDS} card ids and landmarks")
    kept = {}
    for card_id, name in labels.items():
        if not str(card_id).lstrip("-").isdigit():
            raise ValueError(f"labels must be keyed by card ids, not {str(card_id)[:40]!r}")
        number = _int(int(card_id), "a labelled card id", low=-MAX_CARD_ID, high=MAX_CARD_ID)
        kept[str(number)] = str(_text(name, f"the label of card {card_id}"))
    return kept


def _move_of(move: Any) -> dict[str, Any] | None:
    """The move if it is one of the protocol's three shapes, else None."""
    if not isinstance(move, dict) or len(move) != 1:
        return None
    ((kind, value),) = move.items()
    ids = value if kind == "Lay" else [value]
    if kind not in ("Lay", "Take", "Give") or not isinstance(ids, list) or len(ids) > MAX_CARDS:
        return None
    if not all(isinstance(card_id, int) and not isinstance(card_id, bool) for card_id in ids):
        return None
    return {kind: value}


def _move(line: Mapping[str, Any]) -> dict[str, Any]:
    applied = line.get("applied", True)
    if not isinstance(applied, bool):
        raise ValueError("applied must be true or false")
    move = _move_of(line.get("move"))
    if move is None and applied:
        shapes = "{'Lay': [ids]}, {'Take': id} or {'Give': id}"
        raise ValueError(f"an applied move must be {shapes}, not {str(line.get('move'))[:60]!r}")
    source = line.get("source")
    return {
        "move": move,
        "source": source if source in ("bot", "fallback") else None,
        "result": _text(line.get("result"), "result", optional=True),
        "applied": applied,
        "labels": _labels(line.get("labels")),
        **({"log": line["log"][:MAX_LOG]} if isinstance(line.get("log"), str) and line["log"] else {}),
    }


def _labels_line(line: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "remaining_rounds": _int(line.get("remaining_rounds"), "remaining_rounds", high=MAX_ROUNDS),
        "labels": _labels(line.get("labels")),
    }


def _end(line: Mapping[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {"status": _text(line.get("status"), "status")}
    kept["game_id"] = _int(line.get("game_id"), "game_id", optional=True)
    for key in ("my_score", "opp_score"):
        kept[key] = _int(line.get(key), key, optional=True, high=MAX_ROUNDS)
    for key in ("moves", "fallbacks"):
        kept[key] = _int(line.get(key), key, optional=True, high=MAX_COUNT)
    kept["duration_s"] = _number(line.get("duration_s"))
    return kept


CLEANERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "header": _header,
    "gamestate": _gamestate,
    "move": _move,
    "labels": _labels_line,
    "end": _end,
}
