"""How far a strategy's moves are from perfect play, by turns left, on a fixed set of solved positions.

    python -m strategies.learning.measure --per-turn 100 --turns 1,2,3,4 --compare greedy,heuristic
    python -m strategies.learning.measure --turns 1-20 --compare greedy heuristic "expectimax-plan:nodes=449000"

Positions come from `sample_positions` (seeded greedy/random play; seed 2026 by default, which no
training run uses for its curve unless given that seed). Each is solved exactly under the margin
objective; a move's regret is the best move's exact value minus its own, in points. With the
perfect-play table built every turn can be measured; without it, up to about 8 turns left.

Other strategies are named as in strategies.table.duel (`name:key=value,...`; several, separated
by spaces, or plain names by commas); search strategies play the margin objective unless told.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rummy import DEFAULT_RULES
from strategies.bench import parse_turns
from strategies.learning.exact_values import SolvedPosition, solved_positions
from strategies.registry import get_strategy, takes_option
from strategies.table.duel import parse_player


@dataclass(frozen=True)
class RegretRow:
    strategy: str
    turns_left: int
    positions: int
    mean_regret: float
    optimal_share: float


def compared(items: Sequence[str]) -> list[str]:
    """Specs given one per argument; an argument of plain names may list several, comma-separated."""
    return [part for item in items for part in ([item] if ":" in item else item.split(",")) if part]


def regret_rows(label: str, positions: Sequence[SolvedPosition], **options: object) -> list[RegretRow]:
    """Regret by turns left of strategy `label` (a registered name, or a duel-style spec with `options`)."""
    strategy = get_strategy(label.partition(":")[0], **options)
    by_turns: dict[int, list[float]] = {}
    for solved in positions:
        move = strategy.choose(solved.state.copy())
        by_turns.setdefault(solved.state.turns_left, []).append(solved.regret(move))
    return [
        RegretRow(label, left, len(found), sum(found) / len(found), sum(r <= 1e-9 for r in found) / len(found))
        for left, found in sorted(by_turns.items())
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", default=None, help="weights file of `learned` (default: the shipped weights)")
    parser.add_argument("--turns", default="1,2,3,4", help="turns-left values of the positions (1,2,3 or 1-20)")
    parser.add_argument("--per-turn", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--compare", nargs="*", default=["greedy,heuristic"], help="other strategies measured on the same set"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    turns = parse_turns(args.turns)
    began = time.perf_counter()
    positions = solved_positions(turns, args.per_turn, seed=args.seed, rules=DEFAULT_RULES)
    print(f"solved {len(positions)} positions in {time.perf_counter() - began:.0f} s", flush=True)
    rows = regret_rows("learned", positions, **({"weights": args.weights} if args.weights else {}))
    for spec in compared(args.compare):
        name, options = parse_player(spec)
        if takes_option(name, "objective"):
            options.setdefault("objective", "margin")
        rows += regret_rows(spec, positions, **options)
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
