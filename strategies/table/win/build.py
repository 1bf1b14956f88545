"""Build the win table layer by layer, resumably: a finished layer is on disk with its checksum, so an
interruption loses only the layer in progress. Each layer is built from the stored layer below, so a
resumed build gives the same bytes as an uninterrupted one."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any, Unpack

import numpy as np

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel.win_layers import block_offsets, kept_counts, value_pass
from strategies.kernel.win_swing import swing_pass
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
from strategies.table.win.fileformat import (
    BOUNDED,
    DATA_OFFSET,
    FORMAT_VERSION,
    PART_TYPES,
    WinLayer,
    bound_prefixes,
    empty_layer,
    encode_header,
    layer_crc,
    layer_parts,
    map_layer,
    read_win_header,
    win_fingerprint,
    write_win_header,
)
from strategies.table.win.window import point_unit, tie_of

CHUNK = 1 << 18


def _start(path: Path, config: RulesConfig, top: int, sizes: list[int], bound: str) -> dict[str, Any]:
    if path.exists():
        header = read_win_header(path)
        if header.get("fingerprint") != win_fingerprint(config, bound):
            raise TableError(
                f"{path} holds a win table for other rules or another bound; choose another --out or delete it"
            )
        header["top"] = max(top, header["top"])
        end = header["layers"][header["done"] - 1]["end"] if header["done"] else DATA_OFFSET
        with path.open("r+b") as file:
            file.truncate(end)  # anything past the last finished layer is an interrupted one
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = {"format": FORMAT_VERSION, "objective": "win", "dtype": "uint16 little-endian, P(win) * 65535"}
        fingerprint = win_fingerprint(config, bound)
        header = new_header(config, sizes, top, **kind, fingerprint=fingerprint, unit=point_unit(config), bound=bound)
        header["layers"] = []
        with path.open("wb") as file:
            file.write(encode_header(header))
    write_win_header(path, header)
    return header


def build_win_table(
    path: Path, config: RulesConfig = DEFAULT_RULES, bound: str = BOUNDED, **options: Unpack[BuildOptions]
) -> dict[str, Any]:
    """Build (or resume, or extend to `top`) the win table at `path`; returns the final header. `bound`
    "laid sets" keeps only the differences a deal can reach (strategies.table.win.reach), "none" every
    difference of each state's window."""
    tables, sizes, top = prepare(config, **options)
    on_progress = options.get("on_progress")
    chunk = options.get("chunk", CHUNK)
    header = _start(path, config, top, sizes, bound)
    unit: int = header["unit"]
    done: int = header["done"]
    prefixes = bound_prefixes(config, bound, header["top"])
    below = empty_layer()
    if done >= 1:
        mapped = map_layer(path, header, done, prefixes[done])
        check_finished(path, done, layer_crc(mapped.arrays()), header["layers"][done - 1]["crc32"])
        below = mapped.in_memory()

    build = partial(_build_layer, tables, config, sizes, prefixes, unit, chunk, on_progress)
    build_layers(
        done + 1,
        header["top"],
        below,
        build,
        lambda d, layer: _write_layer(path, header, sizes, d, layer),
        lambda d, layer, timing: _record_layer(path, header, sizes, d, layer, timing),
        options.get("on_layer"),
    )
    return header


def _build_layer(
    tables: Any,
    config: RulesConfig,
    sizes: list[int],
    prefixes: Any,
    unit: int,
    chunk: int,
    on_progress: Any,
    d: int,
    below: WinLayer,
) -> WinLayer:
    """Win layer d from layer d-1: the swing and kept-count passes, then the values, in chunks."""
    began = time.perf_counter()
    size = sizes[d]
    tie = tie_of(config, d)
    g = np.empty(size, dtype=np.int16)
    h = np.empty(size, dtype=np.int16)

    def swing(start: int, stop: int) -> None:
        swing_pass(tables.blob, d, below.g, below.h, g[start:stop], h[start:stop], start)

    in_chunks(size, 4 * chunk, swing, lambda stop: None)
    kept = np.empty(size, dtype=np.int64)

    def count(start: int, stop: int) -> None:
        kept_counts(tables.blob, d, start, g[start:stop], h[start:stop], tie, unit, prefixes[d], kept[start:stop])

    in_chunks(size, 4 * chunk, count, lambda stop: None)
    if size and int(kept.max()) > 255:
        raise TableError(f"layer {d}: a state keeps {int(kept.max())} values, more than a one-byte count holds")
    counts = kept.astype(np.uint8)
    offsets = block_offsets(counts)
    layer = WinLayer(g, h, counts, offsets, np.zeros(int(offsets[-1]), dtype=np.uint16), prefixes[d])
    missing = np.zeros(1, dtype=np.int64)

    def value(start: int, stop: int) -> None:
        value_pass(tables.blob, d, tie, unit, layer, below, start, stop, missing)

    def progress(stop: int) -> None:
        if on_progress:
            on_progress(d, stop, size, stop / max(1e-9, time.perf_counter() - began))

    in_chunks(size, chunk, value, progress)
    if missing[0]:
        raise TableError(f"layer {d}: a kept difference needs a value layer {d - 1} lacks (the bound is not closed)")
    return layer


def _write_layer(path: Path, header: dict[str, Any], sizes: list[int], d: int, layer: WinLayer) -> None:
    """Layer d's arrays into its place in the file, synced to disk."""
    parts = layer_parts(_layer_start(header, d), sizes[d], layer.values.shape[0])
    with path.open("r+b") as file:
        for (name, _dtype), array in zip(PART_TYPES, layer.arrays(), strict=True):
            file.seek(parts[name][0])
            file.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
        file.truncate(parts["end"][0])
        file.flush()
        os.fsync(file.fileno())


def _record_layer(
    path: Path, header: dict[str, Any], sizes: list[int], d: int, layer: WinLayer, timing: Timing
) -> None:
    """Note layer d (where it is, its checksums, its timings) in the header as done."""
    at = _layer_start(header, d)
    end = layer_parts(at, sizes[d], layer.values.shape[0])["end"][0]
    entry = {
        "at": at,
        "end": end,
        "values": int(layer.values.shape[0]),
        "crc32": layer_crc(layer.arrays()),
        "bound_crc32": layer_crc([layer.prefix]),
    }
    header["layers"].append(entry | timing)
    header["done"] = d
    write_win_header(path, header)


def _layer_start(header: dict[str, Any], d: int) -> int:
    return int(header["layers"][d - 2]["end"]) if d > 1 else DATA_OFFSET
