"""The bounded win table layout (only the banked differences the laid-cards bound allows) on miniature
rules: every (state, D) pair a deal reaches (tests/strategies/win_reachable.py) reads the brute-force
win probability (tests/strategies/win_brute.py) and the same stored value as the unbounded layout; a
difference the bounded table does not keep is refused in one line and solved on demand instead."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES, rules_id
from win_brute import WinBrute
from win_reachable import brute_and_reachable, count_state, kernel_state_at

from rummy import RulesConfig
from rummy.countstate import unpack
from strategies.kernel import kernel_tables
from strategies.kernel.win_swing import window
from strategies.table.disk.files import TableError
from strategies.table.win.build import build_win_table
from strategies.table.win.fileformat import (
    NotReachable,
    WinTable,
    load_win_table,
    read_win_header,
    write_win_header,
)
from strategies.table.win.lookup import exact_win_values, stored_error, win_move_values, win_probability
from strategies.table.win.reach import LaidBound
from strategies.table.win.window import point_unit, swing_layers, tie_of


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[RulesConfig, str], WinTable]:
    built = {}
    for rules in MINIATURES:
        for bound in ("laid sets", "none"):
            path = tmp_path_factory.mktemp("win") / "win.rvw"
            build_win_table(path, rules, bound, workers=1)
            built[rules, bound] = load_win_table(path, rules)
    return built


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_every_reachable_pair_reads_the_brute_force_value_and_the_unbounded_tables_value(
    rules: RulesConfig, tables: dict[tuple[RulesConfig, str], WinTable]
) -> None:
    bounded, whole = tables[rules, "laid sets"], tables[rules, "none"]
    brute, reachable = brute_and_reachable(rules)
    checked = moves = 0
    for d in range(1, rules.deck_size + 1):
        tie = bool(tie_of(rules, d))
        for state_triples, diff in reachable[d]:
            mine, theirs, deck = (tuple(triple[i] for triple in state_triples) for i in range(3))
            state = count_state(rules, mine, theirs, deck, diff)
            p = win_probability(state, bounded)
            assert p == win_probability(state, whole), (d, state_triples, diff)
            assert abs(p - brute.p_win(mine, theirs, deck, diff, tie)) <= stored_error(d) + 1e-9
            values = win_move_values(state, bounded)
            assert values == win_move_values(state, whole)
            assert set(values) == set(state.legal_moves())
            for move, value in values.items():
                state.push(move)
                after = (state.counts(0), state.counts(1), state.points[0] - diff)
                state.pop()
                expected = brute.after(after[0], after[1], after[2], deck, diff, tie)
                assert abs((value + 1) / 2 - expected) <= stored_error(d - 1) + 1e-9
                moves += 1
            checked += 1
    assert checked > 100 and moves > checked
    # The bounded layout keeps fewer values than the whole windows (the point of it).
    kept = sum(layer["values"] for layer in bounded.header["layers"])
    assert kept * 2 < sum(layer["values"] for layer in whole.header["layers"])


def _out_of_bound(rules: RulesConfig) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """A layer-d state and a difference inside its open window that no deal reaches."""
    bound = LaidBound(rules)
    unit = point_unit(rules)
    blob = kernel_tables(rules).blob
    layers = swing_layers(rules, workers=1)
    for d in range(2, len(layers)):
        g, h = layers[d]
        for i in range(len(g)):
            first, count = window(int(g[i]), int(h[i]), tie_of(rules, d), unit)
            mine, theirs, deck = (_unpack(code, rules) for code in kernel_state_at(blob, d, i))
            laid = tuple(rules.cards_per_type - m - o - k for m, o, k in zip(mine, theirs, deck, strict=True))
            for q in range(first, first + count):
                if not bound.allows(d, laid, q * unit):
                    return d, mine, theirs, deck, q * unit
    raise AssertionError("every open pair lies within the bound")


def _unpack(code: int, rules: RulesConfig) -> tuple[int, ...]:
    return unpack(code, rules.types_per_round)


@pytest.mark.parametrize("rules", MINIATURES[1:2], ids=rules_id)
def test_a_difference_no_deal_reaches_is_refused_in_one_line_and_solved_on_demand(
    rules: RulesConfig, tables: dict[tuple[RulesConfig, str], WinTable]
) -> None:
    bounded = tables[rules, "laid sets"]
    brute = WinBrute(rules)
    d, mine, theirs, deck, diff = _out_of_bound(rules)
    state = count_state(rules, mine, theirs, deck, diff)
    with pytest.raises(NotReachable, match="not reachable from a deal") as refused:
        win_probability(state, bounded)
    assert "\n" not in str(refused.value)
    # The caller's path: solved without the table, exactly (the unbounded table agrees).
    values = exact_win_values(state, bounded)
    assert values is not None
    p = brute.p_win(mine, theirs, deck, diff, bool(tie_of(rules, d)))
    assert abs((max(values.values()) + 1) / 2 - p) <= 1e-9
    assert abs(win_probability(state, tables[rules, "none"]) - p) <= stored_error(d) + 1e-9


def test_an_old_format_file_or_another_bound_is_refused_with_the_reason(tmp_path: Path) -> None:
    rules = MINIATURES[2]
    path = tmp_path / "t.rvw"
    build_win_table(path, rules, workers=1)
    load_win_table(path, rules)
    blob = bytearray(path.read_bytes())
    struct.pack_into("<I", blob, 8, 1)  # the format version of the layout that kept every window
    old = tmp_path / "old.rvw"
    old.write_bytes(bytes(blob))
    with pytest.raises(TableError, match="format 1, this version reads 2") as refused:
        load_win_table(old, rules)
    assert "\n" not in str(refused.value)
    # A file whose layers were built with another bound than the rules give today.
    header = read_win_header(path)
    header["layers"][-1]["bound_crc32"] ^= 1
    write_win_header(path, header)
    with pytest.raises(TableError, match="another laid-cards bound"):
        load_win_table(path, rules)
    # Resuming an unbounded file as a bounded build is refused rather than mixing layouts.
    whole = tmp_path / "whole.rvw"
    build_win_table(whole, rules, "none", top=2, workers=1)
    with pytest.raises(TableError, match="another bound"):
        build_win_table(whole, rules, workers=1)
