"""The position suite taken from games (`replay ... --position`, then `positions add`): a strategy must find
each position's best move. RUMMY_VISION_SUITE_STRATEGY names the strategy (default expectimax) and
RUMMY_VISION_SUITE_NODES its node budget (default 200,000: the suite's late positions are then searched to
the end), so the same answer comes on any machine."""

from __future__ import annotations

import json
import os

import pytest

from bot.replay.positions import DEFAULT_SUITE

STRATEGY = os.environ.get("RUMMY_VISION_SUITE_STRATEGY", "expectimax")
NODES = int(os.environ.get("RUMMY_VISION_SUITE_NODES", "200000"))
ENTRIES = [json.loads(line) for line in DEFAULT_SUITE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_suite_has_positions_from_games() -> None:
    assert ENTRIES and all({"Expected", "Comment", "Objective"} <= set(entry) for entry in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"position-{n}" for n in range(1, len(ENTRIES) + 1)])
def test_the_strategy_finds_the_best_move(entry) -> None:
    from strategies.analyze import analyse
    from strategies.position import parse_position

    position = parse_position(entry)
    analysis = analyse(position, STRATEGY, entry["Objective"], 1000, NODES)
    values = {json.dumps(ranked.move, sort_keys=True): ranked.value for ranked in analysis.moves}
    expected = position.move_id(entry["Expected"])
    found = position.move_id(analysis.best)
    # Moves of the same landmarks are the same move: compare at that level, or by value when two tie.
    mine, top = values.get(json.dumps(entry["Expected"], sort_keys=True)), analysis.moves[0].value
    same_value = isinstance(mine, float) and isinstance(top, float) and abs(mine - top) < 1e-9
    assert found == expected or same_value, f"{STRATEGY} plays {analysis.best}; {entry['Comment']}"
