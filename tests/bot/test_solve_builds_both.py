"""`rummy-vision solve` with no options builds everything default `perfect` needs: the whole margin table,
then the whole win table; `--margin-only` and `--top` build the margin table alone. The builders are
stand-ins here (the real tables are gigabytes): the test checks what the command asks them for, and
that Ctrl-C keeps the finished layers and says how to resume."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bot.cli import app
from strategies.table.margin import build
from strategies.table.win import build as win_build

LAST = 20  # the real rules' deepest layer
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    made: list[tuple[str, Any]] = []

    def margin(path: Path, config: Any, *, top: int, **options: Any) -> dict[str, Any]:
        made.append(("margin", top))
        return {"done": top}

    def win(path: Path, config: Any, *, top: int, **options: Any) -> dict[str, Any]:
        made.append(("win", top))
        for d in range(1, 3):
            options["on_layer"](d, {"cpu_seconds": 0.0})
        return {"done": top}

    monkeypatch.setattr(build, "build_table", margin)
    monkeypatch.setattr(win_build, "build_win_table", win)
    return made


def test_solve_builds_the_margin_table_then_the_whole_win_table(calls: list, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["solve", "--out", str(tmp_path / "t.rvt")])
    assert result.exit_code == 0, result.output
    assert calls == [("margin", LAST), ("win", LAST)]
    flat = " ".join(result.output.split())
    assert f"Win table: {tmp_path / 't.rvw'}" in flat and "0 win layer(s) already built" in flat
    assert "win layer 2/20 done" in flat and "(the whole round)" in flat


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--margin-only"], [("margin", LAST)]),
        (["--top", "7"], [("margin", 7)]),
        (["--win-top", "3"], [("margin", LAST), ("win", 3)]),
    ],
)
def test_options_build_less(calls: list, tmp_path: Path, options: list[str], expected: list) -> None:
    result = CliRunner().invoke(app, ["solve", "--out", str(tmp_path / "t.rvt"), *options])
    assert result.exit_code == 0, result.output
    assert calls == expected


def test_ctrl_c_keeps_the_finished_layers_and_says_how_to_resume(
    calls: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **options: Any) -> dict[str, Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(win_build, "build_win_table", interrupted)
    result = CliRunner().invoke(app, ["solve", "--out", str(tmp_path / "t.rvt")])
    assert result.exit_code == 130
    flat = " ".join(result.output.split())
    assert "Interrupted" in flat and "run the same command to resume" in flat


# `solve` as a script's background job (`cmd &`) starts it: SIGINT inherited as ignored. The stand-in
# builder sleeps in steps for at most a minute, so a Ctrl-C that is not acted on ends the run with 0.
BACKGROUND_SOLVE = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
from strategies.table.margin import build
from bot.cli import app

def slow(path, config, *, top, **options):
    print("building", flush=True)
    for _ in range(600):
        time.sleep(0.1)
    return {"done": top}

build.build_table = slow
app(["solve", "--out", sys.argv[1], "--margin-only"], prog_name="rummy-vision")
"""


def test_a_real_ctrl_c_stops_a_build_started_with_sigint_ignored(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", BACKGROUND_SOLVE, str(tmp_path / "t.rvt")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    said = []
    for line in process.stdout:  # bounded: the stand-in ends within a minute
        said.append(line)
        if line.strip() == "building":
            break
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=300)
    flat = " ".join(("".join(said) + rest).split())
    assert process.returncode == 130, flat
    assert "Interrupted" in flat and "run the same command to resume" in flat


def test_help_says_the_sizes_and_that_it_is_long() -> None:
    shown = " ".join(CliRunner().invoke(app, ["solve", "--help"], terminal_width=300).output.split())
    assert "1.1 GB" in shown and "2.73 GB" in shown and "Long" in shown and "--margin-only" in shown
