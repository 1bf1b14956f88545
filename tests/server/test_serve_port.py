"""`rummy-vision serve` on a port that is already taken: one line, exit 1, no records file created."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-c", "from bot.cli import app; app()"]
ROOT = Path(__file__).resolve().parents[2]


def test_serve_on_a_port_in_use_says_so_in_one_line_and_creates_no_db(tmp_path):
    db = tmp_path / "never.sqlite3"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = subprocess.run(
            [*CLI, "serve", "--port", str(port), "--db", str(db)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert run.returncode == 1
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines == [f"Cannot listen on 127.0.0.1:{port}: in use (another server running? choose another --port)"]
    assert "referee on" not in run.stderr + run.stdout  # it never announced itself on that port
    assert not db.exists() and list(tmp_path.iterdir()) == []
