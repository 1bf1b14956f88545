"""Compiled count-level rules: hand sizes, the canonical index, legal moves and their results.

Every function takes `k`, the kernel's tables packed in one int64 array (strategies.kernel.tables).
States are packed like `rummy.countstate` (4 bits a type): `mine` is the mover's hand, `theirs`
the opponent's, `deck` the deck; `d` is the deck's size, which is also the number of turns left.
Values are from the mover's view; under the margin objective they leave out points already banked.
"""

from __future__ import annotations

from strategies.kernel.jit import jit_inline
from strategies.kernel.tables import (
    AT_COUNTS,
    AT_DECK,
    AT_IDS,
    AT_LAY_CODES,
    AT_LAY_POINTS,
    AT_MINE,
    AT_OWN_MASKS,
    AT_THEIRS,
    CARDS,
    N_LAYS,
    N_TRIPLES,
    N_TYPES,
    PENALTY,
    STRIDE_J,
    STRIDE_R,
    STRIDE_S,
    Ints,
)

NIBBLE = 15


@jit_inline
def size(code: int) -> int:
    total = 0
    while code:
        total += code & NIBBLE
        code >>= 4
    return total


@jit_inline
def _triple(k: Ints, mine: int, theirs: int, deck: int, t: int) -> int:
    side = k[CARDS] + 1
    shift = 4 * t
    return int(
        k[
            k[AT_IDS]
            + (((mine >> shift) & NIBBLE) * side + ((theirs >> shift) & NIBBLE)) * side
            + ((deck >> shift) & NIBBLE)
        ]
    )


@jit_inline
def _count(k: Ints, r: int, j: int, s: int, need_m: int, need_o: int) -> int:
    # STRIDE_J is the stride of the flags; ids are contiguous (see kernel_tables).
    return int(k[k[AT_COUNTS] + r * k[STRIDE_R] + s * k[STRIDE_S] + (2 * need_m + need_o) * k[STRIDE_J] + j])


@jit_inline
def canonical_index(k: Ints, mine: int, theirs: int, deck: int, d: int) -> int:
    """The state's index within layer d (types unordered); both hands must be non-empty."""
    n_types = k[N_TYPES]
    a0 = _triple(k, mine, theirs, deck, 0)
    a1 = _triple(k, mine, theirs, deck, 1) if n_types > 1 else -1
    a2 = _triple(k, mine, theirs, deck, 2) if n_types > 2 else -1
    a3 = _triple(k, mine, theirs, deck, 3) if n_types > 3 else -1
    # A sorting network, largest id first (min/max compile to branch-free code).
    a0, a1 = max(a0, a1), min(a0, a1)
    a2, a3 = max(a2, a3), min(a2, a3)
    a0, a2 = max(a0, a2), min(a0, a2)
    a1, a3 = max(a1, a3), min(a1, a3)
    a1, a2 = max(a1, a2), min(a1, a2)
    at_m, at_o, at_k = k[AT_MINE], k[AT_THEIRS], k[AT_DECK]
    s = d
    need_m = 1
    need_o = 1
    rank = _count(k, n_types, a0, s, need_m, need_o)
    if n_types > 1:
        s -= k[at_k + a0]
        need_m = need_m if k[at_m + a0] == 0 else 0
        need_o = need_o if k[at_o + a0] == 0 else 0
        rank += _count(k, n_types - 1, a1, s, need_m, need_o)
        if n_types > 2:
            s -= k[at_k + a1]
            need_m = need_m if k[at_m + a1] == 0 else 0
            need_o = need_o if k[at_o + a1] == 0 else 0
            rank += _count(k, n_types - 2, a2, s, need_m, need_o)
            if n_types > 3:
                s -= k[at_k + a2]
                need_m = need_m if k[at_m + a2] == 0 else 0
                need_o = need_o if k[at_o + a2] == 0 else 0
                rank += _count(k, n_types - 3, a3, s, need_m, need_o)
    return rank


@jit_inline
def state_at(k: Ints, d: int, index: int) -> tuple[int, int, int]:
    """The canonical state (mine, theirs, deck) with this index in layer d (the inverse of canonical_index)."""
    n_types = k[N_TYPES]
    at_m, at_o, at_k = k[AT_MINE], k[AT_THEIRS], k[AT_DECK]
    s = d
    need_m = 1
    need_o = 1
    bound = k[N_TRIPLES]
    mine = 0
    theirs = 0
    deck = 0
    rest = index
    for position in range(n_types):
        r = n_types - position
        # The largest id a with count(r, a) <= rest: the sequences before ours start below a.
        a = 0
        span = bound
        while span > 1:
            half = span // 2
            probe = a + half
            a = probe if _count(k, r, probe, s, need_m, need_o) <= rest else a
            span -= half
        rest -= _count(k, r, a, s, need_m, need_o)
        shift = 4 * position
        mine |= k[at_m + a] << shift
        theirs |= k[at_o + a] << shift
        deck |= k[at_k + a] << shift
        s -= k[at_k + a]
        need_m = need_m if k[at_m + a] == 0 else 0
        need_o = need_o if k[at_o + a] == 0 else 0
        bound = a + 1
    return mine, theirs, deck


@jit_inline
def move_count(k: Ints) -> int:
    """How many move ids there are (rummy.GameInfo.num_distinct_moves), read from the tables' layout:
    every lay, the wasted lay, then a Take and a Give per type."""
    return int(k[N_LAYS] + 1 + 2 * k[N_TYPES])


@jit_inline
def legal_mask(k: Ints, mine: int, theirs: int) -> int:
    """Bit i set when move id i is legal for the mover (ids as rummy.countstate.CountRules)."""
    mask = k[k[AT_OWN_MASKS] + mine]
    first_take = k[N_LAYS] + 1
    for t in range(k[N_TYPES]):
        if (theirs >> (4 * t)) & NIBBLE:
            mask |= 1 << (first_take + t)
    return int(mask)


@jit_inline
def apply_move(k: Ints, mine: int, theirs: int, move: int) -> tuple[int, int, int]:
    """(mine, theirs, points) after the mover plays `move` (no legality check), before the draw."""
    n_lays = k[N_LAYS]
    if move < n_lays:
        return mine - k[k[AT_LAY_CODES] + move], theirs, int(k[k[AT_LAY_POINTS] + move])
    if move == n_lays:
        return mine, theirs, 0
    t = move - n_lays - 1
    n_types = k[N_TYPES]
    if t < n_types:
        unit = 1 << (4 * t)
        return mine + unit, theirs - unit, 0
    unit = 1 << (4 * (t - n_types))
    return mine - unit, theirs + unit, 0


@jit_inline
def end_margin(k: Ints, mine: int, theirs: int, points: int) -> int:
    """The mover's margin when the round ends now: `points` just laid, minus the penalty of its cards
    left, plus the penalty of the opponent's (banked points left out)."""
    return int(points + k[PENALTY] * (size(theirs) - size(mine)))
