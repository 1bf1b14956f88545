"""Margin and win through the one objective interface (strategies.table.objective): on a miniature rule set
each objective builds its table, reads it back, passes its check against the independent solver, and values
positions the same way through both of its lookups (a position's own value against its best move's, read
from the layer below); `solve --verify` and `perfect` reach the tables only through this interface."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES

from rummy.countstate import DECIDE, random_decision
from strategies.search import Objective
from strategies.table.objective import OBJECTIVES
from strategies.table.win.lookup import stored_error

RULES = MINIATURES[1]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[Objective, Path]:
    folder = tmp_path_factory.mktemp("objectives")
    built = {}
    for name, objective in OBJECTIVES.items():
        built[name] = objective.beside(folder / "mini.rvt")
        header = objective.build(built[name], RULES, workers=1)
        assert header["done"] == RULES.deck_size
    return built


def test_both_objectives_are_there_and_name_themselves() -> None:
    assert set(OBJECTIVES) == {Objective.MARGIN, Objective.WIN}
    assert all(objective.name is name for name, objective in OBJECTIVES.items())
    assert OBJECTIVES[Objective.MARGIN].beside(Path("t.rvt")) != OBJECTIVES[Objective.WIN].beside(Path("t.rvt"))


@pytest.mark.parametrize("name", list(Objective))
def test_each_objective_builds_reads_and_checks_its_table(name: Objective, tables: dict[Objective, Path]) -> None:
    objective = OBJECTIVES[name]
    header = objective.read_header(tables[name])
    assert header["done"] == header["top"] == RULES.deck_size
    table = objective.load(tables[name], RULES)
    seen: list[int] = []
    checks = objective.verify(table, 40, seed=3, on_layer=lambda check: seen.append(check.layer))
    assert seen == [check.layer for check in checks] == list(range(1, RULES.deck_size + 1))
    assert all(check.passed for check in checks) and objective.mismatches(checks) == []
    assert all(len(objective.check_row(check)) == len(objective.check_columns) for check in checks)
    assert "tolerance" in objective.check_summary(checks)


@pytest.mark.parametrize("name", list(Objective))
def test_a_positions_value_is_its_best_moves_value(name: Objective, tables: dict[Objective, Path]) -> None:
    objective = OBJECTIVES[name]
    table = objective.load(tables[name], RULES)
    rng = random.Random(7)
    compared = 0
    for _ in range(60):
        state = random_decision(rng, RULES)
        if state.phase != DECIDE or state.turns_left < 2:
            continue
        values = objective.move_values(state, table)
        value = objective.value(state, table)
        # margin: points; win: P(win), with the moves on the search's scale 2 P(win) - 1
        own = value if name is Objective.MARGIN else 2 * value - 1
        tolerance = 1e-3 if name is Objective.MARGIN else 4 * stored_error(state.turns_left)
        assert max(values.values()) == pytest.approx(own, abs=tolerance)
        compared += 1
    assert compared >= 20


def test_commands_reach_the_tables_only_through_the_interface() -> None:
    for module in ("bot/cli/solve_verify.py", "bot/cli/solve.py"):
        tree = ast.parse((REPO / module).read_text())
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        reaching = {name for name in imported if name.endswith((".verify", ".lookup", "win.build", "fileformat"))}
        assert reaching == set(), (module, reaching)
