"""The records file's schema versions (PRAGMA user_version): a new file is made at the latest, a file of
today's layout made before versions existed upgrades without losing anything, an older one gets the
columns it lacked, a newer one is refused in one line, and a failed upgrade leaves the file as it was."""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bot.matches.head_to_head import load_ratings
from bot.matches.tournament_records import load_standings
from server.accounts import Accounts
from server.replay_file_store import ReplayFileStore
from server.storage import schema
from server.storage.records import Records, connect
from server.storage.runs import list_runs, run_detail
from server.storage.schema import LATEST, MIGRATIONS, RecordsTooNew, version_of

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "records"
# What fixtures/records/make_before_versions.py read back from the file it made, with the code of then.
BEFORE = json.loads((FIXTURES / "before-versions.json").read_text())


def before_versions(folder: Path) -> Path:
    """A copy of the records file made before schema versions (fixtures/records/make_before_versions.py)."""
    path = folder / "records.sqlite3"
    path.write_bytes(gzip.decompress((FIXTURES / "before-versions.sqlite3.gz").read_bytes()))
    return path


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def layout(db: sqlite3.Connection) -> dict[str, Any]:
    """Every table's columns (name, type, not null, default, key) and every index, by name."""
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    return {
        "tables": {name: [tuple(row)[1:] for row in db.execute(f"PRAGMA table_info({name})")] for name in names},
        "indexes": sorted(
            tuple(row) for row in db.execute("SELECT name, tbl_name FROM sqlite_master WHERE type='index'")
        ),
    }


def test_the_migrations_are_numbered_one_by_one() -> None:
    assert [migration.version for migration in MIGRATIONS] == list(range(1, LATEST + 1))


def test_a_new_file_is_made_at_the_latest_version_with_the_layout_of_todays_files(tmp_path: Path) -> None:
    fresh = connect(tmp_path / "new.sqlite3")
    old = sqlite3.connect(before_versions(tmp_path))
    try:
        assert version_of(fresh) == LATEST
        assert version_of(old) == 0
        # The numbered migrations rebuild exactly the tables and columns the ad-hoc code made.
        assert layout(fresh) == layout(old)
    finally:
        fresh.close()
        old.close()
    assert version_of(connect(":memory:")) == LATEST


def test_a_file_made_before_versions_upgrades_and_keeps_everything(tmp_path: Path) -> None:
    path = before_versions(tmp_path)
    records = Records(path)
    try:
        assert version_of(records.db) == LATEST
        accounts = Accounts(records.db)
        assert [[bot.name, bot.user, bot.status.value, bot.balance] for bot in accounts.all()] == BEFORE["bots"]
        for name, password in BEFORE["passwords"].items():  # the password hashes still check
            login = accounts.login(name)
            assert login is not None and login.matches(password) and not login.matches(password + "x")
        held = [list(row) for row in records.db.execute("SELECT * FROM held_stakes ORDER BY player_key")]
        assert held == BEFORE["held_stakes"]
        assert records.list_matches() == BEFORE["matches"]
        assert {
            str(game["GameId"]): digest(records.match_record(game["GameId"])) for game in records.list_matches()
        } == BEFORE["match_record_sha256"]
        runs = list_runs(records.db)
        assert runs == BEFORE["runs"]
        assert {str(run["RunId"]): digest(run_detail(records.db, run["RunId"])) for run in runs} == BEFORE[
            "run_details_sha256"
        ]
        files = ReplayFileStore(records.db)
        assert files.summaries() == BEFORE["replay_files"]
        assert files.lines(BEFORE["replay_files"][0]["FileId"]) == BEFORE["replay_file_lines"]
        # The stakes still settle: the running match's go back to both players, the waiting offer's to alice.
        assert records.abort_running(now=2e9) == 1
        assert records.release_all_stakes() == 1
        balances = {bot.name: bot.balance for bot in accounts.all()}
        before = {name: balance for name, _user, _status, balance in BEFORE["bots"]}
        assert balances == {**before, "alice": before["alice"] + 20 + 30, "bob": before["bob"] + 20}
    finally:
        records.close()
    assert [list(row) for row in load_standings(path, BEFORE["tournament_id"])] == BEFORE["tournament_standings"]
    assert [rating.to_json() for rating in load_ratings(path)] == BEFORE["ratings"]


