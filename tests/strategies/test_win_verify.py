"""The win table checked against strategies.table.win.independent (a win solver and a reader of the
file written from the rules and the format's description, sharing no code with the kernel or the
table's own reader): miniature tables agree on every layer, a changed value or swing bound is found,
`solve --verify` checks both tables; the real table layer by layer (slow)."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import typer
from kernel_helpers import MINIATURES, rules_id

import strategies.table.win.independent as win_independent
import strategies.table.win.verify as win_verify
from bot.cli.solve_verify import verify_tables
from rummy import DEFAULT_RULES, RulesConfig
from strategies.table.margin.build import build_table
from strategies.table.win.build import build_win_table
from strategies.table.win.fileformat import default_win_table_path, read_win_header
from strategies.table.win.independent import IndependentWin, read_win_file
from strategies.table.win.verify import STEP_TOLERANCE, verify_win_table


@pytest.fixture(scope="module")
def win_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[RulesConfig, Path]:
    folder = tmp_path_factory.mktemp("win-verify")
    built = {}
    for index, rules in enumerate(MINIATURES):
        built[rules] = folder / f"mini{index}.rvw"
        build_win_table(built[rules], rules, workers=1)
    return built


def test_the_independent_win_solver_imports_nothing_of_the_kernel_or_the_tables_reader() -> None:
    own_reader = ("strategies.table.win.fileformat", "strategies.table.win.reach", "strategies.table.win.lookup")
    for module in (win_independent, win_verify):
        tree = ast.parse(Path(str(module.__file__)).read_text())
        names = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        names += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        assert not [name for name in names if name.startswith(("strategies.kernel", "rummy.countstate", *own_reader))]
        assert "rummy" not in names  # rummy/__init__ re-exports countstate; only rummy.config is used


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_every_layer_of_a_miniature_win_table_agrees_with_the_independent_solver(
    rules: RulesConfig, win_tables: dict
) -> None:
    checks = verify_win_table(win_tables[rules], rules, 200, seed=1)
    assert [check.layer for check in checks] == list(range(1, rules.deck_size + 1))
    for check in checks:
        assert check.passed, check.worst
        assert check.states > 0 and check.step_values >= check.states
        assert check.max_step_difference <= STEP_TOLERANCE
    assert all(check.full_values == check.step_values for check in checks[:3])
    assert sum(check.settled_values for check in checks) > 0  # the 0 and 1 outside the windows were checked
    assert sum(check.step_values - check.settled_values for check in checks) > 0  # and stored values


def _copy(path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    return copy


def _layer_part(path: Path, d: int, part: str) -> tuple[int, int]:
    """(byte offset, element count) of one part of layer d, from the file's header."""
    header = read_win_header(path)
    _header, layers = read_win_file(path)
    layer = layers[d]
    assert layer is not None
    order = ["g", "h", "counts", "offsets", "values"]
    arrays = [layer.g, layer.h, layer.counts, layer.offsets, layer.values]
    at = header["layers"][d - 1]["at"]
    for name, array in zip(order, arrays, strict=True):
        if name == part:
            return at, len(array)
        at = (at + array.nbytes + 7) // 8 * 8
    raise AssertionError(part)


def test_a_changed_value_is_found_in_its_layer(win_tables: dict, tmp_path: Path) -> None:
    rules = MINIATURES[1]
    path = _copy(win_tables[rules], tmp_path)
    d = 4
    at, count = _layer_part(path, d, "values")
    assert count > 0
    values = np.memmap(path, dtype="<u2", mode="r+", offset=at, shape=(count,))
    values[:] = np.where(values < 32768, values + 20000, values - 20000)  # every stored P(win) off by 0.3
    values.flush()
    del values
    checks = verify_win_table(path, rules, 10_000, seed=2)  # every reachable state: the layers are small
    assert all(check.passed for check in checks[: d - 1])
    assert not checks[d - 1].passed and "(step)" in checks[d - 1].worst
    assert f"layer {d} index" in checks[d - 1].worst


