"""`perfect` maximises the round's win probability by default (the arena's objective), with margin as an
option; where no exact win value is at hand it says "estimate", never silently. Miniature rules, checked
against plain expectimax written from the rules (tests/strategies/strategies_helpers.BruteForce)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES
from strategies_helpers import BruteForce, random_position

from rummy import CountState, RulesConfig
from strategies.provenance import source_text, strategy_source
from strategies.registry import get_strategy
from strategies.table.margin.build import build_table
from strategies.table.perfect import MAPPED, SOLVED_ABOVE, SOLVED_TO_END
from strategies.table.win.build import build_win_table
from strategies.table.win.fileformat import load_win_table

RULES = MINIATURES[1]  # 6 turns at most: deeper than the on-demand win solve's 5 without a win table


def _best(values: dict[int, float]) -> set[int]:
    top = max(values.values())
    return {move for move, value in values.items() if value >= top - 1e-6}


def differing(rules: RulesConfig, turns_left: int) -> CountState:
    """A position where every margin-best move loses win probability, with `turns_left` turns left."""
    rng = random.Random(5)
    for _ in range(2000):
        state = random_position(rng, rules)
        if state.turns_left != turns_left or len(state.legal_moves()) < 2:
            continue
        margin = BruteForce("margin").move_values(state.copy())
        win = BruteForce("win").move_values(state.copy())
        if not _best(margin) & _best(win):
            return state
    raise AssertionError("no position where the margin-best and win-best moves differ")


@pytest.fixture
def margin_table(tmp_path: Path) -> Path:
    path = tmp_path / "mini.rvt"
    build_table(path, RULES, workers=1)
    return path


def test_the_default_objective_is_win_and_plays_the_win_best_move(margin_table: Path) -> None:
    build_win_table(margin_table.with_suffix(".rvw"), RULES, workers=1)  # where `solve --out` puts it
    state = differing(RULES, 6)
    win = BruteForce("win").move_values(state.copy())
    perfect = get_strategy("perfect", table=margin_table, rules=RULES)
    assert perfect.objective.value == "win"
    move = perfect.choose(state.copy())
    assert move in _best(win)
    assert perfect.last is not None and perfect.last.exact
    for other, value in perfect.last.move_values.items():
        assert value == pytest.approx(win[other], abs=1e-3)
    source = strategy_source(perfect)
    assert source["objective"] == "win" and source["win_table"]["whole"]
    assert "every P(win) exact" in source_text(source)


def test_objective_margin_still_plays_the_margin_best_move(margin_table: Path) -> None:
    state = differing(RULES, 6)
    margin = BruteForce("margin").move_values(state.copy())
    perfect = get_strategy("perfect:objective=margin", table=margin_table, rules=RULES)
    assert perfect.choose(state.copy()) in _best(margin)
    assert perfect.last is not None and perfect.last.exact
    assert "win_table" not in strategy_source(perfect)


def test_without_a_win_table_values_beyond_the_on_demand_solve_are_marked_estimates(
    margin_table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))  # no default win table either
    perfect = get_strategy("perfect", table=margin_table, rules=RULES)
    deep = differing(RULES, 6)
    result = perfect.analyse(deep.copy())
    assert not result.exact and perfect.last_how == MAPPED  # the margin move, said to be an estimate
    near = differing(RULES, 4)
    result = perfect.analyse(near.copy())
    assert result.exact and perfect.last_how == SOLVED_TO_END
    assert result.best in _best(BruteForce("win").move_values(near.copy()))
    text = source_text(strategy_source(perfect))
    assert "no win table" in text and "estimates" in text and "rummy-vision solve" in text


def test_an_interrupted_win_build_gives_its_finished_layers_and_solves_above_them(margin_table: Path) -> None:
    path = margin_table.with_suffix(".rvw")

    def stop_after_two(d: int, timing: dict[str, float]) -> None:
        if d == 2:
            raise KeyboardInterrupt  # Ctrl-C once layer 2 is on disk, as the README walk does to `solve`

    with pytest.raises(KeyboardInterrupt):
        build_win_table(path, RULES, workers=1, on_layer=stop_after_two)
    partial = load_win_table(path, RULES)
    assert partial.top == 2 and not partial.whole
    state = differing(RULES, 6)
    perfect = get_strategy("perfect", table=margin_table, rules=RULES)
    result = perfect.analyse(state.copy())
    assert result.exact and perfect.last_how == SOLVED_ABOVE  # 4 turns enumerated above layer 2
    assert result.best in _best(BruteForce("win").move_values(state.copy()))
    assert "(layers 1..2)" in source_text(strategy_source(perfect))
    build_win_table(path, RULES, workers=1)  # resumed to the whole round
    assert load_win_table(path, RULES).whole
