"""The table file checks itself: the kernel that wrote it, its layer sizes, every header field; a torn
header write loses nothing; a file changed after loading is not read as is."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from kernel_helpers import MINIATURES
from typer.testing import CliRunner

from rummy import CountState, RulesConfig
from strategies.table import TableError, load_table
from strategies.table.margin.build import build_table
from strategies.table.margin.fileformat import DATA_OFFSET, SLOT, kernel_fingerprint, read_header_version, write_header
from strategies.table.margin.lookup import margin_value

SMALL = MINIATURES[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("format") / "small.rvt"
    build_table(path, SMALL, workers=1)
    return path


def _copy(built: Path, tmp_path: Path, name: str = "copy.rvt") -> Path:
    path = tmp_path / name
    shutil.copyfile(built, path)
    return path


def _rewrite(path: Path, change: dict[str, Any]) -> None:
    """A new header with a valid checksum, as a build would write it."""
    header, sequence = read_header_version(path)
    header.update(change)
    write_header(path, header, sequence + 1)


def _refusal(path: Path, rules: RulesConfig = SMALL) -> str:
    with pytest.raises(TableError) as caught:
        load_table(path, rules)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_table_of_another_kernel_version_is_refused_in_one_line(built: Path, tmp_path: Path) -> None:
    other_kernel = _copy(built, tmp_path, "kernel.rvt")
    _rewrite(other_kernel, {"kernel": "0" * 64})
    assert "another version of the kernel" in _refusal(other_kernel)
    other_sizes = _copy(built, tmp_path, "sizes.rvt")
    header, _sequence = read_header_version(other_sizes)
    _rewrite(other_sizes, {"sizes": [*header["sizes"][:-1], header["sizes"][-1] + 1]})
    assert "another version of the kernel" in _refusal(other_sizes)
    with pytest.raises(TableError, match="another version of the kernel"):
        build_table(other_sizes, SMALL, workers=1)  # nor resumed


@pytest.mark.parametrize(
    "change",
    [
        {"top": "6"},
        {"top": None},
        {"done": 99},
        {"sizes": "many"},
        {"sizes": [1, "x"]},
        {"crc32": [1, 2]},
        {"crc32": None},
        {"rules": []},
        {"fingerprint": 7},
        {"objective": "win"},
        {"seconds": {"a": 1}},
    ],
    ids=lambda change: json.dumps(change),
)
def test_header_fields_are_validated_one_by_one(built: Path, tmp_path: Path, change: dict[str, Any]) -> None:
    path = _copy(built, tmp_path)
    _rewrite(path, change)
    assert "header is malformed" in _refusal(path)
    from bot.cli import app

    result = CliRunner().invoke(app, ["solve", "--out", str(path)])
    assert result.exit_code == 2 and "header is malformed" in result.output
    assert "Traceback" not in result.output


def test_a_header_that_is_json_but_no_object_is_refused(built: Path, tmp_path: Path) -> None:
    import struct
    import zlib

    path = _copy(built, tmp_path)
    header, sequence = read_header_version(path)
    body = b"[1, 2, 3]"
    crc = zlib.crc32(struct.pack("<I", sequence + 1) + body)
    blob = struct.pack("<8sIIII", b"RVMARGIN", 2, sequence + 1, len(body), crc) + body
    with path.open("r+b") as file:
        file.seek(SLOT * ((sequence + 1) % 2))
        file.write(blob)
    # The newer slot is unusable: the older, whole header is read instead.
    assert load_table(path, SMALL).header == header


def test_a_torn_header_write_keeps_the_previous_header_and_the_build_resumes(built: Path, tmp_path: Path) -> None:
    path = _copy(built, tmp_path)
    _header, sequence = read_header_version(path)
    with path.open("r+b") as file:  # the last header write was cut off half-way
        file.seek(SLOT * (sequence % 2) + 40)
        file.write(b"\xff" * 200)
    header, _sequence = read_header_version(path)
    assert header["done"] == SMALL.deck_size - 1
    build_table(path, SMALL, workers=1)
    assert path.read_bytes()[DATA_OFFSET:] == built.read_bytes()[DATA_OFFSET:]
    assert load_table(path, SMALL).top == SMALL.deck_size


def test_values_are_stored_little_endian(built: Path) -> None:
    table = load_table(built, SMALL)
    raw = np.fromfile(built, dtype="<f4", offset=DATA_OFFSET, count=table.layers[1].shape[0])
    assert np.array_equal(raw, np.asarray(table.layers[1]))
    assert table.layers[1].dtype == np.dtype("<f4")


def test_a_table_changed_after_loading_is_not_read_as_is(built: Path, tmp_path: Path) -> None:
    path = _copy(built, tmp_path)
    table = load_table(path, SMALL)
    state = CountState.random_deal(random.Random(3), SMALL)
    before = margin_value(state, table)
    with path.open("r+b") as file:
        file.seek(DATA_OFFSET)
        file.write(np.full(64, 99.0, dtype="<f4").tobytes())
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    with pytest.raises(TableError, match="changed on disk after it was loaded"):
        margin_value(state, table)
    with pytest.raises(TableError, match="fails its checksum"):
        load_table(path, SMALL)  # loading again checks it again
    assert before == pytest.approx(margin_value(state, load_table(built, SMALL)))


FINGERPRINT = """
import strategies.kernel
from rummy import RulesConfig
from strategies.kernel.scheme import kernel_fingerprint
print(kernel_fingerprint(RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2)))
"""


@pytest.mark.parametrize(
    "old, new",
    [
        ("    return rank\n", "    return rank ^ 1\n"),  # another indexing scheme
        ("        return mine + unit, theirs - unit, 0\n", "        return mine - unit, theirs + unit, 0\n"),  # moves
    ],
    ids=["index", "move-order"],
)
def test_the_kernel_fingerprint_follows_the_indexing_and_the_moves(tmp_path: Path, old: str, new: str) -> None:
    import strategies.kernel

    root = tmp_path / "src"
    (root / "strategies").mkdir(parents=True)
    (root / "strategies" / "__init__.py").write_text("")
    shutil.copytree(
        Path(strategies.kernel.__file__).parent,
        root / "strategies" / "kernel",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    core = root / "strategies" / "kernel" / "core.py"
    text = core.read_text()
    assert text.count(old) == 1
    core.write_text(text.replace(old, new))
    env = dict(os.environ, RUMMY_VISION_KERNEL_CACHE=str(tmp_path / "cache"))
    edited = subprocess.run(
        [sys.executable, "-c", FINGERPRINT], cwd=root, env=env, capture_output=True, text=True, check=True
    ).stdout.split()[-1]
    assert edited != kernel_fingerprint(RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2))