def test_a_changed_swing_bound_is_found(win_tables: dict, tmp_path: Path) -> None:
    """G and H say where P is settled at 0 or 1 without a stored value: a wrong one is found from the
    rules (the settled values next to the window disagree, or the state keeps another number of values)."""
    rules = MINIATURES[3]
    path = _copy(win_tables[rules], tmp_path)
    d = 3
    at, count = _layer_part(path, d, "g")
    g = np.memmap(path, dtype="<i2", mode="r+", offset=at, shape=(count,))
    g[:] = g + 3 * rules.hand_penalty + 20  # every state claims a larger guaranteed swing
    g.flush()
    del g
    checks = verify_win_table(path, rules, 10_000, seed=3)
    assert all(check.passed for check in checks[: d - 1])
    assert not checks[d - 1].passed, "a wrong G went unnoticed"


def test_solve_verify_checks_the_margin_and_the_win_table_beside_it(
    win_tables: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = MINIATURES[2]
    margin = tmp_path / "mini.rvt"
    build_table(margin, rules, workers=1)
    verify_tables(margin, 50, 0, rules)
    shown = capsys.readouterr()
    assert "No win table at" in shown.err  # checked the margin table, said the win table is missing
    assert "states checked from the layer below" in shown.out

    shutil.copyfile(win_tables[rules], margin.with_suffix(".rvw"))
    verify_tables(margin, 50, 0, rules)
    shown = capsys.readouterr()
    assert f"win layer {rules.deck_size:>2}: " in shown.err
    assert "P(win) values checked from the layer below" in shown.out and "MISMATCH" not in shown.out

    _header, layers = read_win_file(margin.with_suffix(".rvw"))
    at, count = _layer_part(margin.with_suffix(".rvw"), 5, "values")
    values = np.memmap(margin.with_suffix(".rvw"), dtype="<u2", mode="r+", offset=at, shape=(count,))
    values[0] = 65535 - values[0]
    values.flush()
    del values
    with pytest.raises(typer.Exit) as refused:
        verify_tables(margin, 50, 0, rules)  # the layer's checksum fails before any value is read
    assert refused.value.exit_code == 2
    assert "checksum" in capsys.readouterr().err


def test_the_independent_reader_finds_every_kept_value_of_a_miniature_state(win_tables: dict) -> None:
    """Per state, the values this reader expects to be kept add up to the file's own count, layer by
    layer (the whole of each miniature layer)."""
    rules = MINIATURES[0]
    header, layers = read_win_file(win_tables[rules])
    solver = IndependentWin(rules, header["unit"])
    for d in range(1, header["done"] + 1):
        layer = layers[d]
        assert layer is not None
        expected = [solver.table_count(layers, solver.rules.state(d, index)) for index in range(header["sizes"][d])]
        assert [stored for stored, _mine in expected] == [mine for _stored, mine in expected]
        assert sum(stored for stored, _mine in expected) == len(layer.values)


@pytest.mark.slow
@pytest.mark.timeout(7200)  # building the real win table takes about 22 CPU minutes
def test_the_real_win_table_agrees_with_the_independent_solver(tmp_path_factory: pytest.TempPathFactory) -> None:
    """RUMMY_VISION_VERIFY_WIN_TABLE names a real win table already built; else the user's default one if
    it is built, else one is built (2.73 GB)."""
    given = os.environ.get("RUMMY_VISION_VERIFY_WIN_TABLE")
    path = Path(given) if given else default_win_table_path(DEFAULT_RULES)
    if not path.exists():
        path = tmp_path_factory.mktemp("real") / "win.rvw"
        build_win_table(path, DEFAULT_RULES, workers=2)
    checks = verify_win_table(path, DEFAULT_RULES, 200, seed=0)
    assert [check.layer for check in checks] == list(range(1, 21))
    for check in checks:
        assert check.passed, check.worst
        assert check.states == 200
    assert sum(check.full_values for check in checks) > 0
