"""expectimax with the table: exact leaves make a one-turn search exact (margin); win leaves stay in range;
the kernel's exact solve answers when it fits; `expectimax-plan` searches without the table and the kernel."""

import random
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES
from strategies_helpers import BruteForce, random_position

from bot.measure.sampling import position_set
from rummy import CountState
from strategies.registry import get_strategy
from strategies.search import Searcher
from strategies.search.exact import solve
from strategies.search_strategies import SearchStrategy
from strategies.table import TableError, load_table
from strategies.table.leaves import TableSearcher
from strategies.table.margin.build import build_table

RULES = MINIATURES[1]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("leaves") / "mini.rvt"
    build_table(path, RULES, workers=1)
    return load_table(path, RULES)


def test_table_leaves_make_a_one_turn_margin_search_exact(table) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(21)
    for index in range(10):
        state = CountState.random_deal(rng, RULES) if index % 2 == 0 else random_position(rng, RULES)
        player = SearchStrategy(objective="margin", max_depth=1, leaves="table", table=table, time_ms=60_000)
        assert isinstance(player.searcher, TableSearcher)
        result = player.analyse(state.copy(), all_values=True)
        reference = BruteForce("margin").move_values(state.copy())
        for move, value in reference.items():
            assert result.move_values[move] == pytest.approx(value, abs=1e-4)


def test_win_leaves_from_the_table_give_values_in_range(table) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(22)
    player = SearchStrategy(objective="win", max_depth=2, leaves="table", table=table, time_ms=60_000)
    for _ in range(6):
        state = random_position(rng, RULES)
        result = player.analyse(state.copy(), all_values=True)
        assert result.best in state.legal_moves()
        assert all(-1.0 <= value <= 1.0 for value in result.move_values.values())


def test_expectimax_answers_with_the_exact_solve_when_it_fits() -> None:
    from strategies.kernel.warm import warm_up

    warm_up()  # expectimax warms the kernel in the background and searches until it is ready
    player = get_strategy("expectimax", objective="win", nodes=1_000_000)  # the same on any machine
    for state in position_set(2, 61, turns_left=3):
        result = player.analyse(state.copy())
        assert result.exact and result.nodes == 0  # no search: the kernel's values
        truth = solve(state.copy(), "win").move_values
        for move, value in truth.items():
            assert result.move_values[move] == pytest.approx(value, abs=1e-9)


def test_expectimax_plan_is_the_plain_searcher_and_table_leaves_need_a_table(tmp_path: Path) -> None:
    plan = get_strategy("expectimax-plan", time_ms=50)
    assert type(plan.searcher) is Searcher and not plan.exact_solve
    with pytest.raises(TableError, match="rummy-vision solve"):
        SearchStrategy(leaves="table", table=tmp_path / "none.rvt")
    with pytest.raises(ValueError, match="leaves must be one of"):
        SearchStrategy(leaves="magic")
