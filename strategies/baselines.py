"""The two baselines: the arena template's random player and a naive greedy player."""

from __future__ import annotations

import random
from collections.abc import Callable

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
        return min(self.preferred(state))

    def preferred(self, state: CountState) -> list[int]:
        """Every move greedy holds equally good here; `choose` breaks the tie by move id. The opponent model
        reads a greedy opponent's move against all of them: the tie-break depends on how types are numbered,
        which differs between its view and ours."""
        rules = state.rules
        legal = state.legal_moves()
        lays = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.LAY]
        if lays:
            return _best(lays, lambda move_id: rules.moves[move_id].points)
        mine = state.counts(state.mover)
        takes = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.TAKE]
        if takes:
            return _best(takes, lambda move_id: mine[rules.moves[move_id].type])
        gives = [move_id for move_id in legal if rules.moves[move_id].kind == MoveKind.GIVE]
        if gives:
            return _best(gives, lambda move_id: -mine[rules.moves[move_id].type])
        return list(legal[:1])


def _best(moves: list[int], key: Callable[[int], int]) -> list[int]:
    top = max(key(move_id) for move_id in moves)
    return [move_id for move_id in moves if key(move_id) == top]
