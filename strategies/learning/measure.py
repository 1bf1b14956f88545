"""How far a strategy's moves are from perfect play, by turns left, on a fixed set of solved positions.

    python -m strategies.learning.measure --per-turn 100 --turns 1,2,3,4 --compare greedy,heuristic

Positions come from `sample_positions` (seeded greedy/random play; seed 2026 by default, which no
training run uses for its curve unless given that seed). Each is solved exactly under the margin
objective; a move's regret is the best move's exact value minus its own, in points.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rummy import DEFAULT_RULES
from strategies.learning.exact_values import SolvedPosition, solved_positions
from strategies.registry import get_strategy


@dataclass(frozen=True)
class RegretRow:
    strategy: str
    turns_left: int
    positions: int
    mean_regret: float
    optimal_share: float


def regret_rows(name: str, positions: Sequence[SolvedPosition], **options: object) -> list[RegretRow]:
    strategy = get_strategy(name, **options)
    by_turns: dict[int, list[float]] = {}
    for solved in positions:
        move = strategy.choose(solved.state.copy())
        by_turns.setdefault(solved.state.turns_left, []).append(solved.regret(move))
    return [
        RegretRow(name, left, len(regrets), sum(regrets) / len(regrets), sum(r <= 1e-9 for r in regrets) / len(regrets))
        for left, regrets in sorted(by_turns.items())
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", default=None, help="weights file of `learned` (default: the shipped weights)")
    parser.add_argument("--turns", default="1,2,3,4", help="turns-left values of the positions")
    parser.add_argument("--per-turn", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--compare", default="greedy,heuristic", help="other strategies measured on the same set")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    turns = tuple(int(item) for item in args.turns.split(","))
    began = time.perf_counter()
    positions = solved_positions(turns, args.per_turn, seed=args.seed, rules=DEFAULT_RULES)
    print(f"solved {len(positions)} positions in {time.perf_counter() - began:.0f} s", flush=True)
    rows = regret_rows("learned", positions, **({"weights": args.weights} if args.weights else {}))
    for name in filter(None, args.compare.split(",")):
        options = {"objective": "margin"} if name in {"heuristic", "expectimax"} else {}
        rows += regret_rows(name, positions, **options)
    for row in rows:
        if args.json:
            print(json.dumps(asdict(row)))
        else:
            print(
                f"{row.strategy:10s} turns left {row.turns_left}: {row.positions} positions, mean regret "
                f"{row.mean_regret:.2f} points, optimal {row.optimal_share:.1%}"
            )


if __name__ == "__main__":
    main()
