"""Count-level features of a decision state, from the mover's view, for whole batches at once.

A state is described by its per-type counts (mover's hand, opponent's hand, deck) and the turns
left. Types are interchangeable, so the columns are sorted into a canonical order before encoding;
each count is encoded as a thermometer (count >= 1, >= 2, ...), which lets a small model generalise
between neighbouring counts. The lay-plan values of both hands (the points each could bank from its
own cards with one set per remaining turn, minus the penalty for the rest; see
`strategies.search.evaluation.Evaluator.plan`) are features too. Banked points are not: under the
margin objective the value of the rest of the round does not depend on them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rummy import CountRules, CountState
from rummy.countstate import BITS
from strategies.search.evaluation import Evaluator, Objective, evaluator_for

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# Points are divided by this so that features and values stay near unit scale.
POINT_SCALE = 50.0


class Featurizer:
    """Turns batches of (mine, theirs, deck, turns_left) into feature rows for one rule set."""

    def __init__(self, rules: CountRules) -> None:
        config = rules.config
        self.rules = rules
        self.n_types = rules.n_types
        self.cards = config.cards_per_type
        self.max_turns = config.max_turns
        self.hand_size = max(1, config.hand_size)
        self.evaluator: Evaluator = evaluator_for(rules, Objective.MARGIN)
        self.shifts = np.array([1 << (BITS * t) for t in range(self.n_types)], dtype=np.int64)
        self.levels = np.arange(1, self.cards + 1, dtype=np.int64)
        self.size = 3 * self.n_types * self.cards + (self.max_turns + 1) + 10

    # --- arrays from states -------------------------------------------------------------------

    @staticmethod
    def view(state: CountState) -> tuple[IntArray, IntArray, IntArray, int]:
        """(mine, theirs, deck, turns_left) of `state` for its mover."""
        mover = state.mover
        return (
            np.array(state.counts(mover), dtype=np.int64),
            np.array(state.counts(1 - mover), dtype=np.int64),
            np.array(state.deck_counts(), dtype=np.int64),
            state.turns_left,
        )

    def of_state(self, state: CountState) -> FloatArray:
        mine, theirs, deck, turns = self.view(state)
        rows = self.batch(mine[None, :], theirs[None, :], deck[None, :], np.array([turns], dtype=np.int64))
        row: FloatArray = rows[0]
        return row

    # --- the encoding -------------------------------------------------------------------------

    def batch(self, mine: IntArray, theirs: IntArray, deck: IntArray, turns: IntArray) -> FloatArray:
        """Feature rows for N states: `mine`, `theirs`, `deck` are (N, types), `turns` is (N,), turns >= 1."""
        n = mine.shape[0]
        base = self.cards + 1
        order = np.argsort(-((mine * base + theirs) * base + deck), axis=1, kind="stable")
        columns = [np.take_along_axis(part, order, axis=1) for part in (mine, theirs, deck)]
        thermometers = [(column[:, :, None] >= self.levels[None, None, :]).reshape(n, -1) for column in columns]
        turn_hot = np.zeros((n, self.max_turns + 1))
        turn_hot[np.arange(n), np.clip(turns, 0, self.max_turns)] = 1.0
        mine_sizes = mine.sum(axis=1)
        their_sizes = theirs.sum(axis=1)
        plan_mine, plan_theirs, lay_mine, lay_theirs = self._plans(mine, theirs, turns)
        extra = np.stack(
            [
                np.ones(n),
                turns / self.max_turns,
                mine_sizes / self.hand_size,
                their_sizes / self.hand_size,
                (mine > 0).sum(axis=1) / self.n_types,
                (theirs > 0).sum(axis=1) / self.n_types,
                plan_mine / POINT_SCALE,
                plan_theirs / POINT_SCALE,
                lay_mine / POINT_SCALE,
                lay_theirs / POINT_SCALE,
            ],
            axis=1,
        )
        return np.concatenate([*thermometers, turn_hot, extra], axis=1).astype(np.float64)

    def _plans(self, mine: IntArray, theirs: IntArray, turns: IntArray) -> tuple[FloatArray, ...]:
        plan = self.evaluator.plan
        mine_codes = (mine @ self.shifts).tolist()
        their_codes = (theirs @ self.shifts).tolist()
        turn_list = turns.tolist()
        n = len(turn_list)
        out = np.empty((4, n))
        for row in range(n):
            left = turn_list[row]
            out[0, row] = plan(mine_codes[row], (left + 1) // 2)
            out[1, row] = plan(their_codes[row], left // 2)
            out[2, row] = plan(mine_codes[row], 1)
            out[3, row] = plan(their_codes[row], 1 if left > 1 else 0)
        return out[0], out[1], out[2], out[3]
