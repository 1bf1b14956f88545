"""The win table on disk: a checked header, then layers 1..top, memory-mapped at use.

Layout: MAGIC (8 bytes), format version, header length and the header's CRC-32 (three little-endian
uint32), the header as JSON, zero padding up to DATA_OFFSET; then each finished layer d at the byte
offset the header names: G and H (int16, one per state in canonical-index order), the offsets of
every BLOCK-th state's values (int64, then the layer's total), and the values (uint16: P(win) *
65535), each part starting on an 8-byte boundary, all little-endian. The header names the rules
and their fingerprint, the layer sizes, each finished layer's offset, value count and CRC-32.
A file for other rules, of another format, truncated or failing a checksum is refused with a one-line
reason; an unfinished build (interrupted, or resumed and still running) gives its finished layers.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

import numpy as np
import platformdirs
from numpy.typing import NDArray

from rummy import DEFAULT_RULES, RulesConfig, bounded_json
from strategies.kernel.win_layers import BLOCK
from strategies.table.disk.files import TableError, read_head, rules_fields
from strategies.table.win.reach import KEPT_BOUND, LaidBound

MAGIC = b"RVWINTAB"
FORMAT_VERSION = 2
BOUNDED = "laid sets"
LAYOUTS = (BOUNDED, "none")
DATA_OFFSET = 1 << 16
PREAMBLE = struct.Struct("<8sIII")
BUILD_HINT = (
    "build it with `rummy-vision solve` (after the margin table, 1.1 GB and a few CPU minutes, the win table: "
    "2.73 GB, about 22 CPU minutes)"
)


class NotReachable(TableError):
    """The win table does not keep this banked difference: no deal reaches it (solve it on demand)."""


def win_fingerprint(config: RulesConfig, bound: str = BOUNDED) -> str:
    if bound not in LAYOUTS:
        raise ValueError(f"unknown win table bound {bound!r}; choose one of {', '.join(LAYOUTS)}")
    kept = KEPT_BOUND if bound == BOUNDED else "every difference of the window"
    fields = {"objective": "win", "block": BLOCK, "rules": rules_fields(config), "kept": kept}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def default_win_table_path(config: RulesConfig = DEFAULT_RULES) -> Path:
    chosen = os.environ.get("RUMMY_VISION_WIN_TABLE")
    if chosen and config == DEFAULT_RULES:
        return Path(chosen)
    return Path(platformdirs.user_data_dir("rummy-vision")) / "tables" / f"win-{win_fingerprint(config)[:16]}.rvw"


NO_BOUND = np.zeros((0, 1), dtype=np.int16)


def bound_prefixes(config: RulesConfig, bound: str, top: int) -> list[NDArray[np.int16]]:
    """The prefix counts of the layout's bound for layers 0..top (strategies.kernel.win_layers)."""
    if bound != BOUNDED:
        return [NO_BOUND] * (top + 1)
    laid = LaidBound(config)
    return [laid.prefix(d) for d in range(top + 1)]


def _align(at: int) -> int:
    return (at + 7) // 8 * 8


