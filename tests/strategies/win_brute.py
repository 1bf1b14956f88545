"""An exact win solver written from the rules alone, for miniature rule sets: plain expectimax over
landmark counts, sharing no code with the kernel (no canonical index, no move ids, no swing bounds).

A position is both hands and the deck as per-landmark counts, the banked difference (mover minus
opponent) and whether the mover wins ties. The mover may lay any 3-5 (min_lay..max_lay) of its
cards: a set scores, anything else is a wasted turn; take a card of a landmark the opponent holds;
or give one of its own. An emptied hand ends the round at once; otherwise the mover draws (each
landmark with the deck's share) and the other player moves, until the deck is empty.
Probabilities are exact fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from rummy import RulesConfig

Counts = tuple[int, ...]


class WinBrute:
    def __init__(self, rules: RulesConfig) -> None:
        self.same = dict(rules.same_kind_points)
        self.different = dict(rules.different_points)
        self.penalty = rules.hand_penalty
        self.sizes = range(rules.min_lay, rules.max_lay + 1)
        self.p_win = cache(self._p_win)

    def points(self, laid: Counts) -> int:
        used = [n for n in laid if n]
        total = sum(laid)
        if len(used) == 1:
            return self.same.get(total, 0)
        if all(n == 1 for n in used):
            return self.different.get(total, 0)
        return 0

    def results(self, mine: Counts, theirs: Counts) -> set[tuple[Counts, Counts, int]]:
        """Every distinct (my hand, their hand, points) one move can leave."""
        found: set[tuple[Counts, Counts, int]] = set()
        for laid in itertools.product(*(range(n + 1) for n in mine)):
            if sum(laid) in self.sizes:
                points = self.points(laid)
                # An invalid set is a wasted turn: its cards stay in the hand.
                left = tuple(a - b for a, b in zip(mine, laid)) if points else mine
                found.add((left, theirs, points))
        for t, n in enumerate(theirs):
            if n:
                found.add((_plus(mine, t, 1), _plus(theirs, t, -1), 0))
        for t, n in enumerate(mine):
            if n:
                found.add((_plus(mine, t, -1), _plus(theirs, t, 1), 0))
        return found

    def final(self, margin: int, tie: bool) -> Fraction:
        return Fraction(1 if margin > 0 or (margin == 0 and tie) else 0)

    def move_values(
        self, mine: Counts, theirs: Counts, deck: Counts, diff: int, tie: bool
    ) -> dict[tuple[Counts, Counts, int], Fraction]:
        return {result: self.after(*result, deck, diff, tie) for result in self.results(mine, theirs)}

    def after(self, mine: Counts, theirs: Counts, points: int, deck: Counts, diff: int, tie: bool) -> Fraction:
        diff += points
        if not any(mine) or not any(theirs):
            return self.final(diff + self.penalty * (sum(theirs) - sum(mine)), tie)
        total = sum(deck)
        value = Fraction(0)
        for t, n in enumerate(deck):
            if n:
                drawn = _plus(mine, t, 1)
                if total == 1:
                    outcome = self.final(diff + self.penalty * (sum(theirs) - sum(drawn)), tie)
                else:
                    outcome = 1 - self.p_win(theirs, drawn, _plus(deck, t, -1), -diff, not tie)
                value += Fraction(n, total) * outcome
        return value

    def _p_win(self, mine: Counts, theirs: Counts, deck: Counts, diff: int, tie: bool) -> Fraction:
        return max(self.move_values(mine, theirs, deck, diff, tie).values())


def _plus(counts: Counts, t: int, by: int) -> Counts:
    return counts[:t] + (counts[t] + by,) + counts[t + 1 :]
