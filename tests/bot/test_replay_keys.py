"""The interactive replay under a pseudo-terminal: single keys step (no Enter), unknown keys get the key list."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")


@pytest.fixture
def stored_game(tmp_path) -> tuple[Path, int, int]:
    from bot.matches.local_match import Contender, play_round
    from bot.matches.match_records import store_rounds

    result = play_round("keys:1", (Contender("greedy"), Contender("random")))
    db = tmp_path / "records.sqlite3"
    _, (game_id,) = store_rounds(db, [(result, 0)], ("greedy", "random"))
    return db, game_id, len(result.moves)


class Terminal:
    """A child process on a pseudo-terminal, read until a pattern shows (a small pexpect)."""

    def __init__(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "140", "LINES": "50"}
        self.process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env)
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, timeout_s: float = 20.0) -> str:
        """Wait for `pattern` (a regex) in the output after what earlier expects consumed; return that output."""
        deadline = time.monotonic() + timeout_s
        while True:
            match = re.search(pattern, self.seen, re.S)
            if match:
                before, self.seen = self.seen[: match.end()], self.seen[match.end() :]
                return before
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} in the output: {self.seen[-800:]!r}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the program ended before {pattern!r}: {self.seen[-800:]!r}"
                self.seen += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.process.wait(timeout=20)
        finally:
            os.close(self.master)


def test_single_keys_step_through_a_replay(stored_game) -> None:
    db, game_id, moves = stored_game
    last = moves  # step 0 is the deal
    terminal = Terminal(
        [sys.executable, "-c", "from bot.cli import app; app()", "replay", str(game_id), "--db", str(db)]
    )
    try:
        terminal.expect(r"step 0/\d+ .*?keys: ")
        terminal.press("n")  # one key, no Enter
        terminal.expect(r"step 1/\d+ .*?keys: ")
        terminal.press("\x1b[C")  # right arrow
        terminal.expect(r"step 2/\d+ .*?keys: ")
        terminal.press("p")
        terminal.expect(r"step 1/\d+ .*?keys: ")
        terminal.press("\x1b[F")  # End
        terminal.expect(rf"step {last}/{last} .*?keys: ")
        terminal.press("\x1b[D")  # left arrow
        terminal.expect(rf"step {last - 1}/{last} .*?keys: ")
        terminal.press("\x1b[H")  # Home
        terminal.expect(r"step 0/\d+ .*?keys: ")
        terminal.press("x")  # unknown: the key list, and no step taken
        shown = terminal.expect(r"unknown key 'x'; keys: .*?q quit")
        assert "step 0/" in shown
        terminal.press("3\r")
        terminal.expect(r"step 3/\d+ ")
        terminal.press("q")
        assert terminal.close() == 0
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()


def test_replay_errors_exit_non_zero_and_a_what_if_sits_beside_the_record(stored_game) -> None:
    from typer.testing import CliRunner

    from bot.cli import app

    db, game_id, moves = stored_game
    runner = CliRunner()
    base = ["replay", str(game_id), "--db", str(db)]
    out_of_range = runner.invoke(app, [*base, "--turn", str(moves + 30)])
    assert out_of_range.exit_code == 2 and f"step {moves + 30} is out of range" in out_of_range.stderr
    unknown = runner.invoke(app, [*base, "--turn", "3", "--continue-with", "nope"])
    assert unknown.exit_code == 2 and "unknown strategy 'nope'" in unknown.stderr
    what_if = runner.invoke(app, [*base, "--turn", "3", "--continue-with", "greedy"], terminal_width=160)
    assert what_if.exit_code == 0, what_if.output
    table = what_if.stdout[what_if.stdout.index("What if, from step 3, against what happened") :]
    for row in ("recorded players", "recorded rounds won", "what-if players", "what-if rounds won"):
        assert row in table
    assert "greedy" in table and "random" in table
