"""Tables checked against a solver that shares no code with the kernel; builds with one or two threads
give the same bytes; the real table checked layer by layer (slow)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import numpy as np
import pytest
from kernel_helpers import MINIATURES, rules_id
from typer.testing import CliRunner

import strategies.table.margin.independent as independent
import strategies.table.margin.verify as verify
from rummy import DEFAULT_RULES, RulesConfig
from strategies.table import load_table
from strategies.table.margin.build import build_table
from strategies.table.margin.fileformat import DATA_OFFSET, read_header
from strategies.table.margin.independent import IndependentSolver
from strategies.table.margin.verify import verify_table


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[RulesConfig, Path]:
    folder = tmp_path_factory.mktemp("verify")
    built = {}
    for index, rules in enumerate(MINIATURES):
        built[rules] = folder / f"mini{index}.rvt"
        build_table(built[rules], rules, workers=1)
    return built


def test_the_independent_solver_imports_nothing_from_the_kernel_or_countstate() -> None:
    for module in (independent, verify):
        tree = ast.parse(Path(str(module.__file__)).read_text())
        names = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        names += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        assert not [name for name in names if name.startswith(("strategies.kernel", "rummy.countstate"))]
        assert "rummy" not in names  # rummy/__init__ re-exports countstate; only rummy.config is used


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_every_layer_of_a_miniature_table_agrees_with_the_independent_solver(rules: RulesConfig, tables: dict) -> None:
    table = load_table(tables[rules], rules)
    checks = verify_table(table, 200, seed=1)
    assert [check.layer for check in checks] == list(range(1, rules.deck_size + 1))
    for check in checks:
        assert check.step_states == min(200, check.size)
        assert check.max_difference < 1e-4, check.worst
    assert all(check.full_states == check.step_states for check in checks[:3])
    assert sum(check.full_states for check in checks[3:]) > 0


def test_the_independent_index_matches_the_layer_sizes_and_inverts_itself() -> None:
    from strategies.kernel import kernel_tables
    from strategies.kernel.tables import layer_sizes

    solver = IndependentSolver(DEFAULT_RULES)
    assert [solver.layer_size(d) for d in range(21)] == layer_sizes(kernel_tables(DEFAULT_RULES))
    for d in (1, 7, 20):
        for index in (0, 1, solver.layer_size(d) // 3, solver.layer_size(d) - 1):
            assert solver.index(*solver.state(d, index)) == index


def test_a_wrong_value_is_found(tables: dict) -> None:
    rules = MINIATURES[1]
    table = load_table(tables[rules], rules)
    layers = [np.array(layer) for layer in table.layers]
    layers[4][len(layers[4]) // 2] += 0.5  # one state of layer 4 is off by half a point
    import dataclasses

    broken = dataclasses.replace(table, layers=tuple(layers))
    checks = verify_table(broken, 10_000)  # every state: the layers are small
    assert checks[3].max_difference == pytest.approx(0.5, abs=1e-4) and not checks[3].passed
    assert f"index {len(layers[4]) // 2}" in checks[3].worst
    assert all(check.passed for check in checks[:3])


def test_builds_with_one_and_two_threads_are_byte_identical(tmp_path: Path) -> None:
    import numba

    rules = MINIATURES[2]
    one, two = tmp_path / "one.rvt", tmp_path / "two.rvt"
    build_table(one, rules, workers=1, chunk=97)
    assert numba.get_num_threads() == 1
    build_table(two, rules, workers=2, chunk=97)
    assert numba.get_num_threads() == min(2, numba.config.NUMBA_NUM_THREADS)
    assert numba.config.NUMBA_NUM_THREADS >= 2, "this machine runs numba with one thread: nothing compared"
    assert one.read_bytes()[DATA_OFFSET:] == two.read_bytes()[DATA_OFFSET:]
    timing = {"seconds", "cpu_seconds"}
    first, second = read_header(one), read_header(two)
    assert {k: v for k, v in first.items() if k not in timing} == {k: v for k, v in second.items() if k not in timing}


@pytest.mark.slow
@pytest.mark.timeout(7200)  # building the real table takes half an hour on a busy 2-core machine
def test_the_real_table_agrees_with_the_independent_solver(tmp_path_factory: pytest.TempPathFactory) -> None:
    """RUMMY_VISION_VERIFY_TABLE names a real table already built; without it one is built (1.1 GB)."""
    from bot.cli import app

    given = os.environ.get("RUMMY_VISION_VERIFY_TABLE")
    path = Path(given) if given else tmp_path_factory.mktemp("real") / "margin.rvt"
    if not given:
        build_table(path, DEFAULT_RULES, workers=2)
    result = CliRunner().invoke(app, ["solve", "--verify", "200", "--out", str(path)])
    assert result.exit_code == 0, result.output
    for d in range(1, 21):
        assert f"layer {d:>2}: 200 step" in result.output
    assert "max difference" in result.output and "MISMATCH" not in result.output
