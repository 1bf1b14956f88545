"""Named characters: the searcher with a depth cap, a time budget and noise, weakest to strongest.

The strongest, `perfect`, plays from the solved table instead (strategies.table.perfect)."""

from __future__ import annotations

from dataclasses import dataclass

from strategies.search import Objective, SearchOptions
from strategies.search_strategies import SearchStrategy


@dataclass(frozen=True)
class Character:
    name: str
    max_depth: int | None  # turns of lookahead; None: as deep as the time allows
    time_ms: float
    noise: float  # std. dev. of the noise on move values (win values span -1..1)
    tt_size: int = 1 << 18


CHARACTERS: dict[str, Character] = {
    character.name: character
    for character in (
        Character("easy", max_depth=1, time_ms=100, noise=0.3),
        Character("medium", max_depth=2, time_ms=300, noise=0.05),
        Character("hard", max_depth=None, time_ms=1000, noise=0.0),
    )
}


def make_character(
    name: str,
    *,
    objective: Objective | str = Objective.WIN,
    seed: int | None = None,
    time_ms: float | None = None,
    nodes: int | None = None,
) -> SearchStrategy:
    preset = CHARACTERS[name]
    objective = Objective(objective)
    return SearchStrategy(
        name,
        objective=objective,
        time_ms=preset.time_ms if time_ms is None else time_ms,
        max_depth=preset.max_depth,
        noise=preset.noise,
        seed=seed,
        options=SearchOptions(objective=objective, tt_size=preset.tt_size),
        nodes=nodes,
    )
