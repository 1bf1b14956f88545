"""The referee's SQLite records: bots, matches, rounds, deals and every MakeMove request.

One database file (WAL mode) holds everything; each write below is one transaction, so a crash leaves
either the whole move (or round, or match end) recorded or none of it.

Schema (readers such as the replay viewer may rely on it; server/storage/schema.py creates and upgrades it):

    bots(name TEXT PRIMARY KEY, user TEXT, salt BLOB, password_hash BLOB, iterations INTEGER,
         status TEXT  -- ACTIVE | SUSPENDED | INACTIVE
         balance INTEGER, created_at REAL)

    matches(game_id INTEGER PRIMARY KEY, style_id INTEGER, rounds INTEGER, move_time_ms INTEGER,
            seed TEXT, player0 TEXT, player1 TEXT, stake INTEGER, prize INTEGER,
            status TEXT       -- RUNNING | FINISHED | ABORTED (running when the server stopped)
            end_reason TEXT   -- completed | timeout | aborted, NULL while running
            status0 TEXT, status1 TEXT  -- GameStatus per seat: WON, LOST, DRAWN, WON_BY_TIMEOUT, ...
            rounds_won0 INTEGER, rounds_won1 INTEGER, started_at REAL, ended_at REAL)

    rounds(game_id, round_index  -- 0-based; PRIMARY KEY (game_id, round_index)
           kinds TEXT             -- JSON list of the round's 4 landmarks
           first_mover INTEGER, points0 INTEGER, points1 INTEGER  -- final, penalty applied
           winner INTEGER         -- seat, NULL while the round runs or if the match ended during it
           started_at REAL, ended_at REAL)

    deal_cards(game_id, round_index, card_id INTEGER,
               url TEXT           -- the path /cards/<token>.png (no host)
               token TEXT, landmark TEXT,  -- a duplicate deal replays the same cards, so not unique
               dealt_to TEXT      -- P0 | P1 | DECK
               position INTEGER   -- index in that hand, or in the deck (0 = drawn first))

    moves(move_seq INTEGER PRIMARY KEY, game_id, round_index, seat INTEGER, bot TEXT,
          received_at REAL        -- epoch seconds
          move TEXT               -- the Move field as sent, as JSON; a long refused one is stored as
                                  -- {"Excerpt": its first 500 characters, "Chars": its length}
          result TEXT             -- the Result answered
          applied INTEGER         -- 1 when the move changed the game
          error TEXT              -- the ErrorMessage answered, if any
          gamestate TEXT          -- JSON of the GameState answered (the mover's view after the move)
          suggestions TEXT        -- JSON [{"Move", "Label", "Value"}], the mover's best moves as it
                                  -- saw them, best first, with "Exact" (false: an upper bound); only
                                  -- for moves of our strategies played in process
          log TEXT)               -- what a bot file printed while choosing the move (bounded, the cut
                                  -- said), as the arena's editor shows it per move; NULL when nothing

    held_stakes(player_key TEXT PRIMARY KEY, bot TEXT, amount INTEGER, held_at REAL)
                                  -- the stake of an offer still waiting, already taken from the balance;
                                  -- pairing moves it into the match, a cancel or expiry gives it back

Every MakeMove request that names a seat of a match its bot owns is recorded, refused ones included
(at most the first 10 refused ones of each turn).
Times are epoch seconds. Card URLs are stored as paths; the server prefixes its base URL.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rummy import Match, Round
from rummy.cards import token_of
from rummy.private_files import ensure_private
from server.storage.schema import migrate

MAX_GAME_ID = 2**63 - 1  # SQLite's largest INTEGER


def connect(path: Path | str) -> sqlite3.Connection:
    """Open (and create) the database with the settings every user of it shares, its schema brought to the
    latest version (server/storage/schema.py; RecordsTooNew for a file of a newer rummy-vision).

    The file holds password hashes and the decks of running games: it is made 0600 (in a 0700 folder when
    the folder is new), and an older one of ours loses group and other access, its journal files too."""
    if str(path) != ":memory:":
        ensure_private(Path(path))
        for suffix in ("-wal", "-shm", "-journal"):
            beside = Path(f"{path}{suffix}")
            if beside.is_file() and not beside.is_symlink():
                ensure_private(beside)
    connection = sqlite3.connect(str(path), timeout=10.0, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA journal_mode=WAL")
    # NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    try:
        migrate(connection, str(path))
    except BaseException:
        connection.close()
        raise
    return connection


class Records:
    def __init__(self, path: Path | str) -> None:
        self.path = path
        self.db = connect(path)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self.db:
            yield self.db

    # --- writes -------------------------------------------------------------------------------

    def abort_running(self, now: float | None = None) -> int:
        """Matches left RUNNING by a stopped server can never finish: mark them ABORTED and give both
        players their stakes back."""
        with self._transaction() as db:
            for row in db.execute("SELECT player0, player1, stake FROM matches WHERE status='RUNNING' AND stake > 0"):
                for name in (row["player0"], row["player1"]):
                    db.execute("UPDATE bots SET balance = balance + ? WHERE name = ?", (row["stake"], name))
            cursor = db.execute(
                "UPDATE matches SET status='ABORTED', end_reason='aborted', ended_at=? WHERE status='RUNNING'",
                (now or time.time(),),
            )
            return cursor.rowcount

    def hold_stake(self, player_key: str, bot: str, amount: int, now: float) -> bool:
        """Take an offer's stake from the bot's balance now (False, and nothing taken, if it is short)."""
        with self._transaction() as db:
            taken = db.execute(
                "UPDATE bots SET balance = balance - ? WHERE name = ? AND balance >= ?", (amount, bot, amount)
            ).rowcount
            if taken:
                db.execute("INSERT INTO held_stakes VALUES (?, ?, ?, ?)", (player_key, bot, amount, now))
            return bool(taken)

    def release_stake(self, player_key: str) -> None:
        """An offer that will not be played (cancelled, expired): its held stake goes back."""
        with self._transaction() as db:
            _release(db, "WHERE player_key = ?", (player_key,))

    def release_all_stakes(self) -> int:
        """Offers of a server that stopped are gone: every stake still held goes back."""
        with self._transaction() as db:
            return _release(db, "", ())

    def create_match(
        self,
        *,
        style_id: int,
        rounds: int,
        move_time_ms: int,
        seed: str,
        players: tuple[str, str],
        stake: int,
        prize: int,
        now: float,
        held: tuple[str, str] | None = None,
    ) -> int:
        """A new RUNNING match. The stake is taken from both players' balances, or, with `held` (the two
        offers' PlayerKeys), it is the stake their offers already hold."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO matches (style_id, rounds, move_time_ms, seed, player0, player1, stake, prize,"
                " status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'RUNNING', ?)",
                (style_id, rounds, move_time_ms, seed, players[0], players[1], stake, prize, now),
            )
            if held is not None:
                db.executemany("DELETE FROM held_stakes WHERE player_key = ?", [(key,) for key in held])
            elif stake:
                for name in players:
                    db.execute("UPDATE bots SET balance = balance - ? WHERE name = ?", (stake, name))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def start_round(self, game_id: int, round_index: int, played: Round, now: float) -> None:
        with self._transaction() as db:
            _insert_round(db, game_id, round_index, played, now)

    def record_move(
        self,
        *,
        game_id: int,
        round_index: int,
        seat: int,
        bot: str,
        received_at: float,
        move: Any,
        result: str,
        applied: bool,
        error: str | None,
        gamestate: dict[str, Any] | None,
        finished_round: tuple[int, Round] | None = None,
        next_round: tuple[int, Round] | None = None,
        suggestions: list[dict[str, Any]] | None = None,
        finished_match: tuple[Match, str] | None = None,
        log: str | None = None,
    ) -> None:
        """One MakeMove request; a move that ends a round also closes it and opens the next round or
        ends the match (`finished_match`: the match and its end reason), all in one transaction."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO moves (game_id, round_index, seat, bot, received_at, move, result, applied, error,"
                " gamestate, suggestions, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    round_index,
                    seat,
                    bot,
                    received_at,
                    json.dumps(move, default=str),
                    result,
                    int(applied),
                    error,
                    json.dumps(gamestate) if gamestate is not None else None,
                    json.dumps(suggestions) if suggestions else None,
                    log or None,
                ),
            )
            if finished_round is not None:
                index, played = finished_round
                db.execute(
                    "UPDATE rounds SET points0=?, points1=?, winner=?, ended_at=? WHERE game_id=? AND round_index=?",
                    (played.points[0], played.points[1], played.winner(), received_at, game_id, index),
                )
            if next_round is not None:
                _insert_round(db, game_id, next_round[0], next_round[1], received_at)
            if finished_match is not None:
                _finish_match(db, game_id, finished_match[0], finished_match[1], received_at)

    def finish_match(self, game_id: int, match: Match, end_reason: str, now: float) -> None:
        with self._transaction() as db:
            _finish_match(db, game_id, match, end_reason, now)

    # --- reads --------------------------------------------------------------------------------

    def forget_matches(self, game_ids: Sequence[int]) -> None:
        """Delete finished matches with their rounds, cards and moves (a run asked not to be recorded)."""
        with self._transaction() as db:
            for table in ("moves", "deal_cards", "rounds", "matches"):
                db.executemany(f"DELETE FROM {table} WHERE game_id = ?", [(game_id,) for game_id in game_ids])

    def landmark_of_token(self, token: str) -> str | None:
        row = self.db.execute("SELECT landmark FROM deal_cards WHERE token=? LIMIT 1", (token,)).fetchone()
        return None if row is None else str(row["landmark"])

    def list_matches(self, limit: int = 1000) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM matches ORDER BY game_id DESC LIMIT ?", (limit,)).fetchall()
        return [_match_summary(row) for row in rows]

    def match_summary(self, game_id: int) -> dict[str, Any] | None:
        if not 0 <= game_id <= MAX_GAME_ID:
            return None  # no such match can exist, and SQLite cannot even take the number
        row = self.db.execute("SELECT * FROM matches WHERE game_id=?", (game_id,)).fetchone()
        return None if row is None else _match_summary(row)

    def match_record(self, game_id: int) -> dict[str, Any] | None:
        """The full record of a match for replay, deck order and labels included; None if unknown."""
        summary = self.match_summary(game_id)
        if summary is None:
            return None
        rounds = []
        for row in self.db.execute("SELECT * FROM rounds WHERE game_id=? ORDER BY round_index", (game_id,)):
            cards = self.db.execute(
                "SELECT card_id, url, landmark, dealt_to, position FROM deal_cards"
                " WHERE game_id=? AND round_index=? ORDER BY dealt_to, position",
                (game_id, row["round_index"]),
            ).fetchall()
            rounds.append(
                {
                    "RoundIndex": row["round_index"],
                    "Landmarks": json.loads(row["kinds"]),
                    "FirstMover": row["first_mover"],
                    "Points": [row["points0"], row["points1"]],
                    "Winner": row["winner"],
                    "StartedAt": row["started_at"],
                    "EndedAt": row["ended_at"],
                    "Hands": [
                        [_card(card) for card in cards if card["dealt_to"] == "P0"],
                        [_card(card) for card in cards if card["dealt_to"] == "P1"],
                    ],
                    "Deck": [_card(card) for card in cards if card["dealt_to"] == "DECK"],
                }
            )
        moves = [
            {
                "Seq": row["move_seq"],
                "RoundIndex": row["round_index"],
                "Seat": row["seat"],
                "Bot": row["bot"],
                "ReceivedAt": row["received_at"],
                "Move": _loads(row["move"]),
                "Result": row["result"],
                "Applied": bool(row["applied"]),
                "ErrorMessage": row["error"],
                "GameState": _loads(row["gamestate"]) if row["gamestate"] else None,
                **({"Suggestions": _loads(row["suggestions"])} if row["suggestions"] else {}),
                **({"Log": row["log"]} if row["log"] else {}),
            }
            for row in self.db.execute("SELECT * FROM moves WHERE game_id=? ORDER BY move_seq", (game_id,))
        ]
        seed = self.db.execute("SELECT seed FROM matches WHERE game_id=?", (game_id,)).fetchone()["seed"]
        return {**summary, "Seed": seed, "Rounds": rounds, "Moves": moves}

    def applied_move_count(self, game_id: int) -> int:
        row = self.db.execute("SELECT COUNT(*) FROM moves WHERE game_id=? AND applied=1", (game_id,)).fetchone()
        return int(row[0])


def _insert_round(db: sqlite3.Connection, game_id: int, round_index: int, played: Round, now: float) -> None:
    deal = played.deal
    rows = []
    for owner, cards in (("P0", deal.hands[0]), ("P1", deal.hands[1]), ("DECK", deal.deck)):
        for position, card in enumerate(cards):
            rows.append((game_id, round_index, card.id, card.url, token_of(card.url), card.kind, owner, position))
    db.execute(
        "INSERT INTO rounds (game_id, round_index, kinds, first_mover, started_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, round_index, json.dumps(list(deal.kinds)), deal.first_mover, now),
    )
    db.executemany("INSERT INTO deal_cards VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _finish_match(db: sqlite3.Connection, game_id: int, match: Match, end_reason: str, now: float) -> None:
    """Store the outcome and settle the stake: the winner gets the prize, a draw gets the stake back."""
    row = db.execute("SELECT player0, player1, stake, prize FROM matches WHERE game_id=?", (game_id,)).fetchone()
    db.execute(
        "UPDATE matches SET status='FINISHED', end_reason=?, status0=?, status1=?, rounds_won0=?,"
        " rounds_won1=?, ended_at=? WHERE game_id=?",
        (
            end_reason,
            match.status[0].value,
            match.status[1].value,
            match.rounds_won[0],
            match.rounds_won[1],
            now,
            game_id,
        ),
    )
    if row is not None and row["stake"]:
        players = (row["player0"], row["player1"])
        for seat in (0, 1):
            status = match.status[seat].value
            payout = row["prize"] if status.startswith("WON") else row["stake"] if status == "DRAWN" else 0
            if payout:
                db.execute("UPDATE bots SET balance = balance + ? WHERE name = ?", (payout, players[seat]))


def _release(db: sqlite3.Connection, where: str, parameters: tuple[Any, ...]) -> int:
    rows = db.execute(f"SELECT bot, amount FROM held_stakes {where}", parameters).fetchall()
    for row in rows:
        db.execute("UPDATE bots SET balance = balance + ? WHERE name = ?", (row["amount"], row["bot"]))
    db.execute(f"DELETE FROM held_stakes {where}", parameters)
    return len(rows)


def _loads(text: str) -> Any:
    """A stored JSON value; NaN or Infinity (kept verbatim by older servers) come back as strings, which any
    JSON writer can send on, and a value that does not parse comes back as its text."""
    try:
        return json.loads(text, parse_constant=str)
    except (ValueError, RecursionError):
        return text


def _card(row: sqlite3.Row) -> dict[str, Any]:
    return {"Id": row["card_id"], "Url": row["url"], "Landmark": row["landmark"]}


def _match_summary(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "GameId": row["game_id"],
        "GameStyleId": row["style_id"],
        "NumberOfRounds": row["rounds"],
        "MoveTimeMs": row["move_time_ms"],
        "Players": [row["player0"], row["player1"]],
        "Status": row["status"],
        "EndReason": row["end_reason"],
        "GameStatus": [row["status0"], row["status1"]],
        "RoundsWon": [row["rounds_won0"], row["rounds_won1"]],
        "Stake": row["stake"],
        "Prize": row["prize"],
        "StartedAt": row["started_at"],
        "EndedAt": row["ended_at"],
    }
