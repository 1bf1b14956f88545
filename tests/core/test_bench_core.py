"""Random rounds per second, through the card-level engine and through the count-level state.

Run with: .venv/bin/python -m pytest tests/core/test_bench_core.py --benchmark-only
rounds/s = ROUNDS_PER_CALL / mean; it is shown in each benchmark's extra_info.
"""

from __future__ import annotations

import random

from random_play import random_card_move

from rummy import CountState, Match, parse_move, play_random_round, render_gamestate

ROUNDS_PER_CALL = 200


def engine_rounds(rng: random.Random, render: bool) -> int:
    turns = 0
    for _ in range(ROUNDS_PER_CALL):
        match = Match(seed=rng.getrandbits(32))
        while not match.over:
            raw, _refused = random_card_move(match, rng, malformed_share=0.0)
            match.apply(match.current.mover, parse_move(raw))
            if render:
                render_gamestate(match, 0)
                render_gamestate(match, 1)
            turns += 1
    return turns


def count_level_rounds(rng: random.Random) -> int:
    turns = 0
    for _ in range(ROUNDS_PER_CALL):
        state = play_random_round(CountState.random_deal(rng), rng)
        turns += 20 - state.turns_left
    return turns


def _report(benchmark) -> None:
    benchmark.extra_info["rounds_per_second"] = round(ROUNDS_PER_CALL / benchmark.stats.stats.mean)


def test_bench_engine_random_rounds(benchmark):
    rng = random.Random(1)
    assert benchmark.pedantic(engine_rounds, args=(rng, False), rounds=5, iterations=1) > 0
    _report(benchmark)


def test_bench_engine_random_rounds_with_both_gamestates(benchmark):
    rng = random.Random(1)
    assert benchmark.pedantic(engine_rounds, args=(rng, True), rounds=5, iterations=1) > 0
    _report(benchmark)


def test_bench_count_level_random_rounds(benchmark):
    rng = random.Random(1)
    count_level_rounds(rng)  # fills the move tables once, as a long-running search would have
    assert benchmark.pedantic(count_level_rounds, args=(rng,), rounds=20, iterations=1) > 0
    _report(benchmark)
