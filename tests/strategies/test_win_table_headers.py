"""Issue 41 item 7: a crafted win table header is refused with the table's own error (TableError, one line),
never a KeyError, TypeError or RecursionError out of `solve --verify` or `match perfect:table=FILE`."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from rummy import DEFAULT_RULES
from strategies.table.disk.files import TableError
from strategies.table.win.fileformat import DATA_OFFSET, MAGIC, PREAMBLE, layer_parts, load_win_table, win_fingerprint


def _write(path: Path, header: Any, *, body: bytes | None = None) -> Path:
    text = body if body is not None else json.dumps(header).encode()
    blob = PREAMBLE.pack(MAGIC, 2, len(text), zlib.crc32(text)) + text
    path.write_bytes(blob + b"\0" * (DATA_OFFSET - len(blob)) + b"\0" * 4096)
    return path


def _base() -> dict[str, Any]:
    end = layer_parts(DATA_OFFSET, 10, 5)["end"][0]
    return {
        "fingerprint": win_fingerprint(DEFAULT_RULES),
        "bound": "laid sets",
        "rules": {},
        "sizes": [1, 10, 10],
        "top": 2,
        "done": 1,
        "unit": 1,
        "layers": [{"at": DATA_OFFSET, "end": end, "values": 5, "crc32": 0, "bound_crc32": 0}],
    }


def _with(**changes: Any) -> dict[str, Any]:
    header = _base()
    header.update(changes)
    return header


def _layer(**changes: Any) -> dict[str, Any]:
    header = _base()
    header["layers"][0].update(changes)
    return header


CRAFTED: dict[str, Any] = {
    "a list": [1, 2, 3],
    "no layers": {key: value for key, value in _base().items() if key != "layers"},
    "no done": {key: value for key, value in _base().items() if key != "done"},
    "done a string": _with(done="1"),
    "sizes of strings": _with(sizes=["a", "b", "c"]),
    "layers of numbers": _with(layers=[7]),
    "no unit": {key: value for key, value in _base().items() if key != "unit"},
    "layer missing its end": _layer(end=None),
    "oversized layer": _layer(values=2**62),
    "layer past its parts": _layer(end=2**40),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_a_crafted_header_is_refused_with_the_tables_own_error(tmp_path, name):
    path = _write(tmp_path / "m.rvt", CRAFTED[name])
    with pytest.raises(TableError) as refused:
        load_win_table(path)
    assert "\n" not in str(refused.value)


def test_a_deeply_nested_header_is_refused_with_the_tables_own_error(tmp_path):
    path = _write(tmp_path / "m.rvt", None, body=b"[" * 20_000 + b"]" * 20_000)
    with pytest.raises(TableError, match="not JSON"):
        load_win_table(path)


@pytest.mark.parametrize("name", list(CRAFTED))
def test_perfect_beside_a_margin_table_passes_over_a_crafted_win_table(tmp_path, name):
    """`match perfect:table=m.rvt` looks for m.rvw beside it: a crafted one is skipped, not a traceback."""
    from strategies.table.perfect import _win_table

    _write(tmp_path / "m.rvw", CRAFTED[name])
    assert _win_table(DEFAULT_RULES, tmp_path / "m.rvt") is None
