"""In-process rounds per second, greedy against greedy, with 1 and 2 worker processes.

Run with: .venv/bin/python -m pytest tests/matches/test_bench_matches.py --benchmark-only
rounds/s = ROUNDS / mean, shown in each benchmark's extra_info.
"""

from __future__ import annotations

import pytest

from bot.matches.executors import RoundTask, run_tasks
from bot.matches.local_match import Contender, schedule

ROUNDS = 400


def greedy_tasks() -> list[RoundTask]:
    greedy = Contender("greedy")
    return [RoundTask(deal, (greedy, greedy)) for deal, _seat in schedule(greedy, greedy, ROUNDS, "bench", True)]


@pytest.mark.parametrize("workers", [1, 2])
def test_bench_greedy_vs_greedy_rounds(benchmark, workers):
    tasks = greedy_tasks()
    results = benchmark.pedantic(run_tasks, args=(tasks,), kwargs={"workers": workers}, rounds=3, iterations=1)
    assert len(results) == ROUNDS
    benchmark.extra_info["workers"] = workers
    benchmark.extra_info["rounds_per_second"] = round(ROUNDS / benchmark.stats.stats.mean)
