"""The three moves of Rummy Vision as small immutable values, and their arena JSON form."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummy import bounded_json
from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.messages import MOVE_KEYS


class MalformedMove(ValueError):
    """A move the referee refuses outright (INVALID_MOVE): nothing changes and the mover may retry."""


@dataclass(frozen=True)
class Lay:
    ids: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"Lay": list(self.ids)}


@dataclass(frozen=True)
class Take:
    id: int

    def to_json(self) -> dict[str, Any]:
        return {"Take": self.id}


@dataclass(frozen=True)
class Give:
    id: int

    def to_json(self) -> dict[str, Any]:
        return {"Give": self.id}


Move = Lay | Take | Give  # as JSON: a rummy.messages.MoveMessage


def _excerpt(value: Any, limit: int = 60) -> str:
    """A short JSON excerpt of what was sent, for error messages (never the whole of a big value)."""
    try:
        text = json.dumps(value, default=repr)
    except Exception:  # noqa: BLE001 -- a bot's own object may raise anything from repr()
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def require_card_id(value: Any, where: str) -> int:
    # bool is a subclass of int in Python, but true/false is not a card id in JSON.
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"{where} must be an integer card id, got {_excerpt(value)}")
    return value


def parse_move(raw: Any, rules: RulesConfig = DEFAULT_RULES) -> Move:
    """Check a move's shape (not the hands) and return it; a JSON string is decoded first."""
    if isinstance(raw, (str, bytes)):
        try:
            # NaN and Infinity are not JSON, whatever Python's json module accepts by default.
            raw = bounded_json.loads(raw)
        except ValueError as error:
            raise MalformedMove(f"move is not valid JSON: {error}") from None
    if not isinstance(raw, dict):
        raise MalformedMove(f"a move is a JSON object with one key of {MOVE_KEYS}, got {type(raw).__name__}")
    if len(raw) != 1:
        raise MalformedMove(
            f"a move has exactly one key of {MOVE_KEYS}, got keys {_excerpt(sorted(map(str, raw))[:5])}"
        )
    ((key, value),) = raw.items()
    if key == "Take":
        return Take(require_card_id(value, "Take"))
    if key == "Give":
        return Give(require_card_id(value, "Give"))
    if key != "Lay":
        shown = repr(key)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise MalformedMove(f"unknown move {shown}: expected one of {MOVE_KEYS}")
    if not isinstance(value, list):
        raise MalformedMove(f"Lay must be a list of card ids, got {_excerpt(value)}")
    ids = tuple(require_card_id(item, "each Lay entry") for item in value)
    if not rules.min_lay <= len(ids) <= rules.max_lay:
        raise MalformedMove(f"Lay needs {rules.min_lay} to {rules.max_lay} ids, got {len(ids)}")
    repeated = sorted({card for card in ids if ids.count(card) > 1})
    if repeated:
        raise MalformedMove(f"Lay repeats card id(s) {repeated}")
    return Lay(ids)


def named_card_ids(raw: Any) -> list[int]:
    """The card ids a move as sent names, in its order; [] for anything that is not a one-key move."""
    if not isinstance(raw, Mapping) or len(raw) != 1:
        return []
    value = next(iter(raw.values()))
    values = value if isinstance(value, list) else [value]
    return [item for item in values if isinstance(item, int) and not isinstance(item, bool)]
