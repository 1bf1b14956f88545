"""What an exact win table must hold, layer by layer, before building it: `python tools/measure.py win-count`.

Only the banked differences D with 0 < P(s, D) < 1 are stored (strategies.table.win.window). This
counts those (state, D) pairs per layer three ways, each an upper bound on the pairs a deal can reach:
over every canonical state with every D of its window ("pairs"); keeping only the D within the
largest total the laid cards can score ("pairs_laid_total"); and keeping only the D that are a signed
sum of the laid cards split into sets, each player at most one set a turn ("pairs_laid_sets";
strategies.table.win.reach). And the table size under each storage choice for the first and the last.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel import kernel_tables
from strategies.kernel.win_swing import bounded_window_sizes, window_sizes
from strategies.table.win.reach import LaidBound
from strategies.table.win.window import CHUNK, iter_swing_layers, point_unit, tie_of

# Bytes a state costs besides its values in the win table file (strategies/table/win/fileformat.py): G and
# H (int16 each), how many values it keeps (uint8) and an int64 offset every BLOCK states.
BLOCK = 8
STATE_BYTES = 4 + 1 + 8 / BLOCK
STORAGE = {"float32": 4, "uint16 fixed point": 2, "uint8 fixed point": 1}
COUNTS = {
    "pairs": "every canonical state, every D of its window",
    "pairs_laid_total": "within the laid-cards bound |D| <= the most the laid cards can score",
    "pairs_laid_sets": "within the laid-cards bound: D a signed sum of the laid sets, at most one set a turn",
}


def _bounded_counts(blob: Any, bound: Any, d: int, g: Any, h: Any, tie: Any, unit: int) -> tuple[Any, int]:
    """Layer d's (state, D) pairs under each of the bound's counts, summed over the states in chunks, and the
    states still open under it."""
    allowed = bound.allowed(d)
    bounded = np.zeros(allowed.shape[0], dtype=np.int64)
    bounded_open = 0
    for start in range(0, g.shape[0], CHUNK):
        stop = min(g.shape[0], start + CHUNK)
        out = np.empty((stop - start, allowed.shape[0]), dtype=np.int32)
        bounded_window_sizes(blob, d, start, g[start:stop], h[start:stop], tie, unit, allowed, bound.offset, out)
        bounded += out.sum(axis=0)
        bounded_open += int(np.count_nonzero(out[:, -1]))
    return bounded, bounded_open


def count_pairs(
    config: RulesConfig = DEFAULT_RULES,
    *,
    workers: int = 2,
    top: int | None = None,
    emit: Callable[[str], None] = lambda line: None,
) -> dict[str, Any]:
    """Per layer: states, states whose result is still open, (state, D) pairs under each of COUNTS, the widest
    window."""
    unit = point_unit(config)
    bound = LaidBound(config)
    blob = kernel_tables(config).blob
    layers = []
    for d, (g, h) in enumerate(iter_swing_layers(config, workers=workers, top=top)):
        if d == 0:
            continue
        began = time.perf_counter()
        tie = tie_of(config, d)
        widths = np.empty(g.shape[0], dtype=np.int64)
        window_sizes(g, h, tie, unit, widths)
        pairs = int(widths.sum())
        bounded, bounded_open = _bounded_counts(blob, bound, d, g, h, tie, unit)
        layers.append(
            {
                "layer": d,
                "states": int(g.shape[0]),
                "open_states": int(np.count_nonzero(widths)),
                "open_states_laid_sets": bounded_open,
                "pairs": pairs,
                "pairs_laid_total": int(bounded[0]),
                "pairs_laid_sets": int(bounded[1]),
                "widest": int(widths.max()),
                "mean_width": round(pairs / max(1, g.shape[0]), 3),
                "g_range": [int(g.min()), int(g.max())],
                "h_range": [int(h.min()), int(h.max())],
                "count_seconds": round(time.perf_counter() - began, 3),
            }
        )
        emit(
            f"layer {d:2d}: {g.shape[0]:>11,} states, {layers[-1]['open_states']:>11,} open, {pairs:>14,} pairs "
            f"(every state), {int(bounded[0]):>14,} (laid total), {int(bounded[1]):>14,} (laid sets), "
            f"widest {layers[-1]['widest']}"
        )
    return {
        "unit": unit,
        "counts": COUNTS,
        "layers": layers,
        **sizes_under_storage(layers),
        "sizes_laid_sets": sizes_under_storage(layers, "pairs_laid_sets"),
    }


def sizes_under_storage(layers: list[dict[str, Any]], count: str = "pairs") -> dict[str, Any]:
    """Bytes of layers 1..L for every L and storage choice, with each choice's rounding error, storing the
    pairs of `count` (one of COUNTS) plus the same bytes a state as the every-state layout."""
    states = np.cumsum([layer["states"] for layer in layers])
    pairs = np.cumsum([layer[count] for layer in layers])
    storage = {}
    for name, width in STORAGE.items():
        storage[name] = {
            "bytes_per_value": width,
            "bytes_through_layer": [int(p * width + s * STATE_BYTES) for p, s in zip(pairs, states, strict=True)],
            "worst_error": worst_error(name, len(layers)),
        }
    return {"state_overhead_bytes": STATE_BYTES, "storage": storage}


def worst_error(storage: str, layer: int) -> str | float:
    """The worst error of a stored P(win) in layer `layer` when each layer is built from the stored (rounded)
    layer below: averages over draws and maxima over moves never widen an error, and each layer adds at most
    half a step of its own rounding."""
    if storage == "float32":
        return "about 2**-24 relative per operation (float32 arithmetic)"
    steps = (1 << (16 if storage.startswith("uint16") else 8)) - 1
    return layer / (2 * steps)
