"""On-demand exact solving in the kernel, without the table, for both objectives.

From the root, the reachable states are enumerated turn by turn: the positions after each legal
move (the mover about to draw; "after-states"), then the draws, giving the next turn's states seen
by the next mover. Each set is a sorted array of unique keys. Floats then go back from the last
turn to the root: an after-state averages its draws, a state takes its best move.

Ints: under `margin` a state is its canonical index (banked points do not matter; values leave
them out). Under `win` the key also holds the points difference so far (mover minus opponent,
clamped beyond the largest swing still possible, where the result is already decided) and whether
the mover wins ties; values are 2 P(win) - 1.

Single-threaded on purpose: a solve is small, and waking worker threads on a busy machine costs
more than it saves.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from strategies.kernel.backup import after_states, best_move, draws, every_move
from strategies.kernel.core import NIBBLE, apply_move, canonical_index, end_margin, move_count, state_at
from strategies.kernel.jit import jit, jit_inline
from strategies.kernel.tables import N_TYPES, Floats, Ints

# What a key of layer d decodes with, besides the state: (d, banked difference, tie rule, off).
Key = tuple[int, int, int, int]
# A root position: (mine, theirs, deck, d, banked difference, tie rule).
Root = tuple[int, int, int, int, int, int]
# edge(afters, d): the values of layer d's after-states read from below the enumeration (a table).
Edge = Callable[[Ints, int], Floats]


@jit_inline
def encode(k: Ints, mine: int, theirs: int, deck: int, d: int, diff: int, tie: int, off: int) -> int:
    index = canonical_index(k, mine, theirs, deck, d)
    if off == 0:
        return index
    diff = min(max(diff, -off), off)
    return ((index * (2 * off + 1) + diff + off) << 1) | tie


@jit_inline
def decode(k: Ints, key: int, d: int, off: int) -> tuple[int, int, int, int, int]:
    if off == 0:
        mine, theirs, deck = state_at(k, d, key)
        return mine, theirs, deck, 0, 0
    tie = key & 1
    rest = key >> 1
    span = 2 * off + 1
    diff = rest % span - off
    mine, theirs, deck = state_at(k, d, rest // span)
    return mine, theirs, deck, diff, tie


@jit_inline
def final_value(final_margin: int, tie: int, off: int) -> float:
    """A finished round's value for the mover: the margin itself, or +-1 under `win`."""
    if off == 0:
        return float(final_margin)
    if final_margin > 0 or (final_margin == 0 and tie == 1):
        return 1.0
    return -1.0


@jit_inline
def _unique(found: Ints) -> Ints:
    kept = found[found >= 0]
    return np.unique(kept)


@jit
def after_keys(k: Ints, keys: Ints, d: int, off: int) -> Ints:
    """Every after-state (both hands still non-empty) that a move of a state in `keys` leads to."""
    width = move_count(k)
    found = np.full(keys.shape[0] * width, -1, dtype=np.int64)
    after = np.empty((3, width), dtype=np.int64)
    for i in range(keys.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, keys[i], d, off)
        for j in range(after_states(k, mine, theirs, after)):
            found[i * width + j] = encode(k, after[0, j], after[1, j], deck, d, diff + after[2, j], tie, off)
    return _unique(found)


@jit
def draw_keys(k: Ints, afters: Ints, d: int, off: int) -> Ints:
    """The states of the next turn (d-1 cards in the deck, from the next mover's view)."""
    n_types = k[N_TYPES]
    found = np.full(afters.shape[0] * n_types, -1, dtype=np.int64)
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        for t in range(n_types):
            if (deck >> (4 * t)) & NIBBLE:
                unit = 1 << (4 * t)
                found[i * n_types + t] = encode(k, theirs, mine + unit, deck - unit, d - 1, -diff, 1 - tie, off)
    return _unique(found)


@jit_inline
def _find(keys: Ints, key: int) -> int:
    return int(np.searchsorted(keys, key))


@jit_inline
def _drawn_from_keys(
    k: Ints, drawn: int, theirs: int, rest: int, key: Key, below_keys: Ints, below_values: Floats
) -> float:
    d, diff, tie, off = key
    if d == 1:
        return final_value(diff + end_margin(k, drawn, theirs, 0), tie, off)
    return -float(below_values[_find(below_keys, encode(k, theirs, drawn, rest, d - 1, -diff, 1 - tie, off))])


