"""Two referees on one records file: the second refuses in one line naming the first's PID and port."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

CLI = [str(Path(sys.executable).with_name("rummy-vision"))]
START_TIMEOUT_S = 60.0


def _start_serve(db: Path, home: Path) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "COLUMNS": "300"}
    process = subprocess.Popen(
        [*CLI, "serve", "--port", "0", "--db", str(db)], stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stderr is not None
    deadline = time.monotonic() + START_TIMEOUT_S
    lines = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        lines.append(line)
        found = re.search(r"referee on http://127\.0\.0\.1:(\d+)/prod/", line)
        if found:
            return process, int(found.group(1))
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"serve did not start: {''.join(lines)}")


def test_a_second_serve_on_the_same_records_file_refuses_naming_the_first(tmp_path):
    db = tmp_path / "records.sqlite3"
    first, port = _start_serve(db, tmp_path)
    try:
        env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "300"}
        second = subprocess.run(
            [*CLI, "serve", "--port", "0", "--db", str(db)], capture_output=True, text=True, env=env, timeout=120
        )
        assert second.returncode == 1
        message = second.stderr.strip()
        assert len(message.splitlines()) == 1, message
        assert f"PID {first.pid} on port {port}" in message and str(db) in message
        # The first referee goes on serving.
        assert httpx.get(f"http://127.0.0.1:{port}/docs", timeout=10).status_code == 200
    finally:
        first.terminate()
        first.wait(timeout=30)
    # Once the first has stopped, the file is free again.
    again, _port = _start_serve(db, tmp_path)
    again.terminate()
    again.wait(timeout=30)


def test_serve_names_its_pages_and_keeps_quiet_about_requests(tmp_path):
    process, port = _start_serve(tmp_path / "records.sqlite3", tmp_path)
    try:
        assert process.stderr is not None
        pages = process.stderr.readline()
        for page in ("/viewer", "/play", "/docs"):
            assert f"http://127.0.0.1:{port}{page}" in pages
        httpx.get(f"http://127.0.0.1:{port}/docs", timeout=10)
    finally:
        process.terminate()
        _out, rest = process.communicate(timeout=30)
    assert "GET /docs" not in rest


def test_play_human_keeps_its_own_records_file():
    from bot.cli.play_human import own_records_path
    from server.settings import default_db_path

    assert own_records_path() != default_db_path()
    assert own_records_path().parent == default_db_path().parent
