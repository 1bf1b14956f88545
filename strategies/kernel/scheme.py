"""A fingerprint of how the kernel lays out a table: its canonical index and its move ids.

A stored table is only readable by a kernel that numbers states and moves as the builder did. The
fingerprint hashes the kernel's packed tables and what the compiled code makes of them: the states
at fixed indices of every layer, those states' indices back, and every move's effect on a fixed
pair of hands. An edit of the indexing scheme or of the move order changes it.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

from rummy import RulesConfig
from strategies.kernel.core import apply_move, canonical_index, move_count, state_at
from strategies.kernel.jit import jit
from strategies.kernel.tables import Ints, kernel_tables, layer_sizes

SAMPLES_PER_LAYER = 17


@jit
def _sample(k: Ints, d: int, indices: Ints, out: Ints) -> None:
    for i in range(indices.shape[0]):
        mine, theirs, deck = state_at(k, d, indices[i])
        out[4 * i] = mine
        out[4 * i + 1] = theirs
        out[4 * i + 2] = deck
        out[4 * i + 3] = canonical_index(k, mine, theirs, deck, d)


@jit
def _moves(k: Ints, mine: int, theirs: int, out: Ints) -> None:
    for move in range(move_count(k)):
        after_mine, after_theirs, points = apply_move(k, mine, theirs, move)
        out[3 * move] = after_mine
        out[3 * move + 1] = after_theirs
        out[3 * move + 2] = points


@lru_cache(maxsize=16)
def kernel_fingerprint(config: RulesConfig) -> str:
    tables = kernel_tables(config)
    blob = tables.blob
    digest = hashlib.sha256(blob.astype("<i8").tobytes())
    for d, size in enumerate(layer_sizes(tables)):
        if d == 0 or size == 0:
            continue
        indices = np.unique(np.linspace(0, size - 1, SAMPLES_PER_LAYER).astype(np.int64))
        out = np.empty(4 * indices.shape[0], dtype=np.int64)
        _sample(blob, d, indices, out)
        digest.update(out.astype("<i8").tobytes())
    # Every move applied to hands holding 5 of each type (enough for any lay the kernel supports).
    full = sum(5 << (4 * t) for t in range(tables.n_types))
    out = np.empty(3 * (tables.n_lays + 1 + 2 * tables.n_types), dtype=np.int64)
    _moves(blob, full, full, out)
    digest.update(out.astype("<i8").tobytes())
    return digest.hexdigest()
