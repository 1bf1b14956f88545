"""What a player gives up, graded by the review (`rummy-vision measure review-loss`).

A duplicate match as `match` plays it (card level: gamestates, the recognizer's labels, the belief, the
strategy), every round stored and graded by `review` with its default grader (`perfect` on the built
tables), from both seats: per player, its decisions, how many were the best move, and the P(win) (or
margin) it gave up in all and in the worst round, with how many decisions were exact and how many were
valued as expectations (a set laid before the player's first view).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot.matches.local_match import Contender, play_round, schedule
from bot.matches.match_records import store_rounds
from server.storage.recorded_games import recorded_games
from strategies.coaching.game_review import EPSILON, review_record
from strategies.coaching.grading import default_grader


@dataclass
class PlayerLoss:
    player: str
    decisions: int = 0
    best_moves: int = 0
    exact: int = 0
    expected: int = 0
    total_loss: float = 0.0
    worst_round_loss: float = 0.0
    rounds_with_loss: list[int] = field(default_factory=list)  # game ids


def review_loss(
    a: Contender, b: Contender, rounds: int, seed: str, objective: str = "win", db: Path | None = None
) -> tuple[list[PlayerLoss], str]:
    """Each player's graded losses over a duplicate match, and where the grades came from."""
    grader = default_grader(objective)
    names = (a.name, b.name) if a.name != b.name else (f"{a.name} (A)", f"{b.name} (B)")
    played = []
    for deal, seat_of_a in schedule(a, b, rounds, seed, duplicate=True):
        seats = (a, b) if seat_of_a == 0 else (b, a)
        played.append((play_round(deal, seats), seat_of_a))
    with tempfile.TemporaryDirectory() as folder:
        path, game_ids = store_rounds(db or Path(folder) / "records.sqlite3", played, names)
        with recorded_games(path) as games:
            losses = {name: PlayerLoss(name) for name in names}
            for game_id in game_ids:
                record = games.match_record(game_id)
                assert record is not None
                review = review_record(record, grader)
                for decision in review.decisions:
                    loss = losses[decision.player]
                    loss.decisions += 1
                    loss.best_moves += decision.loss <= EPSILON
                    loss.exact += decision.exact
                    loss.expected += decision.expected
                for totals in review.totals():
                    loss = losses[totals.player]
                    loss.total_loss += totals.total_loss
                    loss.worst_round_loss = max(loss.worst_round_loss, totals.total_loss)
                    if totals.total_loss > EPSILON:
                        loss.rounds_with_loss.append(game_id)
    return list(losses.values()), grader.describe()