def layer_parts(at: int, states: int, values: int) -> dict[str, tuple[int, int]]:
    """Byte offset and element count of a layer's parts, the layer starting at byte `at`."""
    parts = {}
    for name, count, width in (
        ("g", states, 2),
        ("h", states, 2),
        ("counts", states, 1),
        ("offsets", (states + BLOCK - 1) // BLOCK + 1, 8),
        ("values", values, 2),
    ):
        parts[name] = (at, count)
        at = _align(at + count * width)
    parts["end"] = (at, 0)
    return parts


def encode_header(header: dict[str, Any]) -> bytes:
    body = json.dumps(header, sort_keys=True).encode()
    blob = PREAMBLE.pack(MAGIC, FORMAT_VERSION, len(body), zlib.crc32(body)) + body
    if len(blob) > DATA_OFFSET:
        raise ValueError("win table header too long")
    return blob + b"\0" * (DATA_OFFSET - len(blob))


def read_win_header(path: Path) -> dict[str, Any]:
    blob = read_head(path, DATA_OFFSET, "win table", BUILD_HINT)
    if len(blob) < PREAMBLE.size or blob[:8] != MAGIC:
        raise TableError(f"{path} is not a win table (wrong magic bytes)")
    _magic, version, length, crc = PREAMBLE.unpack_from(blob)
    if version != FORMAT_VERSION:
        raise TableError(f"{path} has win table format {version}, this version reads {FORMAT_VERSION}; {BUILD_HINT}")
    body = blob[PREAMBLE.size : PREAMBLE.size + length]
    if len(body) != length or zlib.crc32(body) != crc:
        raise TableError(f"{path}: the header is truncated or corrupted; delete it and {BUILD_HINT}")
    try:
        header = bounded_json.loads(body, max_depth=MAX_HEADER_DEPTH)
    except ValueError as error:
        raise TableError(f"{path}: the header is not JSON ({error}); delete it and {BUILD_HINT}") from None
    problem = win_header_problem(header)
    if problem:
        raise TableError(f"{path}: the header is malformed ({problem}); delete it and {BUILD_HINT}")
    checked: dict[str, Any] = header
    return checked


MAX_HEADER_DEPTH = 8  # the header nests four levels (layers, their timings)
MAX_STATES = 1 << 40  # far more states or values than a layer of any rules has


def _whole(value: Any, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def win_header_problem(header: Any) -> str:
    """What is wrong with a win table header's fields, in words; empty when every field is usable, its
    layers lie one after the other from DATA_OFFSET and each is as long as its sizes say."""
    if not isinstance(header, dict):
        return f"a {type(header).__name__}, not a JSON object"
    for key, kind in (("fingerprint", str), ("bound", str), ("sizes", list), ("layers", list)):
        if not isinstance(header.get(key), kind):
            return f"{key!r} is missing or not a {kind.__name__}"
    sizes = header["sizes"]
    if len(sizes) < 2 or len(sizes) > 1000 or not all(_whole(size, 0, MAX_STATES) for size in sizes):
        return "'sizes' is not a list of at least two non-negative integers"
    top, done = header.get("top"), header.get("done")
    if not _whole(top, 1, len(sizes) - 1):
        return f"'top' is {str(top)[:20]}, not a layer 1..{len(sizes) - 1}"
    if not _whole(done, 0, top):
        return f"'done' is {str(done)[:20]}, not 0..{top}"
    if not _whole(header.get("unit"), 1, 1 << 30):
        return "'unit' is not a positive integer"
    layers = header["layers"]
    if len(layers) < done:
        return f"'layers' does not describe each of the {done} finished layers"
    at = DATA_OFFSET
    for d, info in enumerate(layers[:done], start=1):
        if not isinstance(info, dict):
            return f"layer {d} is not a JSON object"
        for key in ("at", "end", "values", "crc32", "bound_crc32"):
            if not _whole(info.get(key), 0, (1 << 32) - 1 if "crc" in key else 1 << 62):
                return f"layer {d}'s {key!r} is missing or out of range"
        if info["at"] != at or info["values"] > MAX_STATES:
            return f"layer {d} does not start where layer {d - 1} ends ({at})"
        at = layer_parts(at, sizes[d], info["values"])["end"][0]
        if info["end"] != at:
            return f"layer {d} ends at {info['end']}, but its parts end at {at}"
    return ""


def write_win_header(path: Path, header: dict[str, Any]) -> None:
    with path.open("r+b") as file:
        file.write(encode_header(header))
        file.flush()
        os.fsync(file.fileno())


def layer_crc(parts: list[NDArray[Any]]) -> int:
    crc = 0
    for part in parts:
        crc = zlib.crc32(np.ascontiguousarray(part).data, crc)
    return crc


class WinLayer(NamedTuple):
    """One layer's arrays (memory-mapped or in memory) and its bound's prefix counts (rebuilt from the
    rules, never stored); the kernel takes it as one tuple."""

    g: NDArray[np.int16]
    h: NDArray[np.int16]
    counts: NDArray[np.uint8]
    offsets: NDArray[np.int64]
    values: NDArray[np.uint16]
    prefix: NDArray[np.int16]

    def arrays(self) -> list[NDArray[Any]]:
        """The parts stored on disk, in file order."""
        return [self.g, self.h, self.counts, self.offsets, self.values]

    def in_memory(self) -> WinLayer:
        """A copy read into memory (the build's layer below)."""
        g, h, counts, offsets, values = (np.array(part) for part in self.arrays())
        return WinLayer(g, h, counts, offsets, values, self.prefix)


def empty_layer() -> WinLayer:
    """Layer 0: no state keeps a value (the round is over)."""
    one = np.zeros(1, dtype=np.int16)
    return WinLayer(
        one, one, np.zeros(1, dtype=np.uint8), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.uint16), NO_BOUND
    )


PART_TYPES = (("g", "<i2"), ("h", "<i2"), ("counts", "u1"), ("offsets", "<i8"), ("values", "<u2"))


def map_layer(path: Path, header: dict[str, Any], d: int, prefix: NDArray[np.int16], mode: str = "r") -> WinLayer:
    info = header["layers"][d - 1]
    parts = layer_parts(info["at"], header["sizes"][d], info["values"])
    arrays = []
    for name, dtype in PART_TYPES:
        at, count = parts[name]
        if count == 0:
            arrays.append(np.zeros(0, dtype=dtype))
        else:
            arrays.append(np.memmap(path, dtype=dtype, mode=mode, offset=at, shape=(count,)))  # type: ignore[call-overload]
    g, h, counts, offsets, values = arrays
    return WinLayer(g, h, counts, offsets, values, prefix)


@dataclass(frozen=True)
class WinTable:
    """Exact P(win) of every open (state, banked difference) by layer; `layers[d]` (layer 0 is empty)."""

    path: Path
    config: RulesConfig
    top: int
    unit: int
    layers: tuple[WinLayer, ...]
    header: dict[str, Any]

    def covers(self, turns_left: int) -> bool:
        return turns_left - 1 <= self.top

    @property
    def whole(self) -> bool:
        """Whether it holds every layer of the round (else positions above `top` are solved on demand)."""
        return self.top >= len(self.header["sizes"]) - 1


def load_win_table(path: Path | None = None, config: RulesConfig = DEFAULT_RULES, *, verify: bool = True) -> WinTable:
    """Memory-map a finished win table for `config`; refuse anything else with a TableError."""
    path = Path(path) if path is not None else default_win_table_path(config)
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, 0)
    return _load(path, version, config, verify)


