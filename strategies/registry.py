"""Strategies by name: plain factories, so every match gets fresh instances."""

from __future__ import annotations

from collections.abc import Callable

from strategies.base import Strategy
from strategies.baselines import GreedyStrategy, RandomStrategy

StrategyFactory = Callable[[], Strategy]

STRATEGIES: dict[str, StrategyFactory] = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
}


def strategy_names() -> list[str]:
    return sorted(STRATEGIES)


def get_strategy(name: str) -> Strategy:
    try:
        factory = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(strategy_names())}") from None
    return factory()
