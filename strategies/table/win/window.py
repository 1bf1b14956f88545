"""The banked differences a win value is kept for, and the exact swing bounds that narrow them.

A win value belongs to a count state s and the banked points difference D (mover minus opponent);
who wins ties follows from the layer (turns taken = deck size - cards in the deck). D is a multiple
of the rules' point unit (the gcd of the set points: 5 in the arena's rules), and only the D where
0 < P(s, D) < 1 need storing (strategies.kernel.win_swing: the window between the two exact swing
bounds G and H of every state, computed here layer by layer).
"""

from __future__ import annotations

from collections.abc import Iterator

import numba
import numpy as np

from rummy import DEFAULT_RULES, RulesConfig, game_info
from strategies.kernel import kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.kernel.win_swing import swing_pass

CHUNK = 1 << 20


def point_unit(config: RulesConfig) -> int:
    """The step of every banked difference (rummy.GameInfo.point_unit)."""
    return game_info(config).point_unit


def tie_of(config: RulesConfig, d: int) -> int:
    """1 when the mover of a layer-d state wins ties: it moved second, so an odd number of turns are taken."""
    return (config.deck_size - d) % 2


def swing_layers(
    config: RulesConfig = DEFAULT_RULES, *, workers: int = 2, top: int | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """G and H (strategies.kernel.win_swing) of every state of layers 0..top (layer 0 empty)."""
    return list(iter_swing_layers(config, workers=workers, top=top))


def iter_swing_layers(config: RulesConfig, *, workers: int, top: int | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """G and H of each layer in turn, from layer 0 up: only two layers are held at once."""
    tables = kernel_tables(config)
    sizes = layer_sizes(tables)
    top = len(sizes) - 1 if top is None else min(top, len(sizes) - 1)
    numba.set_num_threads(max(1, min(workers, getattr(numba.config, "NUMBA_NUM_THREADS", 2))))
    below_g = np.zeros(1, dtype=np.int16)
    below_h = np.zeros(1, dtype=np.int16)
    yield below_g, below_h
    for d in range(1, top + 1):
        g = np.empty(sizes[d], dtype=np.int16)
        h = np.empty(sizes[d], dtype=np.int16)
        for start in range(0, sizes[d], CHUNK):
            stop = min(sizes[d], start + CHUNK)
            swing_pass(tables.blob, d, below_g, below_h, g[start:stop], h[start:stop], start)
        yield g, h
        below_g, below_h = g, h
