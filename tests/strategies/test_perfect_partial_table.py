"""`perfect` over a partial margin table (`rummy-vision solve --top N`, the README's first table step) plays
whole rounds without a fault: above the table it searches (expectimax with the table's leaves, a fixed node
budget), and its source line and every such move say they are estimates and how to build the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.matches.local_match import Contender, play_round
from rummy import DEFAULT_RULES
from strategies.provenance import source_text, strategy_source
from strategies.registry import get_strategy
from strategies.table import perfect
from strategies.table.margin.build import build_table

pytestmark = pytest.mark.timeout(3600)  # a few CPU seconds, but a busy machine may stretch them far


@pytest.fixture(scope="module")
def layer_one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("table") / "margin-1.rvt"
    build_table(path, DEFAULT_RULES, top=1, workers=1)
    return path


@pytest.mark.parametrize("objective", ["win", "margin"])
def test_perfect_on_a_partial_table_plays_a_round_without_a_fault_and_says_where_it_estimates(
    layer_one: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, objective: str
) -> None:
    monkeypatch.setenv("RUMMY_VISION_TABLE", str(layer_one))
    monkeypatch.setenv("RUMMY_VISION_WIN_TABLE", str(tmp_path / "no-win-table.rvw"))
    monkeypatch.setattr(perfect, "FALLBACK_NODES", 3000, raising=False)  # the budget's size is not what is tested
    spec = "perfect" if objective == "win" else "perfect:objective=margin"
    result = play_round("partial:1", (Contender(spec, "oracle"), Contender("greedy", "oracle")))
    assert result.faults(0) == 0, result.fault_details(0)[:1]
    line = source_text(strategy_source(get_strategy(spec)))
    assert "layers 1..1" in line and "expectimax" in line and "estimate" in line, line
    assert "solve --margin-only" in line, line


def test_a_position_above_the_table_is_marked_an_estimate(
    layer_one: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    from rummy.countstate import CountState

    monkeypatch.setenv("RUMMY_VISION_WIN_TABLE", str(tmp_path / "no-win-table.rvw"))
    monkeypatch.setattr(perfect, "FALLBACK_NODES", 3000, raising=False)
    player = get_strategy("perfect", table=layer_one)
    state = CountState.random_deal(random.Random(2))
    result = player.analyse(state)
    assert not result.exact and player.last_how.startswith("estimate") and "expectimax" in player.last_how
    assert len(player.suggestions()) >= 1
