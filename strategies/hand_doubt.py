"""The doubt a move takes out of our hand, counting what its outcome would teach (`perfect:doubt=D,learn=true`).

A card's doubt is 1 - the chance of its likeliest landmark. Without learning, a move's doubt shed in one
assignment is what leaves or enters the hand: an accepted Lay's cards and a given card leave, a taken card comes
in, a refused Lay changes nothing (`strategies.belief_play._shed`). With learning, a Lay's outcome is also
evidence: the referee's answer (refused; accepted with one landmark's points; accepted with all-different points)
splits the assignments into the ones that would show it, and the hand left after the move is then doubted as
that part of the belief alone doubts it. So a Lay refused in an assignment sheds, there, the doubt the refusal
would clear from the cards that stay; and an accepted one also what its points tell of the other cards.

Expected over the assignments this is the hand's doubt now minus its expected doubt after the answer, and
because a chance's maximum is convex, what an answer teaches never adds doubt on average. Take and Give teach
nothing at once (the opponent's later moves do, which this leaves out). Marginals come from the valued
assignments and their weights, so with a certain belief every doubt is 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from rummy import Give, Lay, Move, Take
from rummy.belief import SURE


class HandDoubt:
    """Per-assignment doubt shed by card moves, on one set of valued assignments."""

    def __init__(
        self, types: Sequence[Mapping[int, int]], weights: Sequence[float], my_ids: Sequence[int], n_types: int
    ) -> None:
        cards = list(types[0])
        self._column = {card: i for i, card in enumerate(cards)}
        self._types = np.array([[assignment[card] for card in cards] for assignment in types], dtype=np.int64)
        self._weights = np.asarray(weights, dtype=np.float64)
        # onehot[s, c, t]: in assignment s, card c is of landmark t
        self._onehot = (self._types[:, :, None] == np.arange(n_types)[None, None, :]).astype(np.float64)
        self._mine = [self._column[card] for card in my_ids]
        self._now = self._doubts(np.ones(len(types), dtype=bool))
        self._hand_now = float(self._now[self._mine].sum())

    def _doubts(self, where: np.ndarray) -> np.ndarray:
        """Each card's doubt in the part of the belief where `where` holds."""
        weights = self._weights * where
        total = weights.sum()
        if total <= 0:
            return np.zeros(self._types.shape[1])
        chances = np.tensordot(weights, self._onehot, axes=(0, 0)) / total
        doubts: np.ndarray = 1.0 - chances.max(axis=1)
        doubts[doubts <= SURE] = 0.0
        return doubts

    def shed(self, move: Move, is_set: Sequence[bool]) -> list[float]:
        """The doubt `move` takes out of our hand in each assignment; `is_set[s]`: a Lay's cards form a set in s."""
        if isinstance(move, Take):
            return [-float(self._now[self._column[move.id]])] * len(is_set)
        if isinstance(move, Give):
            return [float(self._now[self._column[move.id]])] * len(is_set)
        assert isinstance(move, Lay)
        laid = [self._column[card] for card in move.ids]
        sets = np.asarray(is_set, dtype=bool)
        # What the referee's answer shows: refused (0), one landmark (1) or all different (2).
        alike = (self._types[:, laid] == self._types[:, laid[:1]]).all(axis=1)
        answer = np.where(~sets, 0, np.where(alike, 1, 2))
        left = [column for column in self._mine if column not in laid]
        after = {}
        for shown in np.unique(answer):
            where = answer == shown
            stays = self._mine if shown == 0 else left
            after[int(shown)] = float(self._doubts(where)[stays].sum())
        return [self._hand_now - after[int(shown)] for shown in answer]
