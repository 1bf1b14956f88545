"""Positions out of games: a replay step as an `analyze` position (rummy/step_positions.py), and the suite of
positions taken so.

`add_to_suite` appends a position with its best move and why to a suite file (JSON Lines), which
`tests/positions/test_position_suite.py` runs against a strategy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rummy.step_positions import step_position
from strategies.position import PositionError, parse_position

__all__ = ["DEFAULT_SUITE", "add_to_suite", "check_position", "step_position"]

DEFAULT_SUITE = Path(__file__).resolve().parents[2] / "fixtures" / "positions" / "from_games.jsonl"


def check_position(position: Mapping[str, Any]) -> Any:
    """The parsed position (strategies.position.Position); PositionError saying what is wrong."""
    return parse_position(dict(position))


def add_to_suite(position: Mapping[str, Any], best: Mapping[str, Any], why: str, suite: Path, objective: str) -> int:
    """Append the position with its best move (`Expected`) and why (`Comment`) to `suite`; its line number."""
    entry = {key: value for key, value in position.items() if key not in ("Expected", "Objective")}
    parsed = check_position(entry)
    parsed.move_id(best)  # a move of this position's hands, or PositionError
    mine = {card[0] for card in entry["GameState"]["MyHand"]}
    if ("Give" in best and best["Give"] not in mine) or ("Lay" in best and not set(best["Lay"]) <= mine):
        raise PositionError(f"{json.dumps(dict(best))} names a card not in the mover's hand")
    entry["Expected"] = dict(best)
    entry["Objective"] = objective
    entry["Comment"] = why
    suite.parent.mkdir(parents=True, exist_ok=True)
    existing = suite.read_text(encoding="utf-8").splitlines() if suite.exists() else []
    with suite.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
    return len([line for line in existing if line.strip()]) + 1
