"""pytest-benchmark figures for the kernel and the table (skipped by default; run with --benchmark-enable).

The full table's figures come from `python tools/measure.py table-build`, `table-lookup` and `table-solve`."""

from pathlib import Path

import pytest
from kernel_helpers import MINIATURES

from bot.measure.sampling import position_set
from strategies.kernel.solve_position import solve_exact
from strategies.kernel.warm import warm_up
from strategies.table import load_table
from strategies.table.margin.build import build_table
from strategies.table.margin.lookup import margin_value


def test_bench_miniature_build(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    warm_up()
    rules = MINIATURES[1]

    def run() -> int:
        path = tmp_path / "mini.rvt"
        path.unlink(missing_ok=True)
        return int(build_table(path, rules, workers=1)["done"])

    assert benchmark(run) == rules.deck_size


def test_bench_lookup(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rules = MINIATURES[1]
    build_table(tmp_path / "mini.rvt", rules, workers=1)
    table = load_table(tmp_path / "mini.rvt", rules)
    import random

    from strategies_helpers import random_position

    state = random_position(random.Random(1), rules)
    warm_up()
    assert benchmark(lambda: margin_value(state, table)) == pytest.approx(margin_value(state, table))


@pytest.mark.parametrize("objective", ["margin", "win"])
def test_bench_on_demand_four_turns(benchmark, objective: str) -> None:  # type: ignore[no-untyped-def]
    warm_up()
    endgames = position_set(3, seed=8, turns_left=4)
    assert benchmark(lambda: [solve_exact(state.copy(), objective) for state in endgames])
