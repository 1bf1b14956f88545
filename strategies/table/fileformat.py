"""The margin table on disk: a checked header, then float32 values of layers 1..top, memory-mapped at use.

Layout: MAGIC (8 bytes), format version, header length and the header's CRC-32 (three little-endian
uint32), the header as JSON, zero padding up to DATA_OFFSET; then the values of layer 1, 2, ...,
each in canonical-index order (strategies.kernel.tables). Layer 0 (the round is over) is not stored.
The header names the rules (and their fingerprint), the layer sizes, how many layers are finished
and each finished layer's CRC-32. A file for other rules, of another format, unfinished, truncated
or failing a checksum is refused with a one-line reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rummy import DEFAULT_RULES, RulesConfig

MAGIC = b"RVMARGIN"
FORMAT_VERSION = 1
DATA_OFFSET = 1 << 16
PREAMBLE = struct.Struct("<8sIII")
BUILD_HINT = "build it with `rummy-vision solve` (about 4 CPU minutes, 1.1 GB)"


class TableError(ValueError):
    """A table that cannot be used; the message is one line saying why."""


def rules_fields(config: RulesConfig) -> dict[str, Any]:
    """The options that change values (the catalog only names the types)."""
    fields = dataclasses.asdict(config)
    fields.pop("catalog")
    return {key: [list(pair) for pair in value] if isinstance(value, tuple) else value for key, value in fields.items()}


def fingerprint(config: RulesConfig) -> str:
    text = json.dumps({"objective": "margin", "rules": rules_fields(config)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def default_table_path(config: RulesConfig = DEFAULT_RULES) -> Path:
    import os

    import platformdirs

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


def encode_header(header: dict[str, Any]) -> bytes:
    body = json.dumps(header, sort_keys=True).encode()
    blob = PREAMBLE.pack(MAGIC, FORMAT_VERSION, len(body), zlib.crc32(body)) + body
    if len(blob) > DATA_OFFSET:
        raise ValueError("table header too long")
    return blob + b"\0" * (DATA_OFFSET - len(blob))


def read_header(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            blob = file.read(DATA_OFFSET)
    except FileNotFoundError:
        raise TableError(f"no perfect-play table at {path}; {BUILD_HINT}") from None
    except OSError as error:
        raise TableError(f"cannot read the table {path}: {error.strerror}") from None
    if len(blob) < PREAMBLE.size or blob[:8] != MAGIC:
        raise TableError(f"{path} is not a perfect-play table (wrong magic bytes)")
    _magic, version, length, crc = PREAMBLE.unpack_from(blob)
    if version != FORMAT_VERSION:
        raise TableError(f"{path} has table format {version}, this version reads {FORMAT_VERSION}; {BUILD_HINT}")
    body = blob[PREAMBLE.size : PREAMBLE.size + length]
    if len(body) != length or zlib.crc32(body) != crc:
        raise TableError(f"{path}: the header is truncated or corrupted; delete it and {BUILD_HINT}")
    header: dict[str, Any] = json.loads(body)
    return header


def layer_crc(values: NDArray[np.float32]) -> int:
    return zlib.crc32(np.ascontiguousarray(values).data)


@dataclass(frozen=True)
class MarginTable:
    """Exact margin values by layer; `layers[d]` is indexed by canonical index (layer 0 is empty)."""

    path: Path
    config: RulesConfig
    top: int  # the deepest layer stored: positions with up to top + 1 turns left can be played
    layers: tuple[NDArray[np.float32], ...]
    header: dict[str, Any]

    def covers(self, turns_left: int) -> bool:
        return turns_left - 1 <= self.top


def check_header(path: Path, header: dict[str, Any], config: RulesConfig) -> None:
    if header.get("fingerprint") != fingerprint(config):
        raise TableError(f"{path} was built for other rules ({header.get('rules')}), not these")
    if header.get("done", 0) < header.get("top", -1):
        raise TableError(
            f"{path} is an unfinished build ({header.get('done')} of {header.get('top')} layers); "
            "resume it with `rummy-vision solve`"
        )


def load_table(
    path: Path | None = None, config: RulesConfig = DEFAULT_RULES, *, verify: bool = True, unfinished_ok: bool = False
) -> MarginTable:
    """Memory-map a finished table for `config`; refuse anything else with a TableError.

    `unfinished_ok` reads the finished layers of a build still in progress (for measurements)."""
    path = Path(path) if path is not None else default_table_path(config)
    try:
        stat = path.stat()
        # Checked once per process and file version (a rebuilt or extended file is checked again).
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, 0)
    return _load(path, version, config, verify, unfinished_ok)


@lru_cache(maxsize=8)
def _load(path: Path, version: tuple[int, int], config: RulesConfig, verify: bool, unfinished_ok: bool) -> MarginTable:
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
    data = np.memmap(path, dtype="<f4", mode="r", offset=DATA_OFFSET, shape=((expected - DATA_OFFSET) // 4,))
    nothing = np.zeros(0, dtype=np.float32)
    nothing.setflags(write=False)  # like the mapped layers, so compiled code sees one array type
    layers: list[NDArray[np.float32]] = [nothing]
    for d in range(1, top + 1):
        start = (offsets[d - 1] - DATA_OFFSET) // 4
        layer = data[start : start + sizes[d]]
        if verify and layer_crc(layer) != header["crc32"][d - 1]:
            raise TableError(f"{path}: layer {d} fails its checksum (the file is corrupted); {BUILD_HINT}")
        layers.append(layer)
    return MarginTable(path, config, top, tuple(layers), header)
