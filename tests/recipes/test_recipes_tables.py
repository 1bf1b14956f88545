"""The table recipes (`python tools/measure.py table-build | table-verify`): what a built table's figures say,
and a missing table refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummy import RulesConfig
from strategies.table.margin.build import build_table
from strategies.table.margin.fileformat import read_header
from strategies.table.win.build import build_win_table
from strategies.table.win.fileformat import read_win_header
from tools.recipes.app import app
from tools.recipes.table import build_figures
from tools.recipes.win_table import win_build_figures


def test_table_build_figures_say_what_a_top_n_table_holds(tmp_path: Path) -> None:
    path = tmp_path / "mini.rvt"
    build_table(path, RulesConfig(types_per_round=2, cards_per_type=5, hand_size=3), workers=1)
    sizes = read_header(path)["sizes"]
    figures = build_figures(path, emit=lambda line: None)
    assert figures["states_with_layer_0"] == sum(sizes) and figures["states_stored"] == sum(sizes[1:])
    for layer in figures["layers"]:
        through = sum(sizes[1 : layer["layer"] + 1])
        assert layer["through"]["states"] == through and layer["through"]["value_bytes"] == 4 * through
    assert figures["layers"][-1]["through"]["seconds"] == pytest.approx(figures["build_seconds"])


def test_table_verify_refuses_a_missing_table_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none.rvt"
    done = CliRunner().invoke(app, ["table-verify", "--table", str(missing), "--out", str(tmp_path)])
    assert done.exit_code == 2, done.output
    assert len(done.output.strip().splitlines()) == 1 and str(missing.name) in done.output
    assert not list(tmp_path.glob("*.json"))


def test_win_build_figures_give_each_layers_values_time_and_peak_memory(tmp_path: Path) -> None:
    path = tmp_path / "mini.rvw"
    build_win_table(path, RulesConfig(types_per_round=2, cards_per_type=5, hand_size=3), workers=1)
    header = read_win_header(path)
    figures = win_build_figures(path, emit=lambda line: None)
    assert figures["bytes"] == path.stat().st_size and figures["done"] == header["done"] == len(header["sizes"]) - 1
    assert [layer["values"] for layer in figures["layers"]] == [entry["values"] for entry in header["layers"]]
    assert figures["values_stored"] == sum(entry["values"] for entry in header["layers"])
    peaks = [layer["peak_rss_bytes"] for layer in figures["layers"]]
    assert all(peak > 0 for peak in peaks) and peaks == sorted(peaks)  # the process's peak so far never falls
    assert figures["peak_rss_bytes"] == peaks[-1]
