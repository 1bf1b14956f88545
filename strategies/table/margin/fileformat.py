"""The margin table on disk: a checked header, then float32 values of layers 1..top, memory-mapped at use.

Layout: two header slots of SLOT bytes, then, from DATA_OFFSET, the values of layer 1, 2, ..., each
in canonical-index order (strategies.kernel.tables) as little-endian float32. Layer 0 (the round is
over) is not stored. A slot is MAGIC (8 bytes), the format version, a sequence number, the header's
length and a CRC-32 of sequence and header (four little-endian uint32), then the header as JSON.
A build writes each new header into the slot not holding the newest one, so a crash while writing
leaves the previous header whole; a reader takes the valid slot with the higher sequence number.

The header names the rules (and their fingerprint), the kernel's indexing scheme and move order (its
fingerprint, strategies.kernel.scheme), the layer sizes, how many layers are finished and each
finished layer's CRC-32. A file for other rules or another kernel, of another format, unfinished,
truncated, failing a checksum or with a malformed header is refused with a one-line reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np
import platformdirs
from numpy.typing import NDArray

from rummy import DEFAULT_RULES, RulesConfig, bounded_json
from strategies.kernel import kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.table.disk.files import MARGIN_COST, SOLVE_BUILDS, TableError, read_head, rules_fields

MAGIC = b"RVMARGIN"
FORMAT_VERSION = 2
SLOT = 1 << 15
DATA_OFFSET = 2 * SLOT
PREAMBLE = struct.Struct("<8sIIII")
VALUE_DTYPE = "<f4"
BUILD_HINT = (
    f"build it with `rummy-vision solve --margin-only` ({MARGIN_COST}); plain `rummy-vision solve` builds "
    f"{SOLVE_BUILDS}"
)


def fingerprint(config: RulesConfig) -> str:
    """The rules' fingerprint (it names the default file)."""
    text = json.dumps({"objective": "margin", "rules": rules_fields(config)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def kernel_fingerprint(config: RulesConfig) -> str:
    """How this kernel numbers the states and moves of `config` (see strategies.kernel.scheme)."""
    # kernel.scheme loads numba (~0.7 s), not wanted when the registry is imported
    from strategies.kernel.scheme import kernel_fingerprint as compute

    return compute(config)


def kernel_sizes(config: RulesConfig) -> list[int]:
    return layer_sizes(kernel_tables(config))


def default_table_path(config: RulesConfig = DEFAULT_RULES) -> Path:
    chosen = os.environ.get("RUMMY_VISION_TABLE")
    if chosen and config == DEFAULT_RULES:
        return Path(chosen)
    return Path(platformdirs.user_data_dir("rummy-vision")) / "tables" / f"margin-{fingerprint(config)[:16]}.rvt"


def layer_offsets(sizes: list[int]) -> list[int]:
    """Byte offset of each stored layer d = 1.. (index d-1) from the start of the file."""
    offsets = []
    at = DATA_OFFSET
    for size in sizes[1:]:
        offsets.append(at)
        at += 4 * size
    offsets.append(at)  # the end
    return offsets


def encode_header(header: dict[str, Any], sequence: int) -> bytes:
    """One header slot (SLOT bytes) holding `header` as its `sequence`-th version."""
    body = json.dumps(header, sort_keys=True).encode()
    crc = zlib.crc32(struct.pack("<I", sequence) + body)
    blob = PREAMBLE.pack(MAGIC, FORMAT_VERSION, sequence, len(body), crc) + body
    if len(blob) > SLOT:
        raise ValueError("table header too long")
    return blob + b"\0" * (SLOT - len(blob))


def write_header(path: Path, header: dict[str, Any], sequence: int) -> None:
    """Write `header` as version `sequence` into the slot the newest valid header is not in, and sync."""
    with path.open("r+b") as file:
        file.seek(SLOT * (sequence % 2))
        file.write(encode_header(header, sequence))
        file.flush()
        os.fsync(file.fileno())


def _slot(blob: bytes) -> tuple[int, dict[str, Any] | None, str]:
    """(sequence, header, problem) of one slot; header None when the slot is unusable."""
    if len(blob) < PREAMBLE.size or blob[:8] != MAGIC:
        return 0, None, "wrong magic bytes"
    _magic, version, sequence, length, crc = PREAMBLE.unpack_from(blob)
    if version != FORMAT_VERSION:
        return 0, None, f"format {version}"
    body = blob[PREAMBLE.size : PREAMBLE.size + length]
    if len(body) != length or zlib.crc32(struct.pack("<I", sequence) + body) != crc:
        return 0, None, "corrupted"
    try:
        header = bounded_json.loads(body, max_depth=8)  # a header nests three levels
    except ValueError:
        return 0, None, "not JSON"
    if not isinstance(header, dict):
        return 0, None, "not a JSON object"
    return sequence, header, ""


def read_header_version(path: Path) -> tuple[dict[str, Any], int]:
    """The newest valid header of the table at `path` and its sequence number; TableError says why not."""
    blob = read_head(path, DATA_OFFSET, "perfect-play table", BUILD_HINT)
    if blob[:8] != MAGIC:
        raise TableError(f"{path} is not a perfect-play table (wrong magic bytes)")
    version = struct.unpack_from("<I", blob, 8)[0] if len(blob) >= 12 else 0
    if version != FORMAT_VERSION:
        raise TableError(f"{path} has table format {version}, this version reads {FORMAT_VERSION}; {BUILD_HINT}")
    slots = [_slot(blob[i * SLOT : (i + 1) * SLOT]) for i in range(2)]
    usable = [(sequence, header) for sequence, header, _problem in slots if header is not None]
    if not usable:
        raise TableError(f"{path}: the header is truncated or corrupted; delete it and {BUILD_HINT}")
    sequence, header = max(usable, key=lambda pair: pair[0])
    problem = header_problem(header)
    if problem:
        raise TableError(f"{path}: the header is malformed ({problem}); delete it and {BUILD_HINT}")
    return header, sequence


def read_header(path: Path) -> dict[str, Any]:
    return read_header_version(path)[0]


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def header_problem(header: dict[str, Any]) -> str:
    """What is wrong with a header's fields, in words; empty when every field is usable."""
    for key, kind in (("fingerprint", str), ("kernel", str), ("rules", dict), ("sizes", list), ("crc32", list)):
        if not isinstance(header.get(key), kind):
            return f"{key!r} is missing or not a {kind.__name__}"
    if header.get("objective") != "margin":
        return f"objective is {header.get('objective')!r}, not 'margin'"
    sizes = header["sizes"]
    if len(sizes) < 2 or not all(_is_int(size) and size >= 0 for size in sizes):
        return "'sizes' is not a list of at least two non-negative integers"
    top, done = header.get("top"), header.get("done")
    if not _is_int(top) or not 1 <= top < len(sizes):
        return f"'top' is {top!r}, not a layer 1..{len(sizes) - 1}"
    if not _is_int(done) or not 0 <= done <= top:
        return f"'done' is {done!r}, not 0..{top}"
    crcs = header["crc32"]
    if len(crcs) != done or not all(_is_int(crc) and 0 <= crc < 1 << 32 for crc in crcs):
        return f"'crc32' does not hold one 32-bit checksum for each of the {done} finished layers"
    for key in ("seconds", "cpu_seconds"):
        values = header.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, int | float) for v in values):
            return f"{key!r} is not a list of numbers"
    return ""


