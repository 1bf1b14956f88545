"""A second margin solver and a second reader of the table's index, sharing no code with the kernel
(strategies.kernel) or with rummy.countstate: written from the rules and the file format's description.

It takes only the plain rule parameters of a RulesConfig (types, cards per type, set points, hand
penalty, lay sizes). A state is, for the player to move, the cards of each type in its hand, in the
opponent's hand and in the deck; the deck's size is the number of turns left. Values are the
expected final margin for the mover, counting only points still to come (as the table stores them).

The index. Each type's triple (mine, theirs, deck) has an id: its rank among all triples with
mine + theirs + deck <= cards per type, in lexicographic order. A state is its ids in decreasing
order (types are interchangeable), and its index within its layer is that sequence's rank among all
such sequences with the same deck total and both hands non-empty.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from rummy.config import RulesConfig

Counts = tuple[int, ...]
Effect = tuple[Counts, Counts, int]


def _plus(counts: Counts, t: int, amount: int = 1) -> Counts:
    return counts[:t] + (counts[t] + amount,) + counts[t + 1 :]


@dataclass
class IndependentSolver:
    config: RulesConfig
    _values: dict[tuple[tuple[int, int, int], ...], float] = field(default_factory=dict, repr=False)
    _lays: dict[Counts, list[tuple[Counts, int]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        config = self.config
        self.types = config.types_per_round
        self.cards = config.cards_per_type
        self.penalty = config.hand_penalty
        self.same_kind = dict(config.same_kind_points)
        self.different = dict(config.different_points)
        self.lay_sizes = range(config.min_lay, config.max_lay + 1)
        c = self.cards
        self.triples = [(m, o, k) for m in range(c + 1) for o in range(c + 1) for k in range(c + 1) if m + o + k <= c]
        self.triple_id = {triple: i for i, triple in enumerate(self.triples)}
        self.max_deck = min(config.total_cards - 2 * config.hand_size, self.types * c)
        self._count = self._sequence_counts()

    # --- the rules ----------------------------------------------------------------------------------

    def points(self, lay: Counts) -> int:
        """Points of laying these cards (counts by type); 0 when they form no set."""
        used = [n for n in lay if n]
        size = sum(used)
        if len(used) == 1:
            return self.same_kind.get(size, 0)
        if all(n == 1 for n in used):
            return self.different.get(size, 0)
        return 0

    def lays(self, hand: Counts) -> list[tuple[Counts, int]]:
        """(hand after, points) of every Lay the hand allows; a Lay forming no set leaves the hand as it is."""
        known = self._lays.get(hand)
        if known is None:
            found = set()
            for taken in itertools.product(*(range(n + 1) for n in hand)):
                if sum(taken) in self.lay_sizes:
                    points = self.points(taken)
                    after = tuple(n - x for n, x in zip(hand, taken)) if points else hand
                    found.add((after, points))
            known = self._lays[hand] = sorted(found)
        return known

    def effects(self, mine: Counts, theirs: Counts) -> set[Effect]:
        """Every distinct result of a move: (mover's hand, opponent's hand, points scored)."""
        found = {(after, theirs, points) for after, points in self.lays(mine)}
        for t in range(self.types):
            if theirs[t]:
                found.add((_plus(mine, t), _plus(theirs, t, -1), 0))
            if mine[t]:
                found.add((_plus(mine, t, -1), _plus(theirs, t), 0))
        return found

    def after(self, mine: Counts, theirs: Counts, deck: Counts, points: int, below: BelowValues | None) -> float:
        """The mover's value of a move's result: the round ends on an empty hand, else the mover draws.
        Values of the next turn come from `below` when given, else from this solver."""
        if not sum(mine) or not sum(theirs):
            return float(points + self.penalty * (sum(theirs) - sum(mine)))
        d = sum(deck)
        total = 0.0
        for t in range(self.types):
            if deck[t]:
                drawn = _plus(mine, t)
                if d == 1:  # that was the last turn
                    value = float(self.penalty * (sum(theirs) - sum(drawn)))
                else:
                    rest = _plus(deck, t, -1)
                    value = -(below(theirs, drawn, rest) if below else self.value(theirs, drawn, rest))
                total += deck[t] * value
        return points + total / d

    def value(self, mine: Counts, theirs: Counts, deck: Counts) -> float:
        """The exact expected margin still to come for the mover, by plain expectimax to the round's end."""
        key = tuple(sorted(zip(mine, theirs, deck)))
        known = self._values.get(key)
        if known is None:
            known = self.step_value(mine, theirs, deck, None)
            self._values[key] = known
        return known

    def step_value(self, mine: Counts, theirs: Counts, deck: Counts, below: BelowValues | None) -> float:
        return max(self.after(m, o, deck, points, below) for m, o, points in self.effects(mine, theirs))

    # --- the table's index --------------------------------------------------------------------------

    def _sequence_counts(self) -> list[list[list[list[int]]]]:
        """count[r][j][s][flags]: non-increasing sequences of r ids below j with deck total s, that hold a
        card of the mover (when flags & 2 asks) and of the opponent (flags & 1)."""
        n_ids = len(self.triples)
        count = [
            [[[0] * 4 for _s in range(self.max_deck + 1)] for _j in range(n_ids + 1)] for _r in range(self.types + 1)
        ]
        for j in range(n_ids + 1):
            count[0][j][0][0] = 1
        for r in range(1, self.types + 1):
            for j in range(1, n_ids + 1):
                m, o, k = self.triples[j - 1]
                for s in range(self.max_deck + 1):
                    for flags in range(4):
                        # Either every id is below j-1, or the first is j-1 and the rest are at most j-1.
                        total = count[r][j - 1][s][flags]
                        if s >= k:
                            rest_flags = (flags & 2 if m == 0 else 0) | (flags & 1 if o == 0 else 0)
                            total += count[r - 1][j][s - k][rest_flags]
                        count[r][j][s][flags] = total
        return count

    def layer_size(self, d: int) -> int:
        return self._count[self.types][len(self.triples)][d][3]

    def index(self, mine: Counts, theirs: Counts, deck: Counts) -> int:
        ids = sorted((self.triple_id[triple] for triple in zip(mine, theirs, deck)), reverse=True)
        s, flags, rank = sum(deck), 3, 0
        for position, a in enumerate(ids):
            rank += self._count[self.types - position][a][s][flags]
            m, o, k = self.triples[a]
            s -= k
            flags = (flags & 2 if m == 0 else 0) | (flags & 1 if o == 0 else 0)
        return rank

    def state(self, d: int, index: int) -> tuple[Counts, Counts, Counts]:
        """The state with this index in layer d (its types in the index's order)."""
        s, flags, rest, bound = d, 3, index, len(self.triples)
        chosen = []
        for position in range(self.types):
            r = self.types - position
            row = self._count[r]
            a = bound - 1
            while row[a][s][flags] > rest:
                a -= 1
            rest -= row[a][s][flags]
            chosen.append(self.triples[a])
            m, o, k = self.triples[a]
            s -= k
            flags = (flags & 2 if m == 0 else 0) | (flags & 1 if o == 0 else 0)
            bound = a + 1
        mine, theirs, deck = (tuple(triple[i] for triple in chosen) for i in range(3))
        return mine, theirs, deck


class BelowValues:
    """Values of the next layer read from a table's layer through the independent index."""

    def __init__(self, solver: IndependentSolver, layer: object) -> None:
        self.solver = solver
        self.layer = layer

    def __call__(self, mine: Counts, theirs: Counts, deck: Counts) -> float:
        return float(self.layer[self.solver.index(mine, theirs, deck)])  # type: ignore[index]
