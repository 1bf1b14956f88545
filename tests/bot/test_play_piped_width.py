"""`play`'s summary piped to a file or another command keeps whole names: not squeezed to 80 columns."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app


def test_piped_play_output_keeps_whole_names(real_server, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    url, passwords = real_server(move_time_ms=60_000)
    arguments = ["play", "--strategy", "greedy", "--base-url", url, "--bot-id", "tester"]
    arguments += ["--password", passwords["tester"], "--opponent", "housebot-practise", "--no-record"]
    result = CliRunner().invoke(app, arguments, env={"XDG_DATA_HOME": str(tmp_path)})  # stdout is no terminal
    assert result.exit_code == 0, result.output
    table = [line for line in result.stdout.splitlines() if "│" in line]
    assert any("housebot-practise" in line for line in table), result.stdout
    assert any("LOST" in line or "WON" in line for line in table if "housebot-practise" in line), result.stdout
