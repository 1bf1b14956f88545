"""The win table on miniature rules, checked against a brute-force win solver written from the rules
(tests/strategies/win_brute.py), which shares no code with the kernel."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES, rules_id
from win_brute import WinBrute
from win_reachable import count_state

from rummy import RulesConfig
from rummy.countstate import unpack
from strategies.kernel import kernel_tables
from strategies.kernel.core import state_at
from strategies.kernel.jit import jit
from strategies.kernel.win_swing import window
from strategies.table.disk.files import TableError
from strategies.table.win.build import build_win_table
from strategies.table.win.fileformat import DATA_OFFSET, load_win_table, read_win_header
from strategies.table.win.lookup import exact_win_values, stored_error, win_move_values, win_probability
from strategies.table.win.window import point_unit, swing_layers, tie_of
from tools.recipes.win_count import count_pairs


@jit
def _state_at(k, d, i):  # type: ignore[no-untyped-def]
    return state_at(k, d, i)


def _positions(
    rules: RulesConfig, d: int, every: int
) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    blob = kernel_tables(rules).blob
    n = rules.types_per_round
    size = len(swing_layers(rules, workers=1, top=d)[d][0])
    found = []
    for i in range(0, size, every):
        mine, theirs, deck = _state_at(blob, d, i)
        found.append((unpack(mine, n), unpack(theirs, n), unpack(deck, n)))
    return found


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_the_open_window_is_exactly_where_the_brute_force_win_probability_is_strictly_between_0_and_1(
    rules: RulesConfig,
) -> None:
    brute = WinBrute(rules)
    unit = point_unit(rules)
    layers = swing_layers(rules, workers=1)
    checked = 0
    for d in range(1, len(layers)):
        g, h = layers[d]
        tie = tie_of(rules, d)
        blob = kernel_tables(rules).blob
        for i in range(0, len(g), max(1, len(g) // 12)):
            first, count = window(int(g[i]), int(h[i]), tie, unit)
            mine, theirs, deck = (unpack(code, rules.types_per_round) for code in _state_at(blob, d, i))
            for q in range(first - 2, first + count + 2):
                p = brute.p_win(mine, theirs, deck, q * unit, bool(tie))
                if q < first:
                    assert p == 0.0
                elif q >= first + count:
                    assert p == 1.0
                else:
                    assert 0.0 < p < 1.0
                checked += 1
    assert checked > 100


@pytest.fixture(scope="module")
def win_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[RulesConfig, Path]:
    built = {}
    for rules in (MINIATURES[1], MINIATURES[3]):
        path = tmp_path_factory.mktemp("win") / "win.rvw"
        build_win_table(path, rules, "none", workers=1)  # every window: the positions below are any (state, D)
        built[rules] = path
    return built


@pytest.mark.parametrize("rules", [MINIATURES[1], MINIATURES[3]], ids=rules_id)
def test_every_move_value_of_the_table_is_the_brute_force_win_probability(
    rules: RulesConfig, win_tables: dict[RulesConfig, Path]
) -> None:
    table = load_win_table(win_tables[rules], rules)
    brute = WinBrute(rules)
    unit = point_unit(rules)
    rng = random.Random(24)
    checked = 0
    for d in range(1, rules.deck_size + 1):
        tolerance = stored_error(d - 1) + 1e-9
        for mine, theirs, deck in _positions(rules, d, 31):
            tie = bool(tie_of(rules, d))
            for q in rng.sample(range(-8, 9), 3):
                state = count_state(rules, mine, theirs, deck, q * unit)
                values = win_move_values(state, table)
                assert set(values) == set(state.legal_moves())
                for move, value in values.items():
                    state.push(move)
                    after = (state.counts(0), state.counts(1), state.points[0])
                    state.pop()
                    expected = brute.after(after[0], after[1], after[2] - q * unit, deck, q * unit, tie)
                    assert abs((value + 1) / 2 - expected) <= tolerance
                p = win_probability(state, table)
                assert abs(p - brute.p_win(mine, theirs, deck, q * unit, tie)) <= stored_error(d) + 1e-9
                checked += 1
    assert checked > 30


@pytest.mark.parametrize("rules", MINIATURES[1:2], ids=rules_id)
def test_above_a_partial_table_the_on_demand_solve_gives_the_brute_force_values(
    rules: RulesConfig, tmp_path: Path
) -> None:
    path = tmp_path / "low.rvw"
    build_win_table(path, rules, "none", top=2, workers=1)
    table = load_win_table(path, rules)
    brute = WinBrute(rules)
    unit = point_unit(rules)
    d = rules.deck_size
    for mine, theirs, deck in _positions(rules, d, 50)[:3]:
        for q in (-3, 0, 2):
            state = count_state(rules, mine, theirs, deck, q * unit)
            values = exact_win_values(state, table)
            assert values is not None
            expected = brute.p_win(mine, theirs, deck, q * unit, bool(tie_of(rules, d)))
            assert abs((max(values.values()) + 1) / 2 - expected) <= stored_error(2) + 1e-9


def test_a_resumed_build_writes_the_same_bytes(tmp_path: Path) -> None:
    rules = MINIATURES[2]
    whole, resumed = tmp_path / "whole.rvw", tmp_path / "resumed.rvw"
    build_win_table(whole, rules, workers=1)
    build_win_table(resumed, rules, top=3, workers=1)
    build_win_table(resumed, rules, workers=1)
    assert read_win_header(whole)["bound"] == "laid sets"  # the default layout: only what a deal reaches
    # The headers differ only by the recorded timings; the layers are the same bytes.
    assert whole.read_bytes()[DATA_OFFSET:] == resumed.read_bytes()[DATA_OFFSET:]
    crcs = [[layer["crc32"] for layer in read_win_header(path)["layers"]] for path in (whole, resumed)]
    assert crcs[0] == crcs[1]


def test_a_corrupted_or_foreign_table_is_refused_with_the_reason(tmp_path: Path) -> None:
    rules = MINIATURES[2]
    path = tmp_path / "t.rvw"
    header = build_win_table(path, rules, workers=1)
    with pytest.raises(TableError, match="other rules"):
        load_win_table(path, MINIATURES[1])
    blob = bytearray(path.read_bytes())
    blob[header["layers"][-1]["at"] + 1] ^= 0xFF  # a G value of the top layer
    path.write_bytes(bytes(blob))
    with pytest.raises(TableError, match="checksum"):
        load_win_table(path, rules)
    path.write_bytes(bytes(blob[:-100]))
    with pytest.raises(TableError, match="truncated"):
        load_win_table(path, rules)


def test_the_count_matches_the_table_it_sizes(tmp_path: Path) -> None:
    rules = MINIATURES[2]
    path = tmp_path / "t.rvw"
    header = build_win_table(path, rules, "none", workers=1)
    counted = count_pairs(rules, workers=1)["layers"]
    assert [layer["pairs"] for layer in counted] == [layer["values"] for layer in header["layers"]]
    bounded = build_win_table(tmp_path / "bounded.rvw", rules, workers=1)
    assert [layer["pairs_laid_sets"] for layer in counted] == [layer["values"] for layer in bounded["layers"]]


def test_perfect_under_the_win_objective_plays_from_the_win_table_with_exact_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from strategies_helpers import random_position

    from strategies.registry import get_strategy
    from strategies.table.margin.build import build_table
    from strategies.table.win.fileformat import default_win_table_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rules = MINIATURES[2]
    build_table(tmp_path / "margin.rvt", rules, workers=1)
    build_win_table(default_win_table_path(rules), rules, workers=1)
    perfect = get_strategy("perfect", objective="win", table=tmp_path / "margin.rvt", rules=rules)
    brute = WinBrute(rules)
    rng = random.Random(7)
    for _ in range(8):
        state = random_position(rng, rules)
        result = perfect.analyse(state.copy())
        assert result.exact
        mover = state.mover
        expected = brute.p_win(
            state.counts(mover),
            state.counts(1 - mover),
            state.deck_counts(),
            state.points[mover] - state.points[1 - mover],
            mover == state.second,
        )
        assert abs((result.value + 1) / 2 - expected) <= stored_error(state.turns_left - 1) + 1e-9
