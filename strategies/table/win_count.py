"""Count what an exact win table must hold, layer by layer, before building it.

    python -m strategies.table.win_count [--workers 2] [--out measurements/win_table_count.json]

A win value belongs to a count state s and the banked points difference D (mover minus opponent);
who wins ties follows from the layer (turns taken = deck size - cards in the deck). D is a multiple
of the rules' point unit (the gcd of the set points: 5 in the arena's rules), and only the D where
0 < P(s, D) < 1 need storing (strategies.kernel.win_swing: the window between the two exact swing
bounds G and H). This counts those (state, D) pairs over every canonical state of each layer (so it
is an upper bound on the pairs reachable from a deal) and the table size under each storage choice.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rummy import DEFAULT_RULES, RulesConfig, game_info

CHUNK = 1 << 20
# Bytes a state costs besides its values: G and H (int16 each) and an int64 offset every BLOCK states.
BLOCK = 8
STATE_BYTES = 4 + 8 / BLOCK
STORAGE = {"float32": 4, "uint16 fixed point": 2, "uint8 fixed point": 1}


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
    return list(_swing_layers(config, workers=workers, top=top))


def _swing_layers(config: RulesConfig, *, workers: int, top: int | None):  # type: ignore[no-untyped-def]
    import numba

    from strategies.kernel import kernel_tables
    from strategies.kernel.tables import layer_sizes
    from strategies.kernel.win_swing import swing_pass

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


def count_pairs(config: RulesConfig = DEFAULT_RULES, *, workers: int = 2, top: int | None = None) -> dict[str, Any]:
    """Per layer: states, states whose result is still open, (state, D) pairs, the widest window."""
    from strategies.kernel.win_swing import window_sizes

    unit = point_unit(config)
    layers = []
    for d, (g, h) in enumerate(_swing_layers(config, workers=workers, top=top)):
        if d == 0:
            continue
        began = time.perf_counter()
        widths = np.empty(g.shape[0], dtype=np.int64)
        window_sizes(g, h, tie_of(config, d), unit, widths)
        pairs = int(widths.sum())
        layers.append(
            {
                "layer": d,
                "states": int(g.shape[0]),
                "open_states": int(np.count_nonzero(widths)),
                "pairs": pairs,
                "widest": int(widths.max()),
                "mean_width": round(pairs / max(1, g.shape[0]), 3),
                "g_range": [int(g.min()), int(g.max())],
                "h_range": [int(h.min()), int(h.max())],
                "count_seconds": round(time.perf_counter() - began, 3),
            }
        )
        print(
            f"layer {d:2d}: {g.shape[0]:>11,} states, {layers[-1]['open_states']:>11,} open, {pairs:>14,} pairs, "
            f"widest {layers[-1]['widest']}",
            file=sys.stderr,
            flush=True,
        )
    return {"unit": unit, "layers": layers, **sizes_under_storage(layers)}


def sizes_under_storage(layers: list[dict[str, Any]]) -> dict[str, Any]:
    """Bytes of layers 1..L for every L and storage choice, with each choice's rounding error."""
    states = np.cumsum([layer["states"] for layer in layers])
    pairs = np.cumsum([layer["pairs"] for layer in layers])
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


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=Path(__file__).parent
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def measurement_context(argv: list[str]) -> dict[str, Any]:
    return {
        "command": " ".join(["python -m strategies.table.win_count", *argv]),
        "commit": _commit(),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()},
        "load_before": list(os.getloadavg()),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--top", type=int, default=None, help="count layers 1..TOP only")
    parser.add_argument("--out", type=Path, default=Path("measurements/win_table_count.json"))
    args = parser.parse_args(argv)
    record = measurement_context(sys.argv[1:] if argv is None else argv)
    began, cpu_began = time.perf_counter(), time.process_time()
    figures = count_pairs(DEFAULT_RULES, workers=args.workers, top=args.top)
    record.update(
        wall_seconds=round(time.perf_counter() - began, 1),
        cpu_seconds=round(time.process_time() - cpu_began, 1),
        load_after=list(os.getloadavg()),
        **figures,
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    total = figures["layers"]
    print(
        f"{sum(layer['pairs'] for layer in total):,} pairs over {sum(layer['states'] for layer in total):,} states; "
        f"wrote {args.out}"
    )


if __name__ == "__main__":
    main()
