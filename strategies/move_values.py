"""Each candidate card move's count move and value in every valued assignment, as arrays (strategies.belief_play).

A decision on a sampled belief looks at some hundred card moves in each of hundreds of assignments; one Python
call per pair took most of a decision's time, and kept the belief to few draws. Here an assignment is a row of
card types, a card move's count move in every assignment is one array look-up, and its value another.

Weighted sums are taken in order (np.cumsum), as the loop this replaced took them with Python 3.11's `sum`, so
the values are the loop's to the last bit and the same seeds play the same moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from rummy import CountRules, Give, Lay, Move, Take


class MoveValues:
    """The valued assignments' card types and every count move's value in each (a move a state did not value
    counts as that state's worst)."""

    def __init__(self, rules: CountRules, types: Sequence[Mapping[int, int]], values: Sequence[Mapping[int, float]]):
        self.rules = rules
        self.column = {card: index for index, card in enumerate(types[0])}
        self.types = np.array([[assignment[card] for card in self.column] for assignment in types], dtype=np.intp)
        floors = [min(state.values()) for state in values]
        self.values = np.repeat(np.array(floors, dtype=float)[:, None], len(rules.moves), axis=1)
        for row, state in enumerate(values):
            moves = np.fromiter(state.keys(), dtype=np.intp, count=len(state))
            self.values[row, moves] = np.fromiter(state.values(), dtype=float, count=len(state))
        self._rows = np.arange(len(types))
        self._take = np.array(rules.take_ids, dtype=np.intp)
        self._give = np.array(rules.give_ids, dtype=np.intp)
        self._unit = np.array(rules.unit, dtype=np.int64)
        # Packed type counts -> Lay id, for every sum of at most max_lay cards' units (no set: the wasted turn).
        self._lay = np.full(rules.config.max_lay * max(rules.unit) + 1, rules.waste_id, dtype=np.intp)
        for code, move_id in rules.lay_by_code.items():
            self._lay[code] = move_id

    def count_moves(self, move: Move) -> np.ndarray:
        """The count move `move` is in each valued assignment."""
        found: np.ndarray
        if isinstance(move, Take):
            found = self._take[self.types[:, self.column[move.id]]]
        elif isinstance(move, Give):
            found = self._give[self.types[:, self.column[move.id]]]
        else:
            columns = [self.column[card] for card in move.ids]
            found = self._lay[self._unit[self.types[:, columns]].sum(axis=1)]
        return found

    def of(self, count_moves: np.ndarray) -> np.ndarray:
        """The value of these count moves, one per valued assignment."""
        found: np.ndarray = self.values[self._rows, count_moves]
        return found

    def accepted(self, move: Move, count_moves: np.ndarray) -> np.ndarray:
        """Where the referee would accept the move: everywhere but where a Lay is no set."""
        found: np.ndarray = count_moves != self.rules.waste_id
        return found if isinstance(move, Lay) else np.ones(len(count_moves), dtype=bool)


def in_order(weights: np.ndarray, values: np.ndarray) -> float:
    """sum(w * x) over the assignments, added in order as Python's `sum` adds them (0 for none)."""
    return float(np.cumsum(weights * values)[-1]) if len(values) else 0.0
