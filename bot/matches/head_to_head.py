"""Head-to-head tables of a tournament, and the rating list that lasts across tournaments.

Head to head: for each pair, the rounds each side won, the first's win rate with its 95% Wilson interval,
and the first's mean point margin with a 95% normal interval.

The lasting rating list is the Bradley-Terry fit (bot.matches.ratings) of every tournament round in the
records file (table tournament_rounds), refitted after each tournament and stored in

    ratings(name TEXT PRIMARY KEY, rating REAL, low REAL, high REAL  -- 95% bootstrap interval
            rounds INTEGER, wins INTEGER, tournaments INTEGER, updated_at REAL)

A name is one player across runs: a strategy under another budget (--nodes, --time-ms) is still
the same name, so compare budgets under distinct names (presets or bot files) when that matters.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.matches.ratings import rate
from bot.matches.tournament import PairingRound
from rummy.standings import Standings
from rummy.stats import Z95, wilson_interval
from server.storage.records import connect

HEAD_TO_HEAD_COLUMNS = ("pair", "rounds", "won", "lost", "win rate (95% CI)", "mean margin (95% CI)")


@dataclass(frozen=True)
class PairRecord:
    a: str
    b: str
    rounds: int
    wins_a: int
    wins_b: int
    margins: tuple[int, ...]  # a's final point margin in each round

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins_a, self.rounds)

    @property
    def mean_margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def margin_interval(self) -> tuple[float, float]:
        n = len(self.margins)
        if n < 2:
            return (-math.inf, math.inf)
        mean = self.mean_margin
        spread = Z95 * math.sqrt(sum((m - mean) ** 2 for m in self.margins) / (n - 1) / n)
        return (mean - spread, mean + spread)

    def to_json(self) -> dict[str, Any]:
        low, high = self.win_interval
        m_low, m_high = self.margin_interval
        return {
            "a": self.a,
            "b": self.b,
            "rounds": self.rounds,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "win_rate_a": round(self.wins_a / self.rounds, 4) if self.rounds else None,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_margin_a": round(self.mean_margin, 2),
            "mean_margin_ci95": [
                None if math.isinf(m_low) else round(m_low, 2),
                None if math.isinf(m_high) else round(m_high, 2),
            ],
        }

    def row(self) -> tuple[str, ...]:
        low, high = self.win_interval
        m_low, m_high = self.margin_interval
        margin = f"{self.mean_margin:+.1f}"
        if not math.isinf(m_low):
            margin += f" ({m_low:+.1f} to {m_high:+.1f})"
        rate = f"{self.wins_a / self.rounds:.0%} ({low:.0%} to {high:.0%})" if self.rounds else "-"
        return (f"{self.a} v {self.b}", str(self.rounds), str(self.wins_a), str(self.wins_b), rate, margin)


def head_to_head(played: Sequence[PairingRound]) -> list[PairRecord]:
    """One record per pair in the order the pairs first played."""
    pairs: dict[tuple[str, str], list[PairingRound]] = {}
    for game in played:
        pairs.setdefault((game.a, game.b), []).append(game)
    return [
        PairRecord(
            a,
            b,
            len(games),
            sum(1 for game in games if game.winner == a),
            sum(1 for game in games if game.winner == b),
            tuple(game.margin_of_a for game in games),
        )
        for (a, b), games in pairs.items()
    ]


def head_to_head_table(records: Sequence[PairRecord]) -> Standings:
    return Standings(HEAD_TO_HEAD_COLUMNS, tuple(record.row() for record in records))


@dataclass(frozen=True)
class LastingRating:
    name: str
    rating: float
    low: float
    high: float
    rounds: int
    wins: int
    tournaments: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rating": round(self.rating, 1),
            "ci95": [round(self.low, 1), round(self.high, 1)],
            "rounds": self.rounds,
            "wins": self.wins,
            "tournaments": self.tournaments,
        }


def update_ratings(path: Path, *, now: float | None = None) -> list[LastingRating]:
    """Refit the rating list on every tournament round in the records and store it; best first."""
    db = connect(path)
    try:
        rows = db.execute("SELECT tournament_id, a, b, winner FROM tournament_rounds").fetchall()
        games = [(str(winner), str(b if winner == a else a)) for _tid, a, b, winner in rows]
        names = sorted({name for _tid, a, b, _w in rows for name in (a, b)})
        tournaments = {name: len({tid for tid, a, b, _w in rows if name in (a, b)}) for name in names}
        rounds = {name: sum(1 for _tid, a, b, _w in rows if name in (a, b)) for name in names}
        wins = {name: sum(1 for winner, _loser in games if winner == name) for name in names}
        fitted = rate(names, games) if names else []
        lasting = [
            LastingRating(r.name, r.rating, r.low, r.high, rounds[r.name], wins[r.name], tournaments[r.name])
            for r in fitted
        ]
        stamp = time.time() if now is None else now
        with db:
            db.execute("DELETE FROM ratings")
            db.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(r.name, r.rating, r.low, r.high, r.rounds, r.wins, r.tournaments, stamp) for r in lasting],
            )
        return lasting
    finally:
        db.close()


def load_ratings(path: Path) -> list[LastingRating]:
    """The stored rating list, best first; empty when no tournament was stored."""
    db = connect(path)
    try:
        rows = db.execute(
            "SELECT name, rating, low, high, rounds, wins, tournaments FROM ratings ORDER BY rating DESC"
        ).fetchall()
        return [
            LastingRating(str(n), float(r), float(lo), float(hi), int(k), int(w), int(t))
            for n, r, lo, hi, k, w, t in rows
        ]
    finally:
        db.close()
