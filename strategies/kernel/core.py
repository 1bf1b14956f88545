"""Compiled count-level rules: hand sizes, the canonical index, legal moves and their results.

States are packed like `rummy.countstate` (4 bits a type): `mine` is the mover's hand, `theirs`
the opponent's, `deck` the deck; `d` is the deck's size, which is also the number of turns left.
Values are from the mover's view; under the margin objective they leave out points already banked.
"""

from __future__ import annotations

from strategies.kernel.jit import jit
from strategies.kernel.tables import KernelTables

NIBBLE = 15


@jit
def size(code: int) -> int:
    total = 0
    while code:
        total += code & NIBBLE
        code >>= 4
    return total


@jit
def _triple(tables: KernelTables, mine: int, theirs: int, deck: int, t: int) -> int:
    side = tables.cards + 1
    shift = 4 * t
    return int(tables.ids[(((mine >> shift) & NIBBLE) * side + ((theirs >> shift) & NIBBLE)) * side + ((deck >> shift) & NIBBLE)])


@jit
def canonical_index(tables: KernelTables, mine: int, theirs: int, deck: int, d: int) -> int:
    """The state's index within layer d (types unordered); both hands must be non-empty."""
    n_types = tables.n_types
    a0 = _triple(tables, mine, theirs, deck, 0)
    a1 = _triple(tables, mine, theirs, deck, 1) if n_types > 1 else -1
    a2 = _triple(tables, mine, theirs, deck, 2) if n_types > 2 else -1
    a3 = _triple(tables, mine, theirs, deck, 3) if n_types > 3 else -1
    # A sorting network, largest id first.
    if a0 < a1:
        a0, a1 = a1, a0
    if a2 < a3:
        a2, a3 = a3, a2
    if a0 < a2:
        a0, a2 = a2, a0
    if a1 < a3:
        a1, a3 = a3, a1
    if a1 < a2:
        a1, a2 = a2, a1
    counts = tables.counts
    tm, to, tk = tables.triple_mine, tables.triple_theirs, tables.triple_deck
    s = d
    need_m = 1
    need_o = 1
    rank = counts[n_types, a0, s, need_m, need_o]
    if n_types > 1:
        s -= tk[a0]
        need_m = need_m if tm[a0] == 0 else 0
        need_o = need_o if to[a0] == 0 else 0
        rank += counts[n_types - 1, a1, s, need_m, need_o]
        if n_types > 2:
            s -= tk[a1]
            need_m = need_m if tm[a1] == 0 else 0
            need_o = need_o if to[a1] == 0 else 0
            rank += counts[n_types - 2, a2, s, need_m, need_o]
            if n_types > 3:
                s -= tk[a2]
                need_m = need_m if tm[a2] == 0 else 0
                need_o = need_o if to[a2] == 0 else 0
                rank += counts[n_types - 3, a3, s, need_m, need_o]
    return int(rank)


@jit
def state_at(tables: KernelTables, d: int, index: int) -> tuple[int, int, int]:
    """The canonical state (mine, theirs, deck) with this index in layer d (the inverse of canonical_index)."""
    counts = tables.counts
    tm, to, tk = tables.triple_mine, tables.triple_theirs, tables.triple_deck
    n_types = tables.n_types
    s = d
    need_m = 1
    need_o = 1
    bound = tables.n_triples
    mine = 0
    theirs = 0
    deck = 0
    rest = index
    for position in range(n_types):
        r = n_types - position
        # The largest id a with counts[r, a] <= rest: the sequences before ours start below a.
        lo = 0
        hi = bound - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if counts[r, mid, s, need_m, need_o] <= rest:
                lo = mid
            else:
                hi = mid - 1
        a = lo
        rest -= counts[r, a, s, need_m, need_o]
        shift = 4 * position
        mine |= tm[a] << shift
        theirs |= to[a] << shift
        deck |= tk[a] << shift
        s -= tk[a]
        need_m = need_m if tm[a] == 0 else 0
        need_o = need_o if to[a] == 0 else 0
        bound = a + 1
    return mine, theirs, deck


@jit
def legal_mask(tables: KernelTables, mine: int, theirs: int) -> int:
    """Bit i set when move id i is legal for the mover (ids as rummy.countstate.CountRules)."""
    mask = 0
    n_lays = tables.n_lays
    n_types = tables.n_types
    for lay in range(n_lays):
        need = tables.lay_codes[lay]
        fits = True
        for t in range(n_types):
            if ((need >> (4 * t)) & NIBBLE) > ((mine >> (4 * t)) & NIBBLE):
                fits = False
                break
        if fits:
            mask |= 1 << lay
    for index in range(tables.non_sets.shape[0]):
        need = tables.non_sets[index]
        fits = True
        for t in range(n_types):
            if ((need >> (4 * t)) & NIBBLE) > ((mine >> (4 * t)) & NIBBLE):
                fits = False
                break
        if fits:
            mask |= 1 << n_lays
            break
    for t in range(n_types):
        if (theirs >> (4 * t)) & NIBBLE:
            mask |= 1 << (n_lays + 1 + t)
    for t in range(n_types):
        if (mine >> (4 * t)) & NIBBLE:
            mask |= 1 << (n_lays + 1 + n_types + t)
    return mask


@jit
def apply_move(tables: KernelTables, mine: int, theirs: int, move: int) -> tuple[int, int, int]:
    """(mine, theirs, points) after the mover plays `move` (no legality check), before the draw."""
    n_lays = tables.n_lays
    if move < n_lays:
        return mine - tables.lay_codes[move], theirs, int(tables.lay_points[move])
    if move == n_lays:
        return mine, theirs, 0
    t = move - n_lays - 1
    if t < tables.n_types:
        unit = 1 << (4 * t)
        return mine + unit, theirs - unit, 0
    unit = 1 << (4 * (t - tables.n_types))
    return mine - unit, theirs + unit, 0


@jit
def chance_margin(tables: KernelTables, mine: int, theirs: int, deck: int, d: int, below: object) -> float:
    """Expected margin for the mover from its draw (both hands non-empty, d >= 1 cards in the deck);
    `below` holds the values of layer d-1 by canonical index (unused when d == 1)."""
    total = 0.0
    penalty = tables.penalty
    for t in range(tables.n_types):
        held = (deck >> (4 * t)) & NIBBLE
        if held:
            unit = 1 << (4 * t)
            drawn = mine + unit
            if d == 1:
                value = penalty * (size(theirs) - size(drawn))
            else:
                value = -below[canonical_index(tables, theirs, drawn, deck - unit, d - 1)]  # type: ignore[index]
            total += held * value
    return total / d


@jit
def after_margin(tables: KernelTables, mine: int, theirs: int, deck: int, d: int, move: int, here: object) -> float:
    """The margin value of `move` for the mover; `here` holds the chance (after-move) values of layer d."""
    mine2, theirs2, points = apply_move(tables, mine, theirs, move)
    penalty = tables.penalty
    if mine2 == 0 or theirs2 == 0:
        return float(points + penalty * (size(theirs2) - size(mine2)))
    return points + here[canonical_index(tables, mine2, theirs2, deck, d)]  # type: ignore[index]
