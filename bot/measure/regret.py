"""How far a strategy's moves are from perfect play, by turns left, on a fixed set of solved positions.

    rummy-vision measure regret --per-turn 100 --turns 1,2,3,4 --compare greedy,heuristic
    rummy-vision measure regret --turns 1-20 --compare greedy,heuristic --compare "expectimax-plan:nodes=449000"

Positions come from `sample_positions` (seeded greedy/random play; seed 2026 by default, which no
training run uses for its curve unless given that seed). Each is solved exactly under the margin
objective; a move's regret is the best move's exact value minus its own, in points. With the
perfect-play table built every turn can be measured; without it, up to about 8 turns left.

Other strategies are named as in `measure duel` (`name:key=value,...`; one per --compare, or plain
names separated by commas); search strategies play the margin objective unless told.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.measure.duel import parse_player
from strategies.learning.exact_values import SolvedPosition
from strategies.registry import get_strategy, takes_option


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


def stage_rows(rows: Sequence[RegretRow], stages: Sequence[tuple[int, int]]) -> list[dict[str, object]]:
    """Each strategy's regret and share of optimal moves over every position of a stage (turns left FIRST-LAST)."""
    found = []
    for strategy in dict.fromkeys(row.strategy for row in rows):
        for first, last in stages:
            inside = [row for row in rows if row.strategy == strategy and first <= row.turns_left <= last]
            positions = sum(row.positions for row in inside)
            if not positions:
                continue
            found.append(
                {"strategy": strategy, "turns_left": f"{first}-{last}", "positions": positions}
                | {"mean_regret": sum(row.mean_regret * row.positions for row in inside) / positions}
                | {"optimal_share": sum(row.optimal_share * row.positions for row in inside) / positions}
            )
    return found


def compare_rows(
    positions: Sequence[SolvedPosition], compare: Sequence[str], weights: str | None = None
) -> list[RegretRow]:
    """Regret rows of `learned` (with `weights`, or the shipped ones) and of every compared spec."""
    rows = regret_rows("learned", positions, **({"weights": weights} if weights else {}))
    for spec in compared(compare):
        name, options = parse_player(spec)
        if takes_option(name, "objective"):
            options.setdefault("objective", "margin")
        rows += regret_rows(spec, positions, **options)
    return rows