def layer_crc(values: NDArray[np.float32]) -> int:
    """The CRC-32 of a layer's little-endian float32 bytes (as stored)."""
    return zlib.crc32(np.ascontiguousarray(values, dtype=VALUE_DTYPE).data)


def file_stamp(path: Path) -> tuple[int, int, int]:
    """What changes when a file is replaced or written: its inode, size and modification time."""
    stat = path.stat()
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


@dataclass(frozen=True)
class MarginTable:
    """Exact margin values by layer; `layers[d]` is indexed by canonical index (layer 0 is empty)."""

    path: Path
    config: RulesConfig
    top: int  # the deepest layer stored: positions with up to top + 1 turns left can be played
    layers: tuple[NDArray[np.float32], ...]
    header: dict[str, Any]
    stamp: tuple[int, int, int] = field(default=(0, 0, 0), compare=False)  # file_stamp when loaded

    def covers(self, turns_left: int) -> bool:
        return turns_left - 1 <= self.top

    def check_unchanged(self) -> None:
        """Refuse to read values from a file that was written or replaced since it was checked."""
        try:
            now = file_stamp(self.path)
        except OSError:
            now = (0, 0, 0)
        if now != self.stamp:
            raise TableError(f"{self.path} changed on disk after it was loaded and checked; load it again")


