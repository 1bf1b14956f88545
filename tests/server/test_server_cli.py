"""`rummy-vision bots add/set/list` and `rummy-vision serve` as a user runs them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

CLI = [sys.executable, "-c", "from bot.cli import app; app()"]
ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_bots_add_prints_the_password_once_and_serve_accepts_it(tmp_path):
    db = tmp_path / "cli.sqlite3"
    added = _run("bots", "add", "robo", "--user", "me", "--db", str(db))
    assert added.returncode == 0, added.stderr
    password = added.stdout.strip().splitlines()[-1]
    assert len(password) >= 20
    assert _run("bots", "add", "robo", "--db", str(db)).returncode != 0  # already registered
    assert _run("bots", "add", "housebot-x", "--db", str(db)).returncode != 0  # reserved
    listed = _run("bots", "list", "--db", str(db))
    assert "robo" in listed.stdout and password not in listed.stdout
    assert password.encode() not in db.read_bytes()  # only the salted hash is stored
    changed = _run("bots", "set", "robo", "--status", "suspended", "--balance", "7", "--db", str(db))
    assert "SUSPENDED" in changed.stdout and "7" in changed.stdout
    _run("bots", "set", "robo", "--status", "active", "--db", str(db))

    port = _free_port()
    server = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--db", str(db), "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}/prod/GM-GetListOfGameStyles"
        deadline = time.monotonic() + 60  # a minute, as START_TIMEOUT_S elsewhere: a loaded machine starts slowly
        while True:
            try:
                answer = httpx.post(url, json={"BotId": "robo", "BotPassword": password, "GameTypeId": None}).json()
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not come up"
                time.sleep(0.2)
        assert answer["Result"] == "SUCCESS" and answer["Balance"] == 7
        assert httpx.get(f"http://127.0.0.1:{port}/oracle/labels/1").status_code == 404
    finally:
        server.terminate()
        server.wait(timeout=20)