@lru_cache(maxsize=8)
def _load(path: Path, version: tuple[int, int], config: RulesConfig, verify: bool) -> WinTable:
    header = read_win_header(path)
    bound = header.get("bound")
    if bound not in LAYOUTS or header.get("fingerprint") != win_fingerprint(config, bound):
        raise TableError(
            f"{path} was built for other rules ({header.get('rules')}) or another bound ({bound}), not these"
        )
    # An interrupted build is used up to its last finished layer: each is checked and exact on its own.
    top: int = header.get("done", 0)
    end = header["layers"][top - 1]["end"] if top else DATA_OFFSET
    if version[1] < end:
        raise TableError(f"{path} is truncated ({version[1]} bytes, expected {end}); {BUILD_HINT}")
    prefixes = bound_prefixes(config, bound, top)
    layers = [empty_layer()]
    for d in range(1, top + 1):
        layer = map_layer(path, header, d, prefixes[d])
        if verify and layer_crc(layer.arrays()) != header["layers"][d - 1]["crc32"]:
            raise TableError(f"{path}: win table layer {d} fails its checksum (the file is corrupted); {BUILD_HINT}")
        if layer_crc([prefixes[d]]) != header["layers"][d - 1]["bound_crc32"]:
            raise TableError(f"{path}: win table layer {d} was built with another laid-cards bound; {BUILD_HINT}")
        layers.append(layer)
    return WinTable(path, config, top, header["unit"], tuple(layers), header)
