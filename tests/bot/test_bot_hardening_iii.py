"""Hardening III, the client's side: a client that trusts no server, and a terminal no name can drive.

Each test reproduces an attack of the probe behind issue 41 and failed on the code before the fix."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from bot_loopback import RawServer  # tests/bot/conftest.py puts the shared helpers on the path
from typer.testing import CliRunner

from bot.cli import app
from server.embedded import EmbeddedServer
from server.settings import Settings

runner = CliRunner()


class Hostile:
    """A server on loopback that names a file of the client's in `GET /admin` and keeps every header sent."""

    def __init__(self, named: Path) -> None:
        self.seen: list[str] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, status: int, body: Any) -> None:
                seen.append(str(self.headers))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                self._answer(200, {"TokenFile": str(named), "RemoteAllowed": False, "Proof": "0" * 64})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", "0") or 0)
                seen.append(self.rfile.read(length).decode(errors="replace"))
                self._answer(201, {"FileId": 1, "Name": "x", "Existing": False, "Viewer": "/v", "Review": "/r"})

            def log_message(self, *args: Any) -> None:
                pass

        self.server = RawServer(Handler)
        self.base = self.server.base

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def hostile() -> Iterator[Any]:
    made: list[Hostile] = []

    def make(named: Path) -> Hostile:
        made.append(Hostile(named))
        return made[-1]

    yield make
    for one in made:
        one.close()


def test_a_hostile_server_cannot_make_the_client_read_and_send_a_file_it_names(hostile, tmp_path):
    secret = tmp_path / "id_secret"
    secret.write_text("SECRET-LINE-ONE\nSECRET-LINE-TWO\n")
    secret.chmod(0o600)
    server = hostile(secret)
    sent = tmp_path / "match.jsonl"
    sent.write_text("{}\n")
    viewer = runner.invoke(app, ["replay", str(sent), "--viewer", "--server", server.base])
    match = runner.invoke(app, ["match", "greedy", "random", "--server", server.base + "/prod/", "--rounds", "1"])
    for result in (viewer, match):
        assert result.exit_code == 2
        assert "SECRET" not in result.output
    assert not any("SECRET" in seen for seen in server.seen)


def test_another_listener_never_gets_the_token_of_the_users_own_referee(hostile, tmp_path):
    """The user's referee runs on one port; whatever listens on another (a local user's server, where the
    user expected theirs) names the real token file: the client refuses and sends no token."""
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db)) as own:
        token = Path(f"{db}.admin-token").read_text()
        server = hostile(Path(f"{db}.admin-token"))
        sent = tmp_path / "match.jsonl"
        sent.write_text("{}\n")
        refused = runner.invoke(app, ["replay", str(sent), "--viewer", "--server", server.base, "--db", str(db)])
        assert refused.exit_code == 2 and "cannot prove" in refused.output.replace("\n", " ")
        assert not any(token in seen for seen in server.seen)
        # The same command reaches the user's own referee.
        good = json.dumps({"Result": "x"})  # refused by the referee as a replay file, but over the admin call
        sent.write_text(good + "\n")
        mine = runner.invoke(app, ["replay", str(sent), "--viewer", "--server", own.base, "--db", str(db)])
        assert "cannot prove" not in mine.output and "admin token" not in mine.output


def test_a_token_file_that_is_a_link_or_readable_by_others_is_not_used(tmp_path):
    from bot.matches.server_admin import AdminUnavailable, ServerAdmin

    db = tmp_path / "records.sqlite3"
    target = tmp_path / "elsewhere"
    target.write_text("A" * 40)
    target.chmod(0o600)
    Path(f"{db}.admin-token").symlink_to(target)
    with pytest.raises(AdminUnavailable, match="cannot read the admin token"):
        ServerAdmin.find("http://127.0.0.1:9/prod/", records=db)
    Path(f"{db}.admin-token").unlink()
    Path(f"{db}.admin-token").write_text("A" * 40)
    Path(f"{db}.admin-token").chmod(0o644)
    with pytest.raises(AdminUnavailable, match="other users"):
        ServerAdmin.find("http://127.0.0.1:9/prod/", records=db)


# --- items 8 and 9: names with markup and escape sequences -----------------------------------------------

HOSTILE_NAME = "[/]evil\x1b[2J\x1b]0;pwned\x07"


def _renamed(recorded, tmp_path: Path) -> tuple[Path, Path]:
    """The recorded match with its opponent renamed HOSTILE_NAME, as a replay file and in a records file."""
    import sqlite3

    path, _record = recorded
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(Path(path).read_text().replace("housebot-practise", json.dumps(HOSTILE_NAME)[1:-1]))
    db = tmp_path / "renamed.sqlite3"
    source = sqlite3.connect(tmp_path / "records-0.sqlite3")
    connection = sqlite3.connect(db)
    source.backup(connection)  # with what the WAL holds
    source.close()
    with connection:
        for table, column in (("matches", "player0"), ("matches", "player1"), ("moves", "bot")):
            connection.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = 'housebot-practise'", (HOSTILE_NAME,))
    connection.close()
    return renamed, db


