"""The recipes `suite`, `lockout` and `win-count` (`python tools/measure.py`): one result format with the product's.

The suite is rebuilt from its seed and compared with the tracked fixture; the lock-out attack runs
for a few seconds against a real `serve` and a real `play --forever`; the stored lock-out and
win-count results read as common-format results and hold the figures the README quotes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tools.recipes.app import app
from tools.recipes.record import MEASUREMENTS, read_result

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "strategies" / "positions.jsonl"


def test_measure_suite_rebuilds_the_fixture_from_its_seed(tmp_path: Path) -> None:
    positions = tmp_path / "positions.jsonl"
    args = ["suite", "--count", "2", "--positions", str(positions), "--out", str(tmp_path)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    built = [json.loads(line) for line in positions.read_text(encoding="utf-8").splitlines()]
    tracked = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    # Positions are drawn one after another from one seed, so a short suite is the fixture's start.
    assert built == tracked[:2]
    result = read_result(tmp_path / "suite.json")
    assert result["seeds"] == {"decisions": 2024}
    assert result["figures"]["positions"] == 2 and result["figures"]["file"] == str(positions)


def test_measure_suite_refuses_an_unwritable_file_in_one_line(tmp_path: Path) -> None:
    args = ["suite", "--count", "1", "--positions", str(tmp_path / "no" / "such" / "x.jsonl")]
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert done.exit_code == 2
    assert "--positions" in done.output and "No such file" in " ".join(done.output.split())
    assert not (tmp_path / "suite.json").exists()


def test_measure_lockout_runs_a_real_server_and_client_under_attack(tmp_path: Path) -> None:
    args = ["lockout", "--duration-s", "3", "--rate", "4", "--out", str(tmp_path)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    result = read_result(tmp_path / "lockout.json")
    figures = result["figures"]
    assert result["settings"] == {"duration_s": 3.0, "rate": 4.0}
    assert sum(figures["attacker_answers"].values()) >= 4
    # Every wrong password is refused (or throttled); none logs in.
    assert set(figures["attacker_answers"]) <= {"INVALID_LOGIN_OR_PASSWORD", "throttled"}
    assert figures["victim"]["lost_on_time"] == 0 and figures["victim"]["client_exits"] == 0
    # The server and the client are waited-for children: their CPU is counted.
    assert result["cpu_seconds"] > 0


@pytest.mark.parametrize(
    "command", [["table-build"], ["table-build", "--objective", "win"], ["table-lookup", "--objective", "win"]]
)
def test_a_missing_table_ends_a_table_measurement_in_one_line_and_stores_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    missing = tmp_path / "none.table"
    done = CliRunner().invoke(app, [*command, "--table", str(missing), "--out", str(tmp_path)])
    assert done.exit_code == 2
    assert str(missing) in " ".join(done.output.split())
    assert list(tmp_path.iterdir()) == []


def test_the_stored_lockout_and_win_count_results_hold_the_readme_figures() -> None:
    lockout = read_result(MEASUREMENTS / "lockout.json")
    victim = lockout["figures"]["victim"]
    assert (victim["matches"], victim["lost_on_time"], victim["client_exits"]) == (286, 0, 0)
    assert lockout["settings"]["duration_s"] == 900.0 and "converted" in lockout["note"].lower()
    count = read_result(MEASUREMENTS / "win_table_count.json")
    layers = count["figures"]["layers"]
    assert len(layers) == 20 and round(sum(layer["pairs"] for layer in layers) / 1e9, 2) == 3.68
    assert sum(layer["pairs_laid_sets"] for layer in layers) == 534_874_398
    assert set(count["figures"]["counts"]) == {"pairs", "pairs_laid_total", "pairs_laid_sets"}
    assert round(count["cpu_seconds"]) == 406 and count["source"]["dirty"] is False


def test_a_timed_build_refuses_a_folder_that_already_holds_the_table(tmp_path: Path) -> None:
    # A resumed build would time only its rest, so --build wants a fresh file.
    (tmp_path / "margin.rvt").write_bytes(b"half a build")
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["table-build", "--build", str(tmp_path), "--out", str(out)])
    assert done.exit_code != 0
    assert "margin.rvt exists" in " ".join(done.output.split())
    assert not out.exists() or list(out.iterdir()) == []
