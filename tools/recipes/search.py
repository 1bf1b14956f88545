"""Search benchmarks (`python tools/measure.py search`):

1. node counts at a fixed depth on a fixed position set: plain expectimax, Star1, Star2, +TT, +killers
   (every node once: a decision, a chance node, or a leaf, which is a finished round or an estimate);
2. nodes per second of the full searcher;
3. decision time of `expectimax` at its default budget (1000 ms): median, 90th percentile and maximum
   (with 40 decisions a "99th percentile" would only be the maximum), and the depth reached;
4. exact-solver time against turns left.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from bot.measure.sampling import percentile, position_set
from rummy import CountState
from strategies.search import Searcher, SearchOptions
from strategies.search.exact import solve
from strategies.search_strategies import SearchStrategy

VARIANTS = {
    "plain": SearchOptions(pruning="none"),
    "star1": SearchOptions(pruning="star1", use_tt=False, killers=False),
    "star2": SearchOptions(pruning="star2", use_tt=False, killers=False),
    "star2+tt": SearchOptions(pruning="star2", use_tt=True, killers=False),
    "star2+tt+killers": SearchOptions(pruning="star2", use_tt=True, killers=True),
}


def node_counts(positions: list[CountState], depth: int) -> dict[str, tuple[int, float]]:
    counts: dict[str, tuple[int, float]] = {}
    for name, options in VARIANTS.items():
        nodes, seconds = 0, 0.0
        for state in positions:
            result = Searcher(options).search(state.copy(), depth)
            nodes += result.nodes
            seconds += result.seconds
        counts[name] = (nodes, seconds)
    return counts


def decision_times(count: int, seed: int) -> tuple[list[float], Counter[int]]:
    times: list[float] = []
    depths: Counter[int] = Counter()
    for state in position_set(count, seed):
        player = SearchStrategy()
        start = time.perf_counter()
        player.choose(state.copy())
        times.append(time.perf_counter() - start)
        depths[player.last.depth if player.last else 0] += 1
    return times, depths


def exact_times(exact_max: int, seed: int, per_row: int = 5) -> dict[int, tuple[float, float]]:
    """Exact solver (win objective): turns left -> (mean, max) seconds over `per_row` positions."""
    rows: dict[int, tuple[float, float]] = {}
    for turns in range(1, exact_max + 1):
        spent = []
        for state in position_set(per_row, seed + 100 + turns, turns_left=turns):
            start = time.perf_counter()
            solve(state.copy())
            spent.append(time.perf_counter() - start)
        rows[turns] = (statistics.mean(spent), max(spent))
    return rows


def search_figures(positions: int, depth: int, decisions: int, exact_max: int, seed: int) -> dict[str, Any]:
    """All four figures as plain data; `report` puts them in words."""
    counts = node_counts(position_set(positions, seed), depth)
    times, depths = decision_times(decisions, seed + 1)
    nodes, seconds = counts["star2+tt+killers"]
    plain, plain_seconds = counts["plain"]
    return {
        "positions": positions,
        "depth": depth,
        "node_counts": {name: {"nodes": n, "seconds": round(s, 4)} for name, (n, s) in counts.items()},
        "nodes_per_second": nodes / seconds if seconds else None,
        "plain_nodes_per_second": plain / plain_seconds if plain_seconds else None,
        "decision_seconds": {
            "count": len(times),
            "p50": percentile(times, 0.5),
            "p90": percentile(times, 0.9),
            "max": max(times),
        },
        "depth_reached": {str(depth): n for depth, n in sorted(depths.items())},
        "exact_seconds": {
            str(t): {"mean": mean, "max": most} for t, (mean, most) in exact_times(exact_max, seed).items()
        },
    }


def report(figures: dict[str, Any]) -> list[str]:
    counts = figures["node_counts"]
    plain = counts["plain"]["nodes"]
    lines = [f"1. Node counts, depth {figures['depth']}, {figures['positions']} positions (turns left 8-20):"]
    for name, row in counts.items():
        lines.append(
            f"   {name:18s} {row['nodes']:>10d} nodes  ({plain / row['nodes']:5.1f}x fewer than plain)"
            f"  {row['seconds']:6.2f} s"
        )
    lines.append(
        f"2. Nodes per second (full searcher): {figures['nodes_per_second']:,.0f};"
        f" plain: {figures['plain_nodes_per_second']:,.0f}"
    )
    times = figures["decision_seconds"]
    lines.append(
        f"3. Decision time at the default budget, {times['count']} positions: p50 {times['p50'] * 1000:.0f} ms, "
        f"p90 {times['p90'] * 1000:.0f} ms, max {times['max'] * 1000:.0f} ms; depth reached "
        + ", ".join(f"{depth}: {n}" for depth, n in figures["depth_reached"].items())
    )
    lines.append("4. Exact solver (win objective) against turns left, 5 positions each:")
    for turns, row in figures["exact_seconds"].items():
        lines.append(f"   turns left {turns}: mean {row['mean'] * 1000:8.1f} ms, max {row['max'] * 1000:8.1f} ms")
    return lines
