"""Strength by duplicate deals: each deal is played twice with the seats swapped
(`rummy-vision measure strength`).

Play is in-process at count level (the information a bot has after recognising every card
correctly), with the deck order fixed by the deal, as in the arena:

    rummy-vision measure strength --rounds 1000 --max-depth 3 --workers 2
    rummy-vision measure strength --player expectimax --nodes 449000 --opponents greedy,heuristic

With `--nodes` every searcher gets a node budget instead of a time budget, so the run replays
move for move on any machine; with `--time-ms` (or the strategies' own default time budget) the
figures depend on how busy the machine was.
"""

from __future__ import annotations

import time
from multiprocessing import Pool
from typing import Any

from bot.measure.duel import PairResult
from rummy.deals import make_deal, play_round
from rummy.stats import wilson_interval
from strategies.registry import get_strategy, takes_option


def _options(name: str, time_ms: float | None, max_depth: int | None, nodes: int | None, seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if name == "random":
        options["seed"] = seed
    if takes_option(name, "time_ms") and time_ms is not None:
        options["time_ms"] = time_ms
    if takes_option(name, "nodes") and nodes is not None:
        options["nodes"] = nodes
    if name == "expectimax" and max_depth is not None:
        options["max_depth"] = max_depth
    return options


Job = tuple[str, str, int, float | None, int | None, int | None]


def _play_deal(job: Job) -> list[tuple[int, int]]:
    """Both seatings of one deal: [(player won 0/1, player's margin), ...]."""
    player, opponent, seed, time_ms, max_depth, nodes = job
    deal = make_deal(seed)
    outcomes = []
    for seat in (0, 1):
        me = get_strategy(player, **_options(player, time_ms, max_depth, nodes, seed))
        them = get_strategy(opponent, **_options(opponent, time_ms, max_depth, nodes, seed + 1))
        seats = (me, them) if seat == 0 else (them, me)
        final = play_round(deal, seats)
        outcomes.append((int(final.winner() == seat), final.margin(seat)))
    return outcomes


def run_pair(
    player: str,
    opponent: str,
    deals: int,
    *,
    time_ms: float | None = None,
    max_depth: int | None = None,
    nodes: int | None = None,
    workers: int = 2,
    first_seed: int = 0,
) -> PairResult:
    start = time.perf_counter()
    jobs: list[Job] = [(player, opponent, first_seed + index, time_ms, max_depth, nodes) for index in range(deals)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_play_deal, jobs, chunksize=max(1, deals // (8 * workers)))
    else:
        results = [_play_deal(job) for job in jobs]
    flat = [outcome for pair in results for outcome in pair]
    wins = sum(won for won, _margin in flat)
    low, high = wilson_interval(wins, len(flat))
    return PairResult(
        player,
        opponent,
        len(flat),
        wins,
        wins / len(flat),
        low,
        high,
        sum(margin for _won, margin in flat) / len(flat),
        time.perf_counter() - start,
    )
