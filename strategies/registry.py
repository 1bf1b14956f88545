"""Strategies by name: plain factories, so every match gets fresh instances.

`get_strategy(name, **options)` passes options to the factory (e.g. `objective="margin"`,
`time_ms=200`, `nodes=20000`, `max_depth=2`, `seed=1`, `leaves="plan"`, or `weights="training/weights.npz"` for
`learned`); an option a strategy does not take is an error.
On the command line a strategy is named with its options as `NAME:OPT=VAL[,OPT=VAL...]`, e.g.
`learned:weights=training/weights.npz` or `expectimax:nodes=20000,objective=margin`; `get_strategy`
reads that form wherever a name is given, and a bad option lists the ones the strategy takes.
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
from strategies.learning.strategy import LearnedStrategy
from strategies.search_strategies import ExactStrategy, HeuristicStrategy, SearchStrategy
from strategies.table.perfect import PerfectStrategy

StrategyFactory = Callable[..., Strategy]


def _learned(weights: str | None = None) -> Strategy:
    """The TD(lambda)-trained value model."""
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


# Parameters that take Python objects, not values a person types.
_NOT_FROM_TEXT = frozenset({"options", "rules"})

# How the command line's help describes the form.
SPEC_HELP = "NAME or NAME:OPT=VAL[,OPT=VAL] (e.g. expectimax:nodes=20000, learned:weights=training/weights.npz)"


def strategy_names() -> list[str]:
    return sorted(STRATEGIES)


def _value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """("expectimax", {"nodes": 20000}) from "expectimax:nodes=20000"; a plain name has no options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (piece.strip() for piece in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"strategy option {part!r} in {spec!r} is not OPT=VAL; {SPEC_HELP}")
        options[key.strip()] = _value(value)
    return name.strip(), options


# Strategies that never look at the cards' labels (they play without a recognizer).
LABEL_BLIND = frozenset({"random"})


def needs_labels(spec: str) -> bool:
    """Whether the strategy decides by the cards' landmarks (all but the picture-blind ones)."""
    return parse_spec(spec)[0] not in LABEL_BLIND


def option_names(name: str) -> list[str]:
    """The options strategy `name` takes from the command line, in its signature's order."""
    factory = STRATEGIES.get(parse_spec(name)[0])
    if factory is None:
        return []
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return []
    return [option for option in parameters if option not in _NOT_FROM_TEXT]


def takes_option(name: str, option: str) -> bool:
    """Whether strategy `name` (plain or NAME:OPT=VAL) accepts `option` (e.g. "nodes" or "seed")."""
    factory = STRATEGIES.get(parse_spec(name)[0])
    if factory is None:
        return False
    try:
        return option in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def get_strategy(spec: str, **options: Any) -> Strategy:
    """The strategy `spec` names (NAME or NAME:OPT=VAL,...), with `options` added (the spec's win)."""
    name, given = parse_spec(spec)
    try:
        factory = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(strategy_names())}") from None
    options = {**options, **given}
    if options:
        unknown = sorted(set(options) - set(inspect.signature(factory).parameters))
        if unknown:
            takes = ", ".join(option_names(name)) or "no options"
            raise ValueError(f"strategy {name!r} does not take the option(s) {', '.join(unknown)}; it takes: {takes}")
        try:
            inspect.signature(factory).bind(**options)
        except TypeError as error:
            raise ValueError(f"strategy {name!r}: {error}") from None
    try:
        return factory(**options)
    except (TypeError, ValueError, OSError) as error:
        if not given:
            raise
        raise ValueError(f"strategy {spec!r}: {error}") from None
