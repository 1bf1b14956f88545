"""Tournament results in the SQLite records file, next to the referee's tables (server/storage/schema.py
makes them all):

tournaments(tournament_id INTEGER PRIMARY KEY, created_at REAL, seed TEXT, rounds_per_pair INTEGER,
            players TEXT)  -- JSON list of names
tournament_rounds(tournament_id, a TEXT, b TEXT, deal_seed TEXT, seat_of_a INTEGER,
                  winner TEXT, margin_of_a INTEGER)
tournament_standings(tournament_id, rank INTEGER, name TEXT, rating REAL, low REAL, high REAL,
                     wins INTEGER, rounds INTEGER)
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from bot.matches.tournament import PairingRound, Standing
from server.storage.records import connect


def store_tournament(
    path: Path, seed: str, rounds_per_pair: int, played: Sequence[PairingRound], table: Sequence[Standing]
) -> int:
    """All of a tournament in one transaction: a crash stores all of it or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        with db:
            cursor = db.execute(
                "INSERT INTO tournaments (created_at, seed, rounds_per_pair, players) VALUES (?, ?, ?, ?)",
                (time.time(), seed, rounds_per_pair, json.dumps([standing.rating.name for standing in table])),
            )
            tournament_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO tournament_rounds VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        game.a,
                        game.b,
                        game.result.deal_seed,
                        game.seat_of_a,
                        game.winner,
                        game.margin_of_a,
                    )
                    for game in played
                ],
            )
            db.executemany(
                "INSERT INTO tournament_standings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (tournament_id, rank, s.rating.name, s.rating.rating, s.rating.low, s.rating.high, s.wins, s.rounds)
                    for rank, s in enumerate(table, start=1)
                ],
            )
        return tournament_id
    finally:
        db.close()


def load_standings(path: Path, tournament_id: int) -> list[tuple[str, float, int, int]]:
    db = connect(path)
    try:
        rows = db.execute(
            "SELECT name, rating, wins, rounds FROM tournament_standings WHERE tournament_id=? ORDER BY rank",
            (tournament_id,),
        ).fetchall()
        return [(str(name), float(rating), int(wins), int(rounds)) for name, rating, wins, rounds in rows]
    finally:
        db.close()
