"""Build the margin table layer by layer, resumably: a finished layer is on disk with its checksum, so an
interruption loses only the layer in progress."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel import kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.table.fileformat import (
    FORMAT_VERSION,
    SLOT,
    VALUE_DTYPE,
    TableError,
    encode_header,
    fingerprint,
    kernel_fingerprint,
    layer_crc,
    layer_offsets,
    read_header_version,
    rules_fields,
    write_header,
)

CHUNK = 1 << 20
# on_progress(layer, states of the layer done in both passes, 2 * the layer's size, states/s so far)
Progress = Callable[[int, int, int, float], None]


def planned_sizes(config: RulesConfig = DEFAULT_RULES) -> list[int]:
    return layer_sizes(kernel_tables(config))


def table_bytes(config: RulesConfig = DEFAULT_RULES, top: int | None = None) -> int:
    sizes = planned_sizes(config)
    top = len(sizes) - 1 if top is None else top
    return layer_offsets(sizes[: top + 1])[-1]


def _start(path: Path, config: RulesConfig, top: int, sizes: list[int]) -> tuple[dict[str, Any], int]:
    """A new file, or the header (and its sequence number) of the unfinished or shorter build at `path`
    to continue."""
    if path.exists():
        header, sequence = read_header_version(path)
        if header["fingerprint"] != fingerprint(config):
            raise TableError(f"{path} holds a table for other rules; choose another --out or delete it")
        if header["kernel"] != kernel_fingerprint(config) or header["sizes"] != sizes:
            raise TableError(
                f"{path} was built by another version of the kernel (its state indexing or move order differ); "
                "choose another --out or delete it"
            )
        header["top"] = max(top, header["top"])
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "objective": "margin",
            "dtype": "float32 little-endian",
            "rules": rules_fields(config),
            "fingerprint": fingerprint(config),
            "kernel": kernel_fingerprint(config),
            "sizes": sizes,
            "top": top,
            "done": 0,
            "crc32": [],
            "seconds": [],
            "cpu_seconds": [],
        }
        sequence = 1
        with path.open("wb") as file:
            file.write(encode_header(header, sequence) + bytes(SLOT))
    end = layer_offsets(sizes[: header["top"] + 1])[-1]
    with path.open("r+b") as file:
        file.truncate(max(end, file.seek(0, os.SEEK_END)))
    sequence += 1
    write_header(path, header, sequence)
    return header, sequence


def _layer(path: Path, sizes: list[int], d: int, mode: Literal["r", "r+"]) -> np.memmap[Any, np.dtype[np.float32]]:
    offset = layer_offsets(sizes[: d + 1])[d - 1]
    return np.memmap(path, dtype=VALUE_DTYPE, mode=mode, offset=offset, shape=(sizes[d],))


def build_table(
    path: Path,
    config: RulesConfig = DEFAULT_RULES,
    *,
    top: int | None = None,
    workers: int = 2,
    on_progress: Progress | None = None,
    chunk: int = CHUNK,
) -> dict[str, Any]:
    """Build (or resume, or extend to `top`) the margin table at `path`; returns the final header."""
    import numba

    from strategies.kernel.layers import chance_pass, value_pass

    tables = kernel_tables(config)
    sizes = layer_sizes(tables)
    top = len(sizes) - 1 if top is None else min(top, len(sizes) - 1)
    if top < 1:
        raise ValueError("a table holds at least layer 1")
    numba.set_num_threads(max(1, min(workers, getattr(numba.config, "NUMBA_NUM_THREADS", 2))))
    header, sequence = _start(path, config, top, sizes)
    done: int = header["done"]
    below = np.zeros(1, dtype=np.float32)
    if done >= 1:
        below = np.array(_layer(path, sizes, done, "r"))
        if layer_crc(below) != header["crc32"][done - 1]:
            raise TableError(f"{path}: finished layer {done} fails its checksum; delete the file and build again")
    for d in range(done + 1, header["top"] + 1):
        began = time.perf_counter()
        cpu_began = time.process_time()
        size = sizes[d]
        here = np.empty(size, dtype=np.float64)
        out = np.empty(size, dtype=np.float32)
        finished = 0
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            chance_pass(tables.blob, d, below, here[start:stop], start)
            finished += stop - start
            if on_progress:
                on_progress(d, finished, 2 * size, finished / max(1e-9, time.perf_counter() - began))
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            value_pass(tables.blob, d, here, out[start:stop], start)
            finished += stop - start
            if on_progress:
                on_progress(d, finished, 2 * size, finished / max(1e-9, time.perf_counter() - began))
        stored = _layer(path, sizes, d, "r+")
        stored[:] = out
        stored.flush()
        del stored, here
        header["crc32"].append(layer_crc(out))
        header["seconds"].append(round(time.perf_counter() - began, 3))
        # CPU time of all threads: on a shared machine the wall time says more about the neighbours.
        header.setdefault("cpu_seconds", []).append(round(time.process_time() - cpu_began, 3))
        header["done"] = d
        sequence += 1
        write_header(path, header, sequence)
        below = out
    return header
