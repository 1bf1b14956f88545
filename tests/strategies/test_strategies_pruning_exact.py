"""Star1, Star2, the transposition table and killer ordering return plain expectimax's root value."""

import random

import pytest
from strategies_helpers import random_position

from rummy import CountState, RulesConfig
from strategies.search import Searcher, SearchOptions

VARIANTS = {
    "star1": dict(pruning="star1", use_tt=False, killers=False),
    "star2": dict(pruning="star2", use_tt=False, killers=False),
    "star2+tt": dict(pruning="star2", use_tt=True, killers=False),
    "star2+tt+killers": dict(pruning="star2", use_tt=True, killers=True),
    "star1+tt+killers": dict(pruning="star1", use_tt=True, killers=True),
}


def positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_position(rng) for _ in range(count)]


@pytest.mark.parametrize("objective", ["win", "margin"])
def test_pruned_searches_equal_plain_expectimax_on_200_positions(objective: str) -> None:
    checked = 0
    for index, state in enumerate(positions(200, seed=11 if objective == "win" else 12)):
        # Deeper on short endgames, where depth 3 stays cheap for the unpruned reference.
        depth = 3 if state.turns_left <= 4 else 1 + index % 2
        plain = Searcher(SearchOptions(objective=objective, pruning="none")).search(state.copy(), depth)
        for name, options in VARIANTS.items():
            found = Searcher(SearchOptions(objective=objective, **options)).search(state.copy(), depth)
            assert found.value == pytest.approx(plain.value, abs=1e-9), (name, state, depth)
            assert plain.move_values[found.best] == pytest.approx(plain.value, abs=1e-9), (name, "best move")
        checked += 1
    assert checked == 200


def test_every_move_value_is_exact_with_all_values() -> None:
    for state in positions(40, seed=13):
        plain = Searcher(SearchOptions(pruning="none")).search(state.copy(), 2)
        found = Searcher(SearchOptions()).search(state.copy(), 2, all_values=True)
        assert found.move_values.keys() == plain.move_values.keys()
        for move, value in plain.move_values.items():
            assert found.move_values[move] == pytest.approx(value, abs=1e-9)


def test_iterative_deepening_reuses_the_table_without_changing_values() -> None:
    for state in positions(30, seed=14):
        depth = min(3, state.turns_left) if state.turns_left <= 5 else 2
        plain = Searcher(SearchOptions(pruning="none")).search(state.copy(), depth)
        deepened = Searcher(SearchOptions()).iterate(state.copy(), 1e9, max_depth=depth)
        assert deepened.depth == depth
        assert deepened.value == pytest.approx(plain.value, abs=1e-9)


def test_star_pruning_is_exact_on_miniature_rules_at_depth_four() -> None:
    rules = RulesConfig(types_per_round=3, cards_per_type=5, hand_size=4)
    rng = random.Random(15)
    for _ in range(25):
        state = random_position(rng, rules)
        plain = Searcher(SearchOptions(pruning="none", objective="margin")).search(state.copy(), 4)
        found = Searcher(SearchOptions(objective="margin")).search(state.copy(), 4)
        assert found.value == pytest.approx(plain.value, abs=1e-9)


def test_pruning_and_the_table_save_nodes() -> None:
    totals = dict.fromkeys(["none", *VARIANTS], 0)
    for state in positions(15, seed=16):
        totals["none"] += Searcher(SearchOptions(pruning="none")).search(state.copy(), 2).nodes
        for name, options in VARIANTS.items():
            totals[name] += Searcher(SearchOptions(**options)).search(state.copy(), 2).nodes
    assert totals["star1"] < totals["none"]
    assert totals["star2+tt+killers"] < totals["star1"]


def test_the_table_counts_hits_collisions_and_replacements() -> None:
    searcher = Searcher(SearchOptions(tt_size=64))  # tiny: slots are shared
    state = CountState.random_deal(random.Random(17))
    searcher.search(state.copy(), 3)
    searcher.search(state.copy(), 3)
    stats = searcher.table.stats
    assert stats.hits > 0
    assert stats.collisions > 0
    assert stats.replacements > 0
    assert stats.stores > 0
