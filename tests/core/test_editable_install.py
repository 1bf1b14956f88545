"""The setup's editable install prints no setuptools warning box, and what it installs is the checkout itself,
so tests and tools see every change without reinstalling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parents[2]


def test_editable_install_is_quiet_and_points_at_the_checkout(tmp_path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    # The same install as .ci/setup, without the dependencies (already in this venv) to keep it short, and
    # with this venv's setuptools (the test extra) instead of an isolated build, which would fetch it: no
    # test reaches the network.
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", "--no-deps"]
        + ["--no-build-isolation", "--no-index", "-e", str(ROOT)],
        env={**os.environ, "PYTHONPATH": str(Path(setuptools.__file__).parents[1])},  # the backend, for the new venv
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    output = install.stdout + install.stderr
    assert "Editable install" not in output and "!!" not in output, output
    # A plain .pth entry naming the checkout: modules are imported from it, so a file added later is found too.
    probe = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sys, bot; print(bot.__file__); print(*sys.path, sep='\\n')"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert probe.returncode == 0, probe.stderr
    location, *path = probe.stdout.splitlines()
    assert Path(location) == ROOT / "bot" / "__init__.py" and str(ROOT) in path
