"""Build the win table layer by layer, resumably: a finished layer is on disk with its checksum, so an
interruption loses only the layer in progress. Each layer is built from the stored layer below, so a
resumed build gives the same bytes as an uninterrupted one."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel import kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.table.fileformat import TableError, rules_fields
from strategies.table.win_count import point_unit, tie_of
from strategies.table.win_format import (
    DATA_OFFSET,
    FORMAT_VERSION,
    WinLayer,
    encode_header,
    layer_crc,
    layer_parts,
    map_layer,
    read_win_header,
    win_fingerprint,
    write_win_header,
)

CHUNK = 1 << 18
# on_progress(layer, states of the layer done, the layer's size, states/s so far)
Progress = Callable[[int, int, int, float], None]


def _start(path: Path, config: RulesConfig, top: int, sizes: list[int]) -> dict[str, Any]:
    if path.exists():
        header = read_win_header(path)
        if header.get("fingerprint") != win_fingerprint(config):
            raise TableError(f"{path} holds a win table for other rules; choose another --out or delete it")
        header["top"] = max(top, header["top"])
        end = header["layers"][header["done"] - 1]["end"] if header["done"] else DATA_OFFSET
        with path.open("r+b") as file:
            file.truncate(end)  # anything past the last finished layer is an interrupted one
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "objective": "win",
            "dtype": "uint16 little-endian, P(win) * 65535",
            "rules": rules_fields(config),
            "fingerprint": win_fingerprint(config),
            "unit": point_unit(config),
            "sizes": sizes,
            "top": top,
            "done": 0,
            "layers": [],
        }
        with path.open("wb") as file:
            file.write(encode_header(header))
    write_win_header(path, header)
    return header


def build_win_table(
    path: Path,
    config: RulesConfig = DEFAULT_RULES,
    *,
    top: int | None = None,
    workers: int = 2,
    on_progress: Progress | None = None,
    chunk: int = CHUNK,
) -> dict[str, Any]:
    """Build (or resume, or extend to `top`) the win table at `path`; returns the final header."""
    import numba

    from strategies.kernel.win_layers import block_offsets, value_pass
    from strategies.kernel.win_swing import swing_pass

    tables = kernel_tables(config)
    sizes = layer_sizes(tables)
    top = len(sizes) - 1 if top is None else min(top, len(sizes) - 1)
    if top < 1:
        raise ValueError("a win table holds at least layer 1")
    numba.set_num_threads(max(1, min(workers, getattr(numba.config, "NUMBA_NUM_THREADS", 2))))
    header = _start(path, config, top, sizes)
    unit: int = header["unit"]
    done: int = header["done"]
    below = WinLayer(
        np.zeros(1, dtype=np.int16),
        np.zeros(1, dtype=np.int16),
        np.zeros(2, dtype=np.int64),
        np.zeros(1, dtype=np.uint16),
    )
    if done >= 1:
        mapped = map_layer(path, header, done)
        if layer_crc(mapped.arrays()) != header["layers"][done - 1]["crc32"]:
            raise TableError(f"{path}: finished layer {done} fails its checksum; delete the file and build again")
        below = WinLayer(*(np.array(part) for part in mapped.arrays()))
    for d in range(done + 1, header["top"] + 1):
        began = time.perf_counter()
        cpu_began = time.process_time()
        size = sizes[d]
        tie = tie_of(config, d)
        g = np.empty(size, dtype=np.int16)
        h = np.empty(size, dtype=np.int16)
        for start in range(0, size, 4 * chunk):
            stop = min(size, start + 4 * chunk)
            swing_pass(tables.blob, d, below.g, below.h, g[start:stop], h[start:stop], start)
        offsets = block_offsets(g, h, tie, unit)
        values = np.zeros(int(offsets[-1]), dtype=np.uint16)
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            value_pass(tables.blob, d, tie, unit, WinLayer(g, h, offsets, values), below, start, stop)
            if on_progress:
                on_progress(d, stop, size, stop / max(1e-9, time.perf_counter() - began))
        layer = WinLayer(g, h, offsets, values)
        at = header["layers"][d - 2]["end"] if d > 1 else DATA_OFFSET
        parts = layer_parts(at, size, values.shape[0])
        with path.open("r+b") as file:
            for name, array in zip(("g", "h", "offsets", "values"), layer.arrays(), strict=True):
                file.seek(parts[name][0])
                file.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
            file.truncate(parts["end"][0])
            file.flush()
            os.fsync(file.fileno())
        header["layers"].append(
            {
                "at": at,
                "end": parts["end"][0],
                "values": int(values.shape[0]),
                "crc32": layer_crc(layer.arrays()),
                "seconds": round(time.perf_counter() - began, 3),
                # CPU time of all threads: on a shared machine the wall time says more about the neighbours.
                "cpu_seconds": round(time.process_time() - cpu_began, 3),
            }
        )
        header["done"] = d
        write_win_header(path, header)
        below = layer
    return header
