"""Build the margin table layer by layer, resumably: a finished layer is on disk with its checksum, so an
interruption loses only the layer in progress."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Literal, Unpack

import numpy as np
from numpy.typing import NDArray

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel import kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.table.disk.files import TableError
from strategies.table.disk.layered import (
    BuildOptions,
    Timing,
    build_layers,
    check_finished,
    in_chunks,
    new_header,
    prepare,
)
from strategies.table.margin.fileformat import (
    FORMAT_VERSION,
    SLOT,
    VALUE_DTYPE,
    encode_header,
    fingerprint,
    kernel_fingerprint,
    layer_crc,
    layer_offsets,
    read_header_version,
    write_header,
)

CHUNK = 1 << 20
Table = NDArray[np.float32]


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
        kind = {"format": FORMAT_VERSION, "objective": "margin", "dtype": "float32 little-endian"}
        checks = {"fingerprint": fingerprint(config), "kernel": kernel_fingerprint(config)}
        header = new_header(config, sizes, top, **kind, **checks, crc32=[], seconds=[], cpu_seconds=[])
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


def build_table(path: Path, config: RulesConfig = DEFAULT_RULES, **options: Unpack[BuildOptions]) -> dict[str, Any]:
    """Build (or resume, or extend to `top`) the margin table at `path`; returns the final header."""
    # loads numba (~0.3 s): `solve` plans the sizes without it
    from strategies.kernel.layers import chance_pass, value_pass

    tables, sizes, top = prepare(config, **options)
    on_progress = options.get("on_progress")
    chunk = options.get("chunk", CHUNK)
    header, sequence = _start(path, config, top, sizes)
    done: int = header["done"]
    below = np.zeros(1, dtype=np.float32)
    if done >= 1:
        below = np.array(_layer(path, sizes, done, "r"))
        check_finished(path, done, layer_crc(below), header["crc32"][done - 1])

    def build(d: int, below: Table) -> Table:
        began = time.perf_counter()
        size = sizes[d]
        here = np.empty(size, dtype=np.float64)
        out = np.empty(size, dtype=np.float32)

        def chance(start: int, stop: int) -> None:
            chance_pass(tables.blob, d, below, here[start:stop], start)

        def value(start: int, stop: int) -> None:
            value_pass(tables.blob, d, here, out[start:stop], start)

        def progress(finished: int) -> None:
            if on_progress:
                on_progress(d, finished, 2 * size, finished / max(1e-9, time.perf_counter() - began))

        in_chunks(size, chunk, chance, progress)
        in_chunks(size, chunk, value, lambda stop: progress(size + stop))
        return out

    def write(d: int, out: Table) -> None:
        stored = _layer(path, sizes, d, "r+")
        stored[:] = out
        stored.flush()

    def record(d: int, out: Table, timing: Timing) -> None:
        nonlocal sequence
        header["crc32"].append(layer_crc(out))
        header["seconds"].append(timing["seconds"])
        header.setdefault("cpu_seconds", []).append(timing["cpu_seconds"])
        header["done"] = d
        sequence += 1
        write_header(path, header, sequence)

    build_layers(done + 1, header["top"], below, build, write, record)
    return header
