"""pytest-benchmark figures for the searcher (skipped by default; run with --benchmark-enable)."""

from bot.measure.sampling import position_set
from strategies.search import Searcher, SearchOptions
from strategies.search.exact import solve

POSITIONS = position_set(5, seed=7)


def test_bench_depth3_full_searcher(benchmark) -> None:  # type: ignore[no-untyped-def]
    def run() -> int:
        return sum(Searcher(SearchOptions()).search(state.copy(), 3).nodes for state in POSITIONS)

    assert benchmark(run) > 0


def test_bench_depth2_plain_expectimax(benchmark) -> None:  # type: ignore[no-untyped-def]
    def run() -> int:
        return sum(Searcher(SearchOptions(pruning="none")).search(state.copy(), 2).nodes for state in POSITIONS)

    assert benchmark(run) > 0


def test_bench_exact_three_turns(benchmark) -> None:  # type: ignore[no-untyped-def]
    endgames = position_set(3, seed=8, turns_left=3)
    assert benchmark(lambda: [solve(state.copy()).value for state in endgames])
