"""Search benchmarks (figures, not pass/fail):

    python -m strategies.bench [--positions 20] [--depth 3] [--decisions 40] [--exact-max 5]

1. node counts at a fixed depth on a fixed position set: plain expectimax, Star1, Star2, +TT, +killers
   (every node once: a decision, a chance node, or a leaf, which is a finished round or an estimate);
2. nodes per second of the full searcher;
3. decision time of `expectimax` at its default budget (1000 ms): median, 90th percentile and maximum
   (with 40 decisions a "99th percentile" would only be the maximum), and the depth reached;
4. exact-solver time against turns left.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter

from rummy import CountState, random_decision
from strategies.search import Searcher, SearchOptions
from strategies.search.exact import solve
from strategies.searching import SearchStrategy

VARIANTS = {
    "plain": SearchOptions(pruning="none"),
    "star1": SearchOptions(pruning="star1", use_tt=False, killers=False),
    "star2": SearchOptions(pruning="star2", use_tt=False, killers=False),
    "star2+tt": SearchOptions(pruning="star2", use_tt=True, killers=False),
    "star2+tt+killers": SearchOptions(pruning="star2", use_tt=True, killers=True),
}


def position_set(count: int, seed: int, turns_left: int | None = None) -> list[CountState]:
    """Random deals advanced by random play to `turns_left` turns before the end (default: 8 to 20 at random)."""
    rng = random.Random(seed)
    return [
        random_decision(rng, turns_left=turns_left if turns_left is not None else rng.randint(8, 20))
        for _ in range(count)
    ]


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


def parse_turns(text: str) -> tuple[int, ...]:
    """Turns-left values given as a range (`4-8`) or a list (`1,2,3`)."""
    if "-" in text:
        low, high = (int(part) for part in text.split("-"))
        return tuple(range(low, high + 1))
    return tuple(int(item) for item in text.split(","))


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `share` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--exact-max", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    positions = position_set(args.positions, args.seed)
    print(f"1. Node counts, depth {args.depth}, {len(positions)} positions (turns left 8-20):")
    counts = node_counts(positions, args.depth)
    plain = counts["plain"][0]
    for name, (nodes, seconds) in counts.items():
        print(f"   {name:18s} {nodes:>10d} nodes  ({plain / nodes:5.1f}x fewer than plain)  {seconds:6.2f} s")
    nodes, seconds = counts["star2+tt+killers"]
    print(f"2. Nodes per second (full searcher): {nodes / seconds:,.0f}; plain: {plain / counts['plain'][1]:,.0f}")

    times, depths = decision_times(args.decisions, args.seed + 1)
    print(
        f"3. Decision time at the default budget, {len(times)} positions: p50 {percentile(times, 0.5) * 1000:.0f} ms, "
        f"p90 {percentile(times, 0.9) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; depth reached "
        + ", ".join(f"{depth}: {n}" for depth, n in sorted(depths.items()))
    )

    print("4. Exact solver (win objective) against turns left, 5 positions each:")
    for turns in range(1, args.exact_max + 1):
        spent = []
        for state in position_set(5, args.seed + 100 + turns, turns_left=turns):
            start = time.perf_counter()
            solve(state.copy())
            spent.append(time.perf_counter() - start)
        print(f"   turns left {turns}: mean {statistics.mean(spent) * 1000:8.1f} ms, max {max(spent) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
