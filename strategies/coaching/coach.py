"""The coach: a strategy's ranked moves for the player to move, with values, and why the best is best.

The coach takes a strategy name (any searching strategy of the registry; by default `perfect` once the
perfect-play table is built, else `expectimax`) and an objective. Values are on the objective's scale:
`win` is the probability of winning the round (the default: the arena scores a round by who wins it,
and a match is won on rounds), `margin` the expected final point difference. A value is marked exact
when the strategy says its search (or table) was exact.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from strategies.agent import describe_count_move
from strategies.analyze import analyse
from strategies.coaching.words import explain_move
from strategies.position import Position, parse_position
from strategies.search import Objective
from strategies.table.perfect import default_valuer

# Where a person is told how to turn estimates into exact values.
EXACT_HINT = (
    "These values are estimates (a bounded search, or exact margins mapped to a win probability). Run"
    " `rummy-vision solve` once to build the perfect-play tables (the margin table, 1.1 GB and a few CPU minutes,"
    " then the win table, 2.73 GB, about 22 CPU minutes); with them the coach's values"
    " are exact."
)


def value_kind(exact: bool) -> dict[str, Any]:
    """The JSON fields that say whether values are exact, and how to get exact ones when they are not."""
    return {"Values": "exact" if exact else "estimate", "ExactHint": None if exact else EXACT_HINT}


DEFAULT_STRATEGY = "expectimax"
DEFAULT_OBJECTIVE = Objective.WIN
DEFAULT_TIME_MS = 1000.0
# Strategies that give a value for every move (the others only pick one).
VALUED = ("heuristic", "expectimax", "exact", "easy", "medium", "hard", "perfect")


@dataclass(frozen=True)
class CoachConfig:
    strategy: str = DEFAULT_STRATEGY
    objective: Objective = DEFAULT_OBJECTIVE
    time_ms: float = DEFAULT_TIME_MS

    @classmethod
    def parse(cls, strategy: str | None, objective: str | None = None, time_ms: float | None = None) -> CoachConfig:
        """A checked config; ValueError says what is wrong."""
        name = strategy or default_valuer()
        if name not in VALUED:
            raise ValueError(f"the coach needs a strategy that values every move: one of {', '.join(VALUED)}")
        try:
            chosen = Objective(objective or DEFAULT_OBJECTIVE)
        except ValueError:
            raise ValueError(f"objective must be one of {', '.join(o.value for o in Objective)}") from None
        budget = DEFAULT_TIME_MS if time_ms is None else float(time_ms)
        if not 1 <= budget <= 60_000:
            raise ValueError("the coach's time must be 1 to 60000 ms")
        return cls(name, chosen, budget)

    def to_json(self) -> dict[str, Any]:
        return {"Strategy": self.strategy, "Objective": self.objective.value, "TimeMs": self.time_ms}


@dataclass(frozen=True)
class Suggestion:
    move_id: int  # count-level move id of the position
    move: dict[str, Any]  # arena move, with the cards this move would use
    label: str  # in landmark names, e.g. "Lay 3 big ben"
    value: float | None


@dataclass(frozen=True)
class Advice:
    suggestions: tuple[Suggestion, ...]  # best first, every legal move
    config: CoachConfig
    exact: bool
    depth: int
    explanation: str
    values: Mapping[int, float] = field(default_factory=dict)  # move id -> value
    how: str = ""  # `perfect`: where the values came from, e.g. "exact, from the win table"

    @property
    def best(self) -> Suggestion:
        return self.suggestions[0]

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        shown = self.suggestions if top is None else self.suggestions[:top]
        return {
            "Strategy": self.config.strategy,
            "Objective": self.config.objective.value,
            "Exact": self.exact,
            **value_kind(self.exact),
            "Depth": self.depth,
            "How": self.how,
            "Explanation": self.explanation,
            "Moves": [
                {
                    "Move": s.move,
                    "Label": s.label,
                    "Value": None if s.value is None else round(s.value, 4),
                }
                for s in shown
            ],
        }


def position_of(gamestate: Mapping[str, Any], labels: Mapping[int, str], deck_counts: Mapping[str, int]) -> Position:
    """The analysis position of the mover's gamestate with every hand card's landmark and the deck's make-up."""
    return parse_position(
        {
            "GameState": dict(gamestate),
            "CardLabels": {str(card_id): name for card_id, name in labels.items()},
            "DeckCounts": dict(deck_counts),
        }
    )


def advise(position: Position, config: CoachConfig = CoachConfig()) -> Advice:
    """Every legal move ranked by `config.strategy`, best first, with the reason for the best in words."""
    # Every coach keeps to its time, `exact` too: it may share the machine with matches in play.
    deadline = time.monotonic() + config.time_ms / 1000
    analysis = analyse(position, config.strategy, config.objective, config.time_ms, deadline=deadline)
    rules = position.state.rules
    suggestions = []
    values: dict[int, float] = {}
    for ranked in analysis.moves:
        move_id = position.move_id(ranked.move)
        label = describe_count_move(rules.moves[move_id], position.types)
        suggestions.append(Suggestion(move_id, ranked.move, label, ranked.value))
        if ranked.value is not None:
            values[move_id] = ranked.value
    ordered = tuple(suggestions)
    explanation = explain_move(position, ordered[0].move_id, _comparison(ordered, config.objective, analysis.exact))
    return Advice(ordered, config, analysis.exact, analysis.depth, explanation, values, analysis.how)


def format_value(value: float | None, objective: Objective) -> str:
    if value is None:
        return "?"
    if objective is Objective.MARGIN:
        return f"{value:+.1f} points"
    return f"{value:.0%} to win"


def _comparison(suggestions: tuple[Suggestion, ...], objective: Objective, exact: bool) -> str:
    best = suggestions[0]
    if best.value is None:
        return ""
    how = "exactly" if exact else "by the search"
    if objective is Objective.MARGIN:
        text = f"It is worth {format_value(best.value, objective)} of expected final margin ({how})."
    else:
        text = f"It wins the round {best.value:.0%} of the time ({how})."
    if len(suggestions) > 1 and suggestions[1].value is not None:
        gap = best.value - suggestions[1].value
        unit = "points" if objective is Objective.MARGIN else "win probability"
        amount = f"{gap:.1f}" if objective is Objective.MARGIN else f"{gap:.0%}"
        if gap < 0.05 if objective is Objective.MARGIN else gap < 0.005:
            text += f" {suggestions[1].label} is as good."
        else:
            text += f" The next best, {suggestions[1].label}, is {amount} {unit} worse."
    return text