COMMANDS = {
    "replay FILE": ["replay", "{file}"],
    "review FILE": ["review", "{file}", "--db", "{none}"],
    "review GAME": ["review", "{game}", "--db", "{db}"],
    "review latest": ["review", "latest", "--db", "{db}"],
    "review --html": ["review", "{game}", "--db", "{db}", "--html", "{html}"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_names_with_markup_or_escape_sequences_neither_crash_nor_reach_the_terminal(recorded, tmp_path, command):
    renamed, db = _renamed(recorded, tmp_path)
    places = {
        "file": str(renamed),
        "none": str(tmp_path / "none.sqlite3"),
        "db": str(db),
        "game": str(recorded[1]["GameId"]),
        "html": str(tmp_path / "review.html"),
    }
    shown = runner.invoke(app, [part.format(**places) for part in COMMANDS[command]], terminal_width=200)
    assert shown.exit_code == 0, (shown.output, shown.exception)
    assert "\x1b" not in shown.output
    assert "[/]evil\\x1b[2J" in shown.output  # shown as written, its escapes visible


def test_the_play_status_line_shows_escape_sequences_in_a_name_without_sending_them():
    import io

    from rich.console import Console

    from bot.cli.play_output import LiveStatus
    from bot.client.runner import MatchSummary

    status = LiveStatus(Console(file=io.StringIO(), width=300))  # no colours: any ESC would be the name's
    status.gamestate({"GameId": 3, "OpponentId": HOSTILE_NAME, "RemainingMoves": 5, "IsMover": True})
    status.match_ended(MatchSummary(3, HOSTILE_NAME, "LOST", 0, 1, 9, 0, 1.0))
    line = "".join(str(segment.text) for segment in status.live.renderable.render(status.console))  # type: ignore[union-attr]
    printed = status.console.file.getvalue()  # type: ignore[attr-defined]
    for text in (line, printed):
        assert "\x1b" not in text and "\\x1b[2J" in text


@pytest.mark.parametrize("name", ["evil\x1b[2J", "title\x1b]0;x\x07", "bell\x07", "nl\nname", "rtl\u202ename"])
def test_bots_add_refuses_names_with_control_characters(tmp_path, name):
    added = runner.invoke(app, ["bots", "add", name, "--db", str(tmp_path / "r.sqlite3")])
    assert added.exit_code != 0 and "control characters" in added.output
    user = runner.invoke(app, ["bots", "add", "fine", "--user", name, "--db", str(tmp_path / "r.sqlite3")])
    assert user.exit_code != 0 and "control characters" in user.output


# --- item 11: a bot's children that start their own session ------------------------------------------------------

SPAWNS_SESSIONS = """
import os, subprocess, sys

def calculate_move(gamestate):
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    # A child in a session of its own: outside the bot's process group.
    own = subprocess.Popen(sleeper, start_new_session=True)
    # A daemon: fork, setsid, fork again, the middle one exits (the grandchild is an orphan).
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        grandchild = subprocess.Popen(sleeper)
        os.write(write, str(grandchild.pid).encode())
        os._exit(0)
    daemon = int(os.read(read, 20))
    open(PIDS, "w").write(f"{own.pid} {daemon}")
    return {"Give": 5}
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def test_children_that_start_their_own_session_die_with_the_bot(tmp_path):
    import os
    import signal
    import time

    from bot.players.deadline import Budget
    from bot.players.user_bot_process import UserBotProcess

    pids_file = tmp_path / "pids"
    bot = tmp_path / "sessions.py"
    bot.write_text(f"PIDS = {str(pids_file)!r}\n" + SPAWNS_SESSIONS)
    gamestate = {"MyHand": [[5, "u5"], [6, "u6"], [7, "u7"]], "OppHand": [[8, "u8"]]}
    with UserBotProcess(bot) as process:
        assert process.wait_loaded(60)
        now = time.monotonic()
        assert process.run(gamestate, Budget(send_by=now + 30, received=now, deadline=now + 30, margin_s=0.0)).move
        children = [int(pid) for pid in pids_file.read_text().split()]
        assert all(_alive(pid) for pid in children)
    deadline = time.monotonic() + 20  # SIGKILL is immediate; the bound only allows for a loaded machine
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = [pid for pid in children if _alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert survivors == [], "the bot's children in sessions of their own outlived its match"
