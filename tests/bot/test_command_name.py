"""After the README's setup, `rummy-vision` runs as printed: bare once .venv is activated, and the tool's own
hints name it in a form that runs in the user's shell."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.cli.command_name import command_name

VENV_BIN = Path(sys.prefix) / "bin"


def test_activating_the_venv_puts_rummy_vision_on_path(tmp_path) -> None:
    # What the README says: `source .venv/bin/activate`, then the bare name works from any directory.
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    env["PATH"] = "/usr/bin:/bin"
    run = subprocess.run(
        ["bash", "-c", f"source {VENV_BIN / 'activate'} && rummy-vision --help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "match" in run.stdout and "replay" in run.stdout


def test_hints_name_the_tool_as_the_user_can_run_it(tmp_path, monkeypatch) -> None:
    script = str(VENV_BIN / "rummy-vision")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # not activated: the user typed a path
    assert command_name(script) == script
    assert command_name(".venv/bin/rummy-vision") == ".venv/bin/rummy-vision"
    monkeypatch.setenv("PATH", f"{VENV_BIN}:/usr/bin:/bin")  # activated: the bare name runs this script
    assert command_name(script) == "rummy-vision"
    assert command_name("/usr/bin/python3") == "rummy-vision"  # `python -m`: the installed name
