"""Which banked differences D a count state can carry at all: the laid-cards bound of the win table.

The cards in neither hand nor the deck are exactly the cards laid in valid sets so far (every type
has `cards_per_type` cards in the round; giving and taking move cards between hands; a wasted lay
keeps its cards). Both players' banked points come only from those sets, so D (mover minus
opponent) is a signed sum over a partition of the laid multiset into valid sets: + for the sets the
mover laid, - for the opponent's. Each turn lays at most one set, and in layer d (t = deck_size - d
turns taken) the mover has had t // 2 turns and the opponent the other ceil(t / 2).

Two bounds, each a table over laid multisets (a base-(cards_per_type + 1) code, type 0 lowest):
- "laid total": |D| <= B, the largest total of a partition of the laid cards into valid sets
  (nothing allowed when no partition exists: such a state cannot be reached);
- "laid sets": D is one of the signed sums above, with each player laying at most as many sets as
  it has had turns. This implies the first and is what the win table can restrict itself to.
Both are necessary conditions for a (state, D) pair to be reachable from a deal, not sufficient.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from rummy import RulesConfig, game_info

Allowed = NDArray[np.bool_]
BOUNDS = ("laid total", "laid sets")
# What the win table's bounded layout keeps, in words; part of the table's fingerprint, so a table
# built under another definition is refused rather than read with the wrong offsets.
KEPT_BOUND = (
    "laid sets v1: D is a signed sum of a partition of the laid cards into valid sets, + for the mover's, "
    "- for the opponent's, the mover having laid at most t // 2 of them and the opponent ceil(t / 2) "
    "after t turns; D in points divided by the rules' point unit"
)


class LaidBound:
    """The signed sums each laid multiset allows, by how many sets each player laid.

    `reach[v][a, b, j]` is True when the sorted laid multiset v splits into a sets for the mover and
    b for the opponent whose points differ by (j - offset) * unit."""

    def __init__(self, config: RulesConfig) -> None:
        self.config = config
        self.n_types = config.types_per_round
        self.side = config.cards_per_type + 1
        kinds = [
            counts
            for size in range(config.min_lay, config.max_lay + 1)
            for counts in itertools.product(range(config.cards_per_type + 1), repeat=self.n_types)
            if sum(counts) == size and config.set_points(counts) > 0
        ]
        self.kinds = [(counts, config.set_points(counts)) for counts in kinds]
        # The rules' unit (the gcd of every listed set's points) divides the points of every set that fits.
        self.unit = game_info(config).point_unit
        most_sets = config.total_cards // min((sum(counts) for counts, _points in self.kinds), default=1)
        self.offset = most_sets * max((points for _counts, points in self.kinds), default=0) // self.unit
        self.width = 2 * self.offset + 1
        self.mover_sets = config.deck_size // 2
        self.opponent_sets = config.deck_size - self.mover_sets
        self.reach = self._reach()
        self._allowed: dict[int, Allowed] = {}

    def _reach(self) -> dict[tuple[int, ...], Allowed]:
        shape = (self.mover_sets + 1, self.opponent_sets + 1, self.width)
        empty = tuple([0] * self.n_types)
        reach: dict[tuple[int, ...], Allowed] = {}
        multisets = sorted(
            itertools.combinations_with_replacement(range(self.side), self.n_types), key=lambda v: (sum(v), v)
        )
        for v in multisets:
            here = np.zeros(shape, dtype=bool)
            if v == empty:
                here[0, 0, self.offset] = True
            for counts, points in self.kinds:
                rest = tuple(sorted(have - need for have, need in zip(v, counts, strict=True)))
                if min(rest) < 0 or rest not in reach:
                    continue
                before = reach[rest]
                p = points // self.unit
                here[1:, :, p:] |= before[:-1, :, : self.width - p]  # the mover laid it
                here[:, 1:, : self.width - p] |= before[:, :-1, p:]  # the opponent laid it
            reach[v] = here  # keyed by the sorted multiset: sets treat every type alike
        return reach

    def laid_code(self, laid: tuple[int, ...]) -> int:
        return sum(count * self.side**t for t, count in enumerate(laid))

    def allowed(self, d: int) -> Allowed:
        """allowed[bound, laid_code, j]: D = (j - offset) * unit may occur in a layer-d state with that
        laid multiset, under each of BOUNDS."""
        if d not in self._allowed:
            self._allowed = {d: self._allowed_in(d)}  # one layer at a time: a layer's table is a few MB
        return self._allowed[d]

    def _allowed_in(self, d: int) -> Allowed:
        turns = self.config.deck_size - d
        mover, opponent = turns // 2, turns - turns // 2
        out = np.zeros((len(BOUNDS), self.side**self.n_types, self.width), dtype=bool)
        by_sorted: dict[tuple[int, ...], tuple[Allowed, Allowed]] = {}
        for v, here in self.reach.items():
            total = here.any(axis=(0, 1))
            within = np.zeros(self.width, dtype=bool)
            if total.any():
                most = int(np.abs(np.flatnonzero(total) - self.offset).max())
                within[self.offset - most : self.offset + most + 1] = True
            in_turns: Allowed = np.any(here[: mover + 1, : opponent + 1], axis=(0, 1))
            by_sorted[v] = (within, in_turns)
        for laid in itertools.product(range(self.side), repeat=self.n_types):
            code = self.laid_code(laid)
            out[0, code], out[1, code] = by_sorted[tuple(sorted(laid))]
        return out

    def allows(self, d: int, laid: tuple[int, ...], diff: int, bound: str = "laid sets") -> bool:
        """Whether D = diff passes the bound in a layer-d state with this laid multiset (slow; for tests)."""
        if diff % self.unit:
            return False
        j = diff // self.unit + self.offset
        return 0 <= j < self.width and bool(self.allowed(d)[BOUNDS.index(bound), self.laid_code(laid), j])

    def prefix(self, d: int) -> NDArray[np.int16]:
        """prefix[laid_code, j]: how many D = (i - offset) * unit with i < j the "laid sets" bound allows in
        layer d (the win table's bounded layout: a D's rank within its state is a difference of two)."""
        allowed = self.allowed(d)[BOUNDS.index("laid sets")]
        out = np.zeros((allowed.shape[0], allowed.shape[1] + 1), dtype=np.int16)
        np.cumsum(allowed, axis=1, out=out[:, 1:])
        return out
