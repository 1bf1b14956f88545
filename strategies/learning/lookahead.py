"""One turn of lookahead over a value model: every legal move's expected value, averaged over the draw.

Q(a) = points laid by a + sum over draw types k of P(k) * (-V(the opponent's next state)), with the
hand penalty applied exactly where the round ends (a hand emptied, or the last turn's draw). Values
are from the mover's view and exclude points already banked, so Q(a) is comparable with the exact
margin values of moves minus the banked difference.
"""

from __future__ import annotations

import numpy as np

from rummy import CountRules, CountState, MoveKind
from strategies.learning.features import Featurizer, FloatArray, IntArray
from strategies.learning.model import ValueModel


class MoveTables:
    """Per move id: the change to the mover's and the opponent's hand, and the points laid."""

    def __init__(self, rules: CountRules) -> None:
        n, t = len(rules.moves), rules.n_types
        self.mine = np.zeros((n, t), dtype=np.int64)
        self.theirs = np.zeros((n, t), dtype=np.int64)
        self.points = np.zeros(n)
        for move in rules.moves:
            if move.kind == MoveKind.LAY:
                self.mine[move.id] = -np.array(move.counts)
                self.points[move.id] = move.points
            elif move.kind == MoveKind.TAKE:
                self.mine[move.id, move.type] = 1
                self.theirs[move.id, move.type] = -1
            elif move.kind == MoveKind.GIVE:
                self.mine[move.id, move.type] = -1
                self.theirs[move.id, move.type] = 1
        self.penalty = float(rules.config.hand_penalty)
        self.eye = np.eye(t, dtype=np.int64)


class Lookahead:
    def __init__(self, rules: CountRules, model: ValueModel, featurizer: Featurizer | None = None) -> None:
        self.rules = rules
        self.model = model
        self.featurizer = featurizer or Featurizer(rules)
        self.tables = MoveTables(rules)

    def move_values(self, state: CountState) -> tuple[tuple[int, ...], FloatArray]:
        """The legal moves of `state` and their expected values in points (mover's view, banked points excluded)."""
        legal = state.legal_moves()
        mine, theirs, deck, turns = Featurizer.view(state)
        return legal, self.values_for(np.array(legal), mine, theirs, deck, turns)

    def values_for(self, legal: IntArray, mine: IntArray, theirs: IntArray, deck: IntArray, turns: int) -> FloatArray:
        tables = self.tables
        penalty = tables.penalty
        mine1 = mine[None, :] + tables.mine[legal]  # (L, T)
        theirs1 = theirs[None, :] + tables.theirs[legal]
        values = tables.points[legal].copy()
        mine_sizes = mine1.sum(axis=1)
        their_sizes = theirs1.sum(axis=1)
        ended = (mine_sizes == 0) | (their_sizes == 0)
        values[ended] += penalty * (their_sizes[ended] - mine_sizes[ended])
        going = np.flatnonzero(~ended)
        if going.size == 0:
            return values
        total = deck.sum()
        drawable = np.flatnonzero(deck)
        probabilities = deck[drawable] / total  # (K,)
        n_go, n_draw = going.size, drawable.size
        mine2 = mine1[going][:, None, :] + tables.eye[drawable][None, :, :]  # (G, K, T)
        if turns <= 1:
            # The last turn's draw ends the round: only the penalties are left to count.
            after = penalty * (their_sizes[going][:, None] - mine2.sum(axis=2))
        else:
            deck2 = np.broadcast_to(deck[None, None, :] - tables.eye[drawable][None, :, :], mine2.shape)
            their2 = np.broadcast_to(theirs1[going][:, None, :], mine2.shape)
            rows = n_go * n_draw
            t = self.rules.n_types
            features = self.featurizer.batch(
                their2.reshape(rows, t),  # the opponent moves next: its hand is "mine" there
                mine2.reshape(rows, t),
                deck2.reshape(rows, t),
                np.full(rows, turns - 1, dtype=np.int64),
            )
            after = -self.model.predict(features).reshape(n_go, n_draw)
        values[going] += after @ probabilities
        return values
