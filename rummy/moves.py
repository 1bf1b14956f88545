"""The three moves of Rummy Vision as small immutable values, and their arena JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rummy.config import DEFAULT_RULES, RulesConfig


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


Move = Lay | Take | Give
MOVE_KEYS = ("Lay", "Take", "Give")


def _card_id(value: Any, where: str) -> int:
    # bool is a subclass of int in Python, but true/false is not a card id in JSON.
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"{where} must be an integer card id, got {json.dumps(value)}")
    return value


def parse_move(raw: Any, rules: RulesConfig = DEFAULT_RULES) -> Move:
    """Check a move's shape (not the hands) and return it; a JSON string is decoded first."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except ValueError as error:
            raise MalformedMove(f"move is not valid JSON: {error}") from None
    if not isinstance(raw, dict):
        raise MalformedMove(f"a move is a JSON object with one key of {MOVE_KEYS}, got {type(raw).__name__}")
    if len(raw) != 1:
        raise MalformedMove(f"a move has exactly one key of {MOVE_KEYS}, got keys {sorted(map(str, raw))[:5]}")
    ((key, value),) = raw.items()
    if key == "Take":
        return Take(_card_id(value, "Take"))
    if key == "Give":
        return Give(_card_id(value, "Give"))
    if key != "Lay":
        raise MalformedMove(f"unknown move {key!r}: expected one of {MOVE_KEYS}")
    if not isinstance(value, list):
        raise MalformedMove(f"Lay must be a list of card ids, got {json.dumps(value)}")
    ids = tuple(_card_id(item, "each Lay entry") for item in value)
    if not rules.min_lay <= len(ids) <= rules.max_lay:
        raise MalformedMove(f"Lay needs {rules.min_lay} to {rules.max_lay} ids, got {len(ids)}")
    repeated = sorted({card for card in ids if ids.count(card) > 1})
    if repeated:
        raise MalformedMove(f"Lay repeats card id(s) {repeated}")
    return Lay(ids)
