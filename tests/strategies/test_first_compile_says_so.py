"""The kernels' first compile (about a minute) is announced, so no command stalls silently: the exact
solver's warm-up (what `perfect` and `expectimax` wait for) and `solve`'s table builder say so first."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from strategies.kernel import jit, warm


@pytest.fixture
def nothing_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder without compiled code, as on a first run (the code this process already loaded stays
    loaded, so nothing is compiled for real here)."""
    empty = tmp_path / "numba" / "kernel-none"
    monkeypatch.setattr(jit, "cache_dir", lambda: empty)
    return empty


def test_the_exact_solvers_first_compile_is_announced(
    nothing_compiled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warm.warm_up.cache_clear()
    warm.warm_up()
    said = capsys.readouterr().err
    assert "Compiling the exact solver (first run only, about a minute" in said and str(nothing_compiled) in said


def test_a_cached_compile_is_not_announced(
    nothing_compiled: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in ("play", "bitmap_solve", "sorted_solve"):
        folder = nothing_compiled / "kernel_abc"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{module}.f-1.py311.nbi").write_bytes(b"")
    warm.warm_up.cache_clear()
    warm.warm_up()
    assert "Compiling" not in capsys.readouterr().err


def test_solve_says_it_compiles_before_the_bar_stands_still(nothing_compiled: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["solve", "--out", str(tmp_path / "t.rvt"), "--top", "1", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Compiling the table builder (first run only, about a minute" in result.output
