"""Strategies by name: plain factories, so every match gets fresh instances.

`get_strategy(name, **options)` passes options to the factory (e.g. `objective="margin"`,
`time_ms=200`, `nodes=20000`, `max_depth=2`, `seed=1`, `leaves="plan"`, or `weights="training/weights.npz"` for
`learned`); an option a strategy does not take is an error.
Every search strategy takes `nodes`, a node budget per move that replaces the time budget and makes
its moves independent of the clock (see `takes_option`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from strategies.base import Strategy
from strategies.baselines import GreedyStrategy, RandomStrategy
from strategies.characters import CHARACTERS, make_character
from strategies.search_strategies import ExactStrategy, HeuristicStrategy, SearchStrategy
from strategies.table.perfect import PerfectStrategy

StrategyFactory = Callable[..., Strategy]


def _learned(weights: str | None = None) -> Strategy:
    """The TD(lambda)-trained value model; loads numpy only when asked for."""
    from strategies.learning.strategy import LearnedStrategy

    return LearnedStrategy(weights)


STRATEGIES: dict[str, StrategyFactory] = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
    "heuristic": HeuristicStrategy,
    # With the perfect-play table (when built) at the leaves, and exact kernel solves that fit the budget.
    "expectimax": functools.partial(SearchStrategy, "expectimax", leaves="auto", exact_solve=True),
    # Hand-plan leaves and no kernel: the searcher without the table, to measure what the table adds.
    "expectimax-plan": functools.partial(SearchStrategy, "expectimax-plan"),
    "exact": ExactStrategy,
    "learned": _learned,
    **{name: functools.partial(make_character, name) for name in CHARACTERS},
    "perfect": PerfectStrategy,
}

# The strongest strategy that still answers within the arena's usual deadlines.
STRONGEST = "expectimax"


def strategy_names() -> list[str]:
    return sorted(STRATEGIES)


def takes_option(name: str, option: str) -> bool:
    """Whether strategy `name` accepts `option` (e.g. "nodes" or "seed")."""
    factory = STRATEGIES.get(name)
    if factory is None:
        return False
    try:
        return option in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def get_strategy(name: str, **options: Any) -> Strategy:
    try:
        factory = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(strategy_names())}") from None
    if options:
        try:
            inspect.signature(factory).bind(**options)
        except TypeError:
            raise ValueError(f"strategy {name!r} does not take the option(s) {', '.join(sorted(options))}") from None
    return factory(**options)