@jit
def after_values(k: Ints, afters: Ints, d: int, off: int, below_keys: Ints, below_values: Floats) -> Floats:
    """Each after-state's value over its draw, from the reachable states of layer d-1 (sorted keys)."""
    values = np.empty(afters.shape[0], dtype=np.float64)
    draw = np.empty((2, k[N_TYPES]), dtype=np.int64)
    for i in range(afters.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, afters[i], d, off)
        total = 0.0
        for j in range(draws(k, deck, draw)):
            unit = draw[1, j]
            total += draw[0, j] * _drawn_from_keys(
                k, mine + unit, theirs, deck - unit, (d, diff, tie, off), below_keys, below_values
            )
        values[i] = total / d
    return values


@jit_inline
def _move_value(k: Ints, mine: int, theirs: int, move: int, ctx: tuple[int, Key, Ints, Floats]) -> float:
    deck, (d, diff, tie, off), afters, after_vals = ctx
    mine2, theirs2, points = apply_move(k, mine, theirs, move)
    if mine2 == 0 or theirs2 == 0:
        return final_value(diff + end_margin(k, mine2, theirs2, points), tie, off)
    value = float(after_vals[_find(afters, encode(k, mine2, theirs2, deck, d, diff + points, tie, off))])
    return value + points if off == 0 else value


@jit
def state_values(k: Ints, keys: Ints, d: int, off: int, afters: Ints, after_vals: Floats) -> Floats:
    values = np.empty(keys.shape[0], dtype=np.float64)
    for i in range(keys.shape[0]):
        mine, theirs, deck, diff, tie = decode(k, keys[i], d, off)
        values[i] = best_move(k, mine, theirs, _move_value, (deck, (d, diff, tie, off), afters, after_vals))
    return values


@jit
def root_values(k: Ints, root: Root, off: int, afters: Ints, after_vals: Floats, out: Floats) -> None:
    """out[move] = the move's value for every legal move of the root; NaN elsewhere."""
    mine, theirs, deck, d, diff, tie = root
    every_move(k, mine, theirs, _move_value, (deck, (d, diff, tie, off), afters, after_vals), out)


def solve_sorted(
    k: Ints,
    root: Root,
    off: int,
    *,
    lowest: int = 1,
    edge: Edge | None = None,
    deadline: float | None = None,
    max_states: int | None = None,
) -> tuple[Floats, int] | None:
    """Every legal move's value at `root` (by move id, NaN for illegal moves) and the number of states
    and after-states enumerated; None when `deadline` (time.monotonic()) passes or more than
    `max_states` would be needed. The enumeration goes down to layer `lowest`; with `edge`, that
    layer's after-states take their values from it (a table's layer lowest-1), else `lowest` is 1."""
    mine, theirs, deck, d, diff, tie = root
    keys = np.array([encode(k, mine, theirs, deck, d, diff, tie, off)], dtype=np.int64)
    layers = []
    count = 0
    for turns in range(d, lowest - 1, -1):
        afters = after_keys(k, keys, turns, off)
        layers.append((keys, afters))
        count += keys.shape[0] + afters.shape[0]
        upcoming = 0
        if turns > lowest:
            keys = draw_keys(k, afters, turns, off)
            upcoming = keys.shape[0]
        if (max_states is not None and count + upcoming > max_states) or _late(deadline):
            return None
    below_keys = np.zeros(0, dtype=np.int64)
    below_values = np.zeros(0, dtype=np.float64)
    for turns in range(lowest, d + 1):
        keys, afters = layers[d - turns]
        if edge is not None and turns == lowest:
            after_vals = edge(afters, turns)
        else:
            after_vals = after_values(k, afters, turns, off, below_keys, below_values)
        if turns < d:
            below_keys, below_values = keys, state_values(k, keys, turns, off, afters, after_vals)
        if _late(deadline):
            return None
    out = np.empty(move_count(k), dtype=np.float64)
    root_values(k, root, off, afters, after_vals, out)
    return out, count


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline
