"""Runs: a `rummy-vision match` or a tournament, grouping the one-round matches it stored.

Written by the bot side when it stores its rounds, read by the viewer, in the same SQLite records
file as the referee's tables:

    runs(run_id INTEGER PRIMARY KEY, kind TEXT  -- match | tournament
         title TEXT, created_at REAL, players TEXT  -- JSON list of names
         standings TEXT   -- JSON {"Columns": [str], "Rows": [[str | number]]}, ready to show
         tournament_id INTEGER,  -- the tournaments table's id, for a tournament
         head_to_head TEXT)  -- JSON like standings, one row per pair; NULL when not a tournament

    run_games(run_id, game_id, position INTEGER, label TEXT)  -- the run's rounds in the order played

A run is written in one transaction together with the links to its rounds, so the viewer sees all
of it or none. Each function takes a connection from server.storage.records.connect (which made the tables).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from rummy.standings import Standings


def store_run(
    db: sqlite3.Connection,
    *,
    kind: str,
    title: str,
    created_at: float,
    players: Sequence[str],
    standings: Standings,
    games: Sequence[tuple[int, str]],
    tournament_id: int | None = None,
    head_to_head: Standings | None = None,
) -> int:
    """Store a run and its (game_id, label) rounds in one transaction; return its run_id."""
    with db:
        cursor = db.execute(
            "INSERT INTO runs (kind, title, created_at, players, standings, tournament_id, head_to_head)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                kind,
                title,
                created_at,
                json.dumps(list(players)),
                json.dumps(standings.to_json()),
                tournament_id,
                None if head_to_head is None else json.dumps(head_to_head.to_json()),
            ),
        )
        run_id = int(cursor.lastrowid or 0)
        db.executemany(
            "INSERT INTO run_games (run_id, game_id, position, label) VALUES (?, ?, ?, ?)",
            [(run_id, game_id, position, label) for position, (game_id, label) in enumerate(games)],
        )
    return run_id


def list_runs(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every run, newest first, with its round count and the time its first round started."""
    rows = db.execute(
        "SELECT r.run_id, r.kind, r.title, r.created_at, r.players, r.tournament_id, r.standings, r.head_to_head,"
        " COUNT(g.game_id) AS games, MIN(m.started_at) AS started_at, MAX(m.ended_at) AS ended_at"
        " FROM runs r LEFT JOIN run_games g ON g.run_id = r.run_id LEFT JOIN matches m ON m.game_id = g.game_id"
        " GROUP BY r.run_id ORDER BY r.run_id DESC"
    ).fetchall()
    return [_run_json(row) for row in rows]


def run_detail(db: sqlite3.Connection, run_id: int) -> dict[str, Any] | None:
    """One run with its rounds in the order played: each with its label, players, result and start time."""
    runs = [run for run in list_runs(db) if run["RunId"] == run_id]
    if not runs:
        return None
    rows = db.execute(
        "SELECT g.position, g.label, m.game_id, m.player0, m.player1, m.status, m.rounds_won0, m.rounds_won1,"
        " m.started_at, m.ended_at FROM run_games g JOIN matches m ON m.game_id = g.game_id"
        " WHERE g.run_id = ? ORDER BY g.position",
        (run_id,),
    ).fetchall()
    games = [
        {
            "Position": row["position"],
            "Label": row["label"],
            "GameId": row["game_id"],
            "Players": [row["player0"], row["player1"]],
            "Status": row["status"],
            "RoundsWon": [row["rounds_won0"], row["rounds_won1"]],
            "StartedAt": row["started_at"],
            "EndedAt": row["ended_at"],
        }
        for row in rows
    ]
    return {**runs[0], "Games": games}


def run_of_game(db: sqlite3.Connection, game_id: int) -> int | None:
    row = db.execute("SELECT run_id FROM run_games WHERE game_id = ? LIMIT 1", (game_id,)).fetchone()
    return None if row is None else int(row[0])


def grouped_game_ids(db: sqlite3.Connection) -> set[int]:
    return {int(row[0]) for row in db.execute("SELECT game_id FROM run_games")}


def _run_json(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "RunId": row["run_id"],
        "Kind": row["kind"],
        # A tournament's own number, the one `rummy-vision tournament` and `ratings` print (None for a match run).
        "TournamentId": row["tournament_id"],
        "Title": row["title"],
        "CreatedAt": row["created_at"],
        "Players": json.loads(row["players"]),
        "Standings": json.loads(row["standings"]),
        "HeadToHead": json.loads(row["head_to_head"]) if row["head_to_head"] else None,
        "Games": row["games"],
        "StartedAt": row["started_at"] if row["started_at"] is not None else row["created_at"],
        "EndedAt": row["ended_at"],
    }
