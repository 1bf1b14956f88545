"""The game review: each of the player's moves beside the coach's best, the value it lost, the total,
and the three costliest moments (each with its step number, for the viewer's /viewer#game/ID/step/N)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strategies.agent import describe_count_move
from strategies.coaching.coach import Advice, value_kind
from strategies.position import Position

WORST = 3


@dataclass(frozen=True)
class Decision:
    """One move the player made: where, what the coach thought, what was played."""

    step: int  # the match's applied-move number of this move (the viewer's step)
    round_index: int
    turn: int  # the round's turn number, 1-based
    position: Position
    advice: Advice
    played: dict[str, Any]  # the arena move sent
    source: Mapping[str, Any] | None = None  # the position as analysis JSON (GameState, CardLabels, DeckCounts)


@dataclass(frozen=True)
class ReviewEntry:
    step: int
    round_index: int
    turn: int
    played_label: str
    played_value: float | None
    best_label: str
    best_value: float | None
    lost: float  # best value - played value, never below 0; 0 when values are unknown
    exact: bool
    played: Mapping[str, Any] | None = None
    best: Mapping[str, Any] | None = None
    source: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "Step": self.step,
            "Round": self.round_index,
            "Turn": self.turn,
            "Played": self.played_label,
            "PlayedValue": None if self.played_value is None else round(self.played_value, 4),
            "Best": self.best_label,
            "BestValue": None if self.best_value is None else round(self.best_value, 4),
            "Lost": round(self.lost, 4),
            "Exact": self.exact,
            "Move": self.played,
            "BestMove": self.best,
            "Position": self.source,
        }


@dataclass(frozen=True)
class Review:
    entries: tuple[ReviewEntry, ...]
    objective: str
    strategy: str

    @property
    def total_lost(self) -> float:
        return sum(entry.lost for entry in self.entries)

    @property
    def worst(self) -> tuple[ReviewEntry, ...]:
        """Up to three moves that lost value, costliest first (earlier first among equals)."""
        losing = [entry for entry in self.entries if entry.lost > 1e-9]
        return tuple(sorted(losing, key=lambda entry: (-entry.lost, entry.step))[:WORST])

    @property
    def exact(self) -> bool:
        """Whether every value of the review is exact (a total of estimates is an estimate)."""
        return all(entry.exact for entry in self.entries)

    @property
    def best_moves(self) -> int:
        return sum(1 for entry in self.entries if entry.lost <= 1e-9)

    def to_json(self) -> dict[str, Any]:
        return {
            "Strategy": self.strategy,
            "Objective": self.objective,
            "Moves": [entry.to_json() for entry in self.entries],
            "TotalLost": round(self.total_lost, 4),
            "Exact": self.exact,
            **value_kind(self.exact),
            "BestMoves": self.best_moves,
            "Worst": [entry.to_json() for entry in self.worst],
        }


def review_entry(decision: Decision) -> ReviewEntry:
    position, advice = decision.position, decision.advice
    played_id = position.move_id(decision.played)
    played_value = advice.values.get(played_id)
    best = advice.best
    lost = 0.0
    if best.value is not None and played_value is not None:
        lost = max(0.0, best.value - played_value)
    return ReviewEntry(
        step=decision.step,
        round_index=decision.round_index,
        turn=decision.turn,
        played_label=describe_count_move(position.state.rules.moves[played_id], position.types),
        played_value=played_value,
        best_label=best.label,
        best_value=best.value,
        lost=lost,
        exact=advice.exact,
        played=decision.played,
        best=best.move,
        source=decision.source,
    )


def review(decisions: Sequence[Decision], *, strategy: str = "", objective: str = "") -> Review:
    entries = tuple(review_entry(decision) for decision in sorted(decisions, key=lambda d: d.step))
    if decisions and not strategy:
        strategy = decisions[0].advice.config.strategy
        objective = decisions[0].advice.config.objective.value
    return Review(entries, objective, strategy)
