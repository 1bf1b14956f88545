"""Margin tables of miniature rules: checked against brute force and the Python exact solver; the file
format refuses anything it cannot trust, with one line saying why; the build resumes."""

import random
import zlib
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES, rules_id
from strategies_helpers import BruteForce, random_position

from rummy import CountState, RulesConfig
from strategies.search.exact import solve
from strategies.table import TableError, load_table
from strategies.table.margin.build import build_table
from strategies.table.margin.fileformat import DATA_OFFSET, SLOT
from strategies.table.margin.lookup import margin_value, table_move_values

SMALL = MINIATURES[1]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[RulesConfig, Path]:
    folder = tmp_path_factory.mktemp("tables")
    built = {}
    for index, rules in enumerate(MINIATURES):
        path = folder / f"mini{index}.rvt"
        build_table(path, rules, workers=1)
        built[rules] = path
    return built


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_table_values_match_brute_force_and_the_python_solver(rules: RulesConfig, tables: dict) -> None:
    table = load_table(tables[rules], rules)
    rng = random.Random(rules_id(rules))
    for index in range(16):
        # Half whole rounds from the deal, half random later positions.
        state = CountState.random_deal(rng, rules) if index % 2 == 0 else random_position(rng, rules)
        reference = BruteForce("margin").move_values(state.copy())
        values = table_move_values(state, table)
        assert values.keys() == reference.keys()
        for move, value in reference.items():
            assert values[move] == pytest.approx(value, abs=1e-4), (state, move)
        assert margin_value(state, table) == pytest.approx(max(reference.values()), abs=1e-4)
        if state.turns_left <= 5:
            python = solve(state.copy(), "margin")
            for move, value in python.move_values.items():
                assert values[move] == pytest.approx(value, abs=1e-4)


def test_other_rules_truncation_corruption_and_unfinished_builds_are_refused(tables: dict, tmp_path: Path) -> None:
    good = tables[SMALL]
    data = good.read_bytes()

    def refusal(blob: bytes, rules: RulesConfig = SMALL) -> str:
        path = tmp_path / f"bad{zlib.crc32(blob)}.rvt"
        path.write_bytes(blob)
        with pytest.raises(TableError) as caught:
            load_table(path, rules)
        message = str(caught.value)
        assert "\n" not in message
        return message

    with pytest.raises(TableError, match="other rules"):
        load_table(good, MINIATURES[0])
    assert "truncated" in refusal(data[:-100])
    flipped = bytearray(data)
    flipped[DATA_OFFSET + 40] ^= 0xFF
    assert "fails its checksum" in refusal(bytes(flipped))
    header = bytearray(data)
    header[30] ^= 0x01
    header[SLOT + 30] ^= 0x01
    assert "header is truncated or corrupted" in refusal(bytes(header))
    assert "not a perfect-play table" in refusal(b"hello" + data[5:])
    with pytest.raises(TableError, match="no perfect-play table at .*rummy-vision solve"):
        load_table(tmp_path / "missing.rvt", SMALL)


def test_an_interrupted_build_resumes_to_the_same_table(tables: dict, tmp_path: Path) -> None:
    path = tmp_path / "resumed.rvt"

    class Interrupt(Exception):
        pass

    def stop_in_layer_five(layer: int, done: int, units: int, rate: float) -> None:
        if layer == 5:
            raise Interrupt

    header = build_table(path, SMALL, top=3, workers=1)
    assert header["done"] == 3
    partial = load_table(path, SMALL)
    assert partial.top == 3 and partial.covers(4) and not partial.covers(5)
    with pytest.raises(Interrupt):  # extending it to the whole round, interrupted in layer 5
        build_table(path, SMALL, workers=1, on_progress=stop_in_layer_five, chunk=64)
    with pytest.raises(TableError, match="unfinished build"):
        load_table(path, SMALL)
    header = build_table(path, SMALL, workers=1)  # layers 1-4 kept, 5-6 built
    assert header["done"] == SMALL.deck_size
    assert path.read_bytes()[DATA_OFFSET:] == tables[SMALL].read_bytes()[DATA_OFFSET:]
