"""`bots password` gives a bot a new password; `bots remove` forgets it (its matches stay)."""

from __future__ import annotations

from typer.testing import CliRunner

from bot.cli import app
from server.accounts import Accounts
from server.storage.records import connect

runner = CliRunner()


def _login_works(db, name: str, password: str) -> bool:
    connection = connect(db)
    try:
        login = Accounts(connection).login(name)
        return login is not None and login.matches(password)
    finally:
        connection.close()


def test_bots_password_and_remove(tmp_path):
    db = str(tmp_path / "records.sqlite3")
    added = runner.invoke(app, ["bots", "add", "alice", "--db", db])
    assert added.exit_code == 0, added.output
    old = added.stdout.strip().splitlines()[-1]
    changed = runner.invoke(app, ["bots", "password", "alice", "--db", db])
    assert changed.exit_code == 0, changed.output
    new = changed.stdout.strip().splitlines()[-1]
    assert new != old and _login_works(db, "alice", new) and not _login_works(db, "alice", old)
    removed = runner.invoke(app, ["bots", "remove", "alice", "--db", db])
    assert removed.exit_code == 0 and "Removed bot alice" in removed.output
    assert not _login_works(db, "alice", new)
    again = runner.invoke(app, ["bots", "remove", "alice", "--db", db], env={"COLUMNS": "200"})
    assert again.exit_code != 0 and "no bot named 'alice'" in again.output
