"""The records file's schema, in numbered versions kept in SQLite's `PRAGMA user_version`.

`migrate` brings a file to LATEST: it runs the migrations after the file's version, in order, and sets
the new version, all in one transaction, so a crash leaves the file at its old version or at LATEST and
two processes opening an old file at once upgrade it once. A new (empty) file runs them all.

Version 0 is also every file written before the versions were numbered: such a file may hold any of the
tables (each came with the feature that writes it), with or without the columns migrations 2 to 4 add. So
migration 1 creates a table only where it is missing, and a column is added only where it is missing.

A file of a version above LATEST was written by a newer rummy-vision; this code could misread or damage
it, so it is refused (RecordsTooNew) before anything is written.

To change the schema, append a migration; never edit one that has shipped. What each table holds is
described where it is written: server/storage/records.py (bots ... held_stakes), server/storage/runs.py,
server/replay_file_store.py, bot/matches/tournament_records.py and bot/matches/head_to_head.py (ratings).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass


class RecordsTooNew(Exception):
    """The records file has a schema version above LATEST: a newer rummy-vision wrote it."""


@dataclass(frozen=True)
class Migration:
    version: int
    why: str
    apply: Callable[[sqlite3.Connection], None]


# Each table as its feature first created it; later columns come from the migrations after this one.
TABLES = (
    """CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY, user TEXT NOT NULL, salt BLOB NOT NULL, password_hash BLOB NOT NULL,
    iterations INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'ACTIVE', balance INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS matches (
    game_id INTEGER PRIMARY KEY AUTOINCREMENT, style_id INTEGER NOT NULL, rounds INTEGER NOT NULL,
    move_time_ms INTEGER NOT NULL, seed TEXT NOT NULL, player0 TEXT NOT NULL, player1 TEXT NOT NULL,
    stake INTEGER NOT NULL DEFAULT 0, prize INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL, end_reason TEXT, status0 TEXT, status1 TEXT,
    rounds_won0 INTEGER NOT NULL DEFAULT 0, rounds_won1 INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL, ended_at REAL
)""",
    """CREATE TABLE IF NOT EXISTS rounds (
    game_id INTEGER NOT NULL REFERENCES matches(game_id), round_index INTEGER NOT NULL,
    kinds TEXT NOT NULL, first_mover INTEGER NOT NULL, points0 INTEGER, points1 INTEGER, winner INTEGER,
    started_at REAL NOT NULL, ended_at REAL,
    PRIMARY KEY (game_id, round_index)
)""",
    """CREATE TABLE IF NOT EXISTS deal_cards (
    game_id INTEGER NOT NULL, round_index INTEGER NOT NULL, card_id INTEGER NOT NULL,
    url TEXT NOT NULL, token TEXT NOT NULL, landmark TEXT NOT NULL,
    dealt_to TEXT NOT NULL, position INTEGER NOT NULL,
    PRIMARY KEY (game_id, round_index, card_id),
    FOREIGN KEY (game_id, round_index) REFERENCES rounds(game_id, round_index)
)""",
    """CREATE TABLE IF NOT EXISTS moves (
    move_seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL REFERENCES matches(game_id),
    round_index INTEGER NOT NULL, seat INTEGER NOT NULL, bot TEXT NOT NULL, received_at REAL NOT NULL,
    move TEXT NOT NULL, result TEXT NOT NULL, applied INTEGER NOT NULL, error TEXT, gamestate TEXT
)""",
    """CREATE TABLE IF NOT EXISTS held_stakes (
    player_key TEXT PRIMARY KEY, bot TEXT NOT NULL, amount INTEGER NOT NULL, held_at REAL NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS moves_by_game ON moves(game_id, move_seq)",
    "CREATE INDEX IF NOT EXISTS deal_cards_by_token ON deal_cards(token)",
    """CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, title TEXT NOT NULL, created_at REAL NOT NULL,
    players TEXT NOT NULL, standings TEXT NOT NULL, tournament_id INTEGER
)""",
    """CREATE TABLE IF NOT EXISTS run_games (
    run_id INTEGER NOT NULL REFERENCES runs(run_id), game_id INTEGER NOT NULL, position INTEGER NOT NULL,
    label TEXT NOT NULL, PRIMARY KEY (run_id, position)
)""",
    "CREATE INDEX IF NOT EXISTS run_games_by_game ON run_games(game_id)",
    """CREATE TABLE IF NOT EXISTS replay_files (
    file_id INTEGER PRIMARY KEY AUTOINCREMENT, digest TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
    game_id INTEGER, player0 TEXT NOT NULL, player1 TEXT NOT NULL, status TEXT NOT NULL,
    rounds_won0 INTEGER NOT NULL, rounds_won1 INTEGER NOT NULL, started_at REAL, uploaded_at REAL NOT NULL,
    lines TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS tournaments (
    tournament_id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL, seed TEXT NOT NULL,
    rounds_per_pair INTEGER NOT NULL, players TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(tournament_id), a TEXT NOT NULL, b TEXT NOT NULL,
    deal_seed TEXT NOT NULL, seat_of_a INTEGER NOT NULL, winner TEXT NOT NULL, margin_of_a INTEGER NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS tournament_standings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(tournament_id), rank INTEGER NOT NULL,
    name TEXT NOT NULL, rating REAL NOT NULL, low REAL NOT NULL, high REAL NOT NULL,
    wins INTEGER NOT NULL, rounds INTEGER NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS ratings (
    name TEXT PRIMARY KEY, rating REAL NOT NULL, low REAL NOT NULL, high REAL NOT NULL,
    rounds INTEGER NOT NULL, wins INTEGER NOT NULL, tournaments INTEGER NOT NULL, updated_at REAL NOT NULL
)""",
)


def _create_tables(db: sqlite3.Connection) -> None:
    for statement in TABLES:
        db.execute(statement)


def _add_column(table: str, column: str, declared: str) -> Callable[[sqlite3.Connection], None]:
    def add(db: sqlite3.Connection) -> None:
        if column not in {str(row[1]) for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declared}")

    return add


MIGRATIONS = (
    Migration(1, "the tables: accounts, stakes, matches, runs, replay files, tournaments, ratings", _create_tables),
    Migration(
        2,
        "moves.suggestions: our strategies' best moves, with their values",
        _add_column("moves", "suggestions", "TEXT"),
    ),
    Migration(3, "runs.head_to_head: a tournament's table per pair", _add_column("runs", "head_to_head", "TEXT")),
    Migration(4, "moves.log: what a bot file printed while choosing the move", _add_column("moves", "log", "TEXT")),
)
LATEST = MIGRATIONS[-1].version


def version_of(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, name: str) -> int:
    """Bring the file `name` open in `db` to LATEST; the version it had. RecordsTooNew above LATEST."""
    found = version_of(db)
    if found == LATEST:
        return found
    _refuse_newer(found, name)
    db.execute("BEGIN IMMEDIATE")  # the write lock first: another process may be upgrading the same file
    try:
        found = version_of(db)
        _refuse_newer(found, name)
        for migration in MIGRATIONS[found:]:
            migration.apply(db)
        db.execute(f"PRAGMA user_version = {LATEST}")
    except BaseException:
        db.rollback()
        raise
    db.commit()
    return found


def _refuse_newer(found: int, name: str) -> None:
    if found > LATEST:
        raise RecordsTooNew(
            f"the records file {name} has schema version {found}, newer than this rummy-vision's {LATEST}:"
            " open it with the newer rummy-vision that wrote it, or use another records file"
        )