def check_header(path: Path, header: dict[str, Any], config: RulesConfig) -> None:
    """Refuse a header for other rules, another kernel or unfinished (fields already validated)."""
    if header["fingerprint"] != fingerprint(config):
        raise TableError(f"{path} was built for other rules ({header['rules']}), not these")
    if header["kernel"] != kernel_fingerprint(config) or header["sizes"] != kernel_sizes(config):
        raise TableError(
            f"{path} was built by another version of the kernel (its state indexing or move order differ); "
            f"delete it and {BUILD_HINT}"
        )
    if header["done"] < header["top"]:
        raise TableError(
            f"{path} is an unfinished build ({header['done']} of {header['top']} layers); "
            f"resume it with `rummy-vision solve --top {header['top']}` (the command that started it)"
        )


def load_table(
    path: Path | None = None, config: RulesConfig = DEFAULT_RULES, *, verify: bool = True, unfinished_ok: bool = False
) -> MarginTable:
    """Memory-map a finished table for `config`; refuse anything else with a TableError.

    `unfinished_ok` reads the finished layers of a build still in progress (for measurements)."""
    path = Path(path) if path is not None else default_table_path(config)
    try:
        # Checked once per process and file version (a rebuilt, extended or rewritten file is checked again).
        stamp = file_stamp(path)
    except OSError:
        stamp = (0, 0, 0)
    return _load(path, stamp, config, verify, unfinished_ok)


@lru_cache(maxsize=8)
def _load(
    path: Path, stamp: tuple[int, int, int], config: RulesConfig, verify: bool, unfinished_ok: bool
) -> MarginTable:
    header = read_header(path)
    if unfinished_ok:
        header["top"] = header["done"]
    check_header(path, header, config)
    sizes: list[int] = header["sizes"]
    top: int = header["top"]
    offsets = layer_offsets(sizes[: top + 1])
    expected = offsets[-1]
    actual = path.stat().st_size
    if actual < expected:
        raise TableError(f"{path} is truncated ({actual} bytes, expected {expected}); {BUILD_HINT}")
    data = np.memmap(path, dtype=VALUE_DTYPE, mode="r", offset=DATA_OFFSET, shape=((expected - DATA_OFFSET) // 4,))
    nothing = np.zeros(0, dtype=VALUE_DTYPE)
    nothing.setflags(write=False)  # like the mapped layers, so compiled code sees one array type
    layers: list[NDArray[np.float32]] = [nothing]
    for d in range(1, top + 1):
        start = (offsets[d - 1] - DATA_OFFSET) // 4
        layer = data[start : start + sizes[d]]
        if verify and layer_crc(layer) != header["crc32"][d - 1]:
            raise TableError(f"{path}: layer {d} fails its checksum (the file is corrupted); {BUILD_HINT}")
        layers.append(layer)
    return MarginTable(path, config, top, tuple(layers), header, stamp)