# The tables as the first records files had them: moves before suggestions and logs, no stakes held at the
# offer, no runs, no replay files, no tournaments.
FIRST_FILES = """
CREATE TABLE bots (
    name TEXT PRIMARY KEY, user TEXT NOT NULL, salt BLOB NOT NULL, password_hash BLOB NOT NULL,
    iterations INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'ACTIVE', balance INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE matches (
    game_id INTEGER PRIMARY KEY AUTOINCREMENT, style_id INTEGER NOT NULL, rounds INTEGER NOT NULL,
    move_time_ms INTEGER NOT NULL, seed TEXT NOT NULL, player0 TEXT NOT NULL, player1 TEXT NOT NULL,
    stake INTEGER NOT NULL DEFAULT 0, prize INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL, end_reason TEXT, status0 TEXT, status1 TEXT,
    rounds_won0 INTEGER NOT NULL DEFAULT 0, rounds_won1 INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL, ended_at REAL
);
CREATE TABLE moves (
    move_seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL REFERENCES matches(game_id),
    round_index INTEGER NOT NULL, seat INTEGER NOT NULL, bot TEXT NOT NULL, received_at REAL NOT NULL,
    move TEXT NOT NULL, result TEXT NOT NULL, applied INTEGER NOT NULL, error TEXT, gamestate TEXT
);
INSERT INTO matches (style_id, rounds, move_time_ms, seed, player0, player1, status, started_at)
    VALUES (1, 1, 1000, 'old', 'alice', 'bob', 'FINISHED', 1.0);
INSERT INTO moves (game_id, round_index, seat, bot, received_at, move, result, applied, gamestate)
    VALUES (1, 0, 0, 'alice', 2.0, '{"Give": 3}', 'SUCCESS', 1, '{"MyHand": []}');
"""


def test_an_older_file_gets_the_tables_and_columns_it_lacked(tmp_path: Path) -> None:
    path = tmp_path / "first.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(FIRST_FILES)
    old.close()
    records = Records(path)
    try:
        moves = [row[1] for row in records.db.execute("PRAGMA table_info(moves)")]
        assert moves[-2:] == ["suggestions", "log"]
        assert "head_to_head" in [row[1] for row in records.db.execute("PRAGMA table_info(runs)")]
        record = records.match_record(1)
        assert record is not None
        assert record["Moves"][0]["Move"] == {"Give": 3} and "Suggestions" not in record["Moves"][0]
        assert list_runs(records.db) == []
    finally:
        records.close()


def test_a_file_of_a_newer_version_is_refused_in_one_line_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {LATEST + 1}")
    newer.close()
    with pytest.raises(RecordsTooNew) as refused:
        connect(path)
    message = str(refused.value)
    assert "\n" not in message and str(path) in message and f"version {LATEST + 1}" in message
    with sqlite3.connect(path) as after:
        assert version_of(after) == LATEST + 1
        assert after.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    after.close()

    from bot.cli.main import app

    result = CliRunner().invoke(app, ["bots", "list", "--db", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "newer than this rummy-vision" in result.output and "Traceback" not in result.output


def test_a_failed_upgrade_leaves_the_file_at_its_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = before_versions(tmp_path)

    def fails(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE moves ADD COLUMN half_done TEXT")
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(schema, "MIGRATIONS", (*MIGRATIONS, schema.Migration(LATEST + 1, "fails", fails)))
    monkeypatch.setattr(schema, "LATEST", LATEST + 1)
    with pytest.raises(RuntimeError, match="disk filled up"):
        connect(path)
    monkeypatch.undo()
    with sqlite3.connect(path) as db:
        assert version_of(db) == 0
        assert "half_done" not in [row[1] for row in db.execute("PRAGMA table_info(moves)")]
    db.close()
