"""Rank the moves of a position, like a coach's suggestions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strategies.agent import describe_count_move
from strategies.position import Position
from strategies.provenance import strategy_source
from strategies.registry import get_strategy, takes_option
from strategies.search import Objective
from strategies.search_strategies import SearchStrategy
from strategies.table.perfect import PerfectStrategy


@dataclass(frozen=True)
class RankedMove:
    move: dict[str, Any]  # arena format
    label: str  # by type letters, e.g. "Lay 5xA"
    value: float | None  # win: probability of winning the round; margin: expected final point difference
    landmarks: str = ""  # in landmark names, as the coach says it, e.g. "Lay 5 big ben"


@dataclass(frozen=True)
class Analysis:
    best: dict[str, Any]
    moves: tuple[RankedMove, ...]  # best first
    objective: Objective
    depth: int  # turns searched (0 for strategies that do not search)
    exact: bool
    source: dict[str, Any] | None = None  # what produced the values (strategies.provenance)
    how: str = ""  # `perfect`: where this position's values came from, e.g. "exact, from the win table"

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best,
            "objective": self.objective.value,
            "exact": self.exact,
            "source": self.source,
            "moves": [
                {
                    "move": ranked.move,
                    "label": ranked.landmarks,
                    "value": None if ranked.value is None else round(ranked.value, 6),
                }
                for ranked in self.moves
            ],
        }


def analyse(
    position: Position,
    strategy: str = "expectimax",
    objective: Objective | str = Objective.WIN,
    time_ms: float = 1000,
    nodes: int | None = None,
    deadline: float | None = None,
) -> Analysis:
    """Rank the moves of `position`; with `nodes`, a search strategy gets that node budget instead of
    `time_ms`, so the ranking is the same on every machine. With `deadline` (time.monotonic()), every
    searching strategy stops by then, `exact` included (its values are then the search's, not exact)."""
    objective = Objective(objective)
    state = position.state
    rules = state.rules
    options: dict[str, Any] = {}
    if strategy not in {"random", "greedy"}:
        options["objective"] = objective
    if nodes is not None and takes_option(strategy, "nodes"):
        options["nodes"] = nodes
    elif takes_option(strategy, "time_ms"):
        options["time_ms"] = time_ms
    player = get_strategy(strategy, **options)
    objective = Objective(getattr(player, "objective", objective))  # NAME:objective=... in the spec wins
    if isinstance(player, (SearchStrategy, PerfectStrategy)):
        result = player.analyse(state.copy(), None if nodes is not None else deadline, all_values=True)
        values = result.move_values
        ranked = sorted(values, key=lambda move: -values[move])

        moves = tuple(
            RankedMove(
                position.card_move(move).to_json(),
                rules.moves[move].label,
                player.shown_value(values[move]),
                describe_count_move(rules.moves[move], position.types),
            )
            for move in ranked
        )
        how = player.last_how if isinstance(player, PerfectStrategy) else ""
        return Analysis(moves[0].move, moves, objective, result.depth, result.exact, strategy_source(player), how)
    chosen = player.choose(state.copy())
    order = [chosen] + [move for move in state.legal_moves() if move != chosen]
    moves = tuple(
        RankedMove(
            position.card_move(move).to_json(),
            rules.moves[move].label,
            None,
            describe_count_move(rules.moves[move], position.types),
        )
        for move in order
    )
    return Analysis(moves[0].move, moves, objective, 0, False, strategy_source(player))
