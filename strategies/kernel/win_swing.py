"""Where a state's win probability is still open: the two swing bounds of the win table, per state.

The round is won on the final margin (banked difference D, mover minus opponent, plus what is still
to come), so the probability of winning, P(s, D), rises with D and is 0 or 1 far enough out. Both
edges are exact for each count state s:

- G(s): the swing the mover can guarantee against every reply *and every draw* (the game with
  chance as the mover's adversary). P(s, D) = 1 exactly when D + G(s) > 0, or = 0 and the mover
  wins ties: only then does some strategy win on every path.
- H(s): the swing when every draw goes the mover's way (chance on the mover's side). P(s, D) = 0
  exactly when D + H(s) < 0, or = 0 and the mover loses ties: only then can the opponent make
  every path a loss.

In between, 0 < P < 1 and the table stores a value; outside, the result is settled and costs
nothing. One turn flips the point of view, so chance against this mover is chance for the next:
G(s) = max over moves of (points + min over draws of -H(child)), and
H(s) = max over moves of (points + max over draws of -G(child)).
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numpy.typing import NDArray

from strategies.kernel.core import apply_move, canonical_index, legal_mask, size, state_at
from strategies.kernel.jit import jit_inline, jit_parallel
from strategies.kernel.tables import CARDS, N_TYPES, PENALTY, Ints

Swing = NDArray[np.int16]
BIG = 1 << 20


@jit_inline
def swing_of(k: Ints, mine: int, theirs: int, deck: int, d: int, below_g: Swing, below_h: Swing) -> tuple[int, int]:
    """(G, H) of the state (mine, theirs, deck) of layer d, from layer d-1's bounds (unused when d == 1)."""
    penalty = k[PENALTY]
    n_types = k[N_TYPES]
    mask = legal_mask(k, mine, theirs)
    best_g = -BIG
    best_h = -BIG
    move = 0
    while mask:
        if mask & 1:
            mine2, theirs2, points = apply_move(k, mine, theirs, move)
            if mine2 == 0 or theirs2 == 0:
                low = high = points + penalty * (size(theirs2) - size(mine2))
            else:
                low = BIG
                high = -BIG
                for t in range(n_types):
                    if (deck >> (4 * t)) & 15:
                        unit = 1 << (4 * t)
                        if d == 1:
                            worst = best = penalty * (size(theirs2) - size(mine2 + unit))
                        else:
                            child = canonical_index(k, theirs2, mine2 + unit, deck - unit, d - 1)
                            worst = -int(below_h[child])
                            best = -int(below_g[child])
                        low = min(low, worst)
                        high = max(high, best)
                low += points
                high += points
            best_g = max(best_g, low)
            best_h = max(best_h, high)
        mask >>= 1
        move += 1
    return best_g, best_h


@jit_parallel
def swing_pass(k: Ints, d: int, below_g: Swing, below_h: Swing, out_g: Swing, out_h: Swing, start: int) -> None:
    """out_g[i], out_h[i] = G and H of state start+i of layer d."""
    for i in prange(out_g.shape[0]):
        mine, theirs, deck = state_at(k, d, start + i)
        g, h = swing_of(k, mine, theirs, deck, d, below_g, below_h)
        out_g[i] = g
        out_h[i] = h


@jit_inline
def window(g: int, h: int, tie: int, unit: int) -> tuple[int, int]:
    """(first, count): the banked differences D = unit * (first + j), j < count, where 0 < P < 1."""
    low = -h if tie else 1 - h
    high = -g - 1 if tie else -g
    first = -((-low) // unit)  # ceil(low / unit)
    last = high // unit
    return first, max(0, last - first + 1)


@jit_inline
def laid_code(k: Ints, mine: int, theirs: int, deck: int) -> int:
    """The cards of each type in neither hand nor the deck (laid in sets), as a base-(cards + 1) number
    with type 0 lowest (strategies.table.win.reach.LaidBound.laid_code)."""
    side = k[CARDS] + 1
    code = 0
    scale = 1
    for t in range(k[N_TYPES]):
        held = ((mine >> (4 * t)) & 15) + ((theirs >> (4 * t)) & 15) + ((deck >> (4 * t)) & 15)
        code += (side - 1 - held) * scale
        scale *= side
    return code


@jit_parallel
def window_sizes(g: Swing, h: Swing, tie: int, unit: int, out: Ints) -> None:
    for i in prange(g.shape[0]):
        out[i] = window(int(g[i]), int(h[i]), tie, unit)[1]


@jit_parallel
def bounded_window_sizes(
    k: Ints,
    d: int,
    start: int,
    g: Swing,
    h: Swing,
    tie: int,
    unit: int,
    allowed: NDArray[np.bool_],
    offset: int,
    out: NDArray[np.int32],
) -> None:
    """out[i, b]: the D of state start+i's window (g[i], h[i]) that bound b of `allowed` lets occur.

    allowed[b, laid, offset + D / unit] (strategies.table.win.reach) is indexed by the laid cards, the
    cards of each type in neither hand nor the deck, as a base-(cards + 1) number with type 0 lowest."""
    width = allowed.shape[2]
    for i in prange(g.shape[0]):
        mine, theirs, deck = state_at(k, d, start + i)
        laid = laid_code(k, mine, theirs, deck)
        first, count = window(int(g[i]), int(h[i]), tie, unit)
        for b in range(allowed.shape[0]):
            n = 0
            for q in range(max(first, -offset), min(first + count, width - offset)):
                if allowed[b, laid, q + offset]:
                    n += 1
            out[i, b] = n
