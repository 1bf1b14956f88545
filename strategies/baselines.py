"""The two baselines: the arena template's random player and a naive greedy player."""

from __future__ import annotations

import random

from rummy import CountState, MoveKind


class RandomStrategy:
    """Uniformly random among the legal moves (deduplicated by type), like the arena's template bot."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        return self.rng.choice(state.legal_moves())


class GreedyStrategy:
    """Lay the highest-scoring set; otherwise take a card of the type it holds most, else give its rarest type."""

    name = "greedy"

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        rules = state.rules
        legal = state.legal_moves()
        lays = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.LAY]
        if lays:
            return max(lays, key=lambda move_id: (rules.moves[move_id].points, -move_id))
        mine = state.counts(state.mover)
        takes = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.TAKE]
        if takes:
            return max(takes, key=lambda move_id: (mine[rules.moves[move_id].type], -move_id))
        gives = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.GIVE]
        if gives:
            return min(gives, key=lambda move_id: (mine[rules.moves[move_id].type], move_id))
        return legal[0]
