"""Round-robin tournaments on duplicate deals, rated with Bradley-Terry."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from bot.matches.executors import Progress, RoundsInterrupted, RoundTask, run_tasks
from bot.matches.local_match import Contender, RoundResult, schedule
from bot.matches.ratings import Rating, rate


@dataclass(frozen=True)
class PairingRound:
    a: str
    b: str
    seat_of_a: int
    result: RoundResult

    @property
    def winner(self) -> str:
        return self.a if self.result.winner == self.seat_of_a else self.b

    @property
    def loser(self) -> str:
        return self.b if self.winner == self.a else self.a

    @property
    def margin_of_a(self) -> int:
        return self.result.margin(self.seat_of_a)


@dataclass(frozen=True)
class Standing:
    rating: Rating
    wins: int
    rounds: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0


def plan_tournament(
    contenders: Sequence[Contender], rounds_per_pair: int, seed: str, move_time_ms: int | None
) -> list[tuple[str, str, int, RoundTask]]:
    """Every pair meets on its own duplicate deals: (a, b, seat of a, task) for each round."""
    plan = []
    for first, second in itertools.combinations(contenders, 2):
        pair_seed = f"{seed}:{first.name}:{second.name}"
        for deal, seat_of_a in schedule(first, second, rounds_per_pair, pair_seed, duplicate=True):
            seats = (first, second) if seat_of_a == 0 else (second, first)
            plan.append((first.name, second.name, seat_of_a, RoundTask(deal, seats, move_time_ms=move_time_ms)))
    return plan


def run_tournament(
    contenders: Sequence[Contender],
    *,
    rounds_per_pair: int,
    seed: str = "1",
    move_time_ms: int | None = None,
    workers: int = 1,
    backend: str = "local",
    progress: Progress | None = None,
) -> tuple[list[PairingRound], list[Standing]]:
    names = [contender.name for contender in contenders]
    if len(set(names)) != len(names):
        raise ValueError(f"tournament players must have distinct names, got {names}")
    plan = plan_tournament(contenders, rounds_per_pair, seed, move_time_ms)
    try:
        results = run_tasks([task for *_rest, task in plan], workers=workers, backend=backend, progress=progress)
    except RoundsInterrupted as stop:
        played = [PairingRound(a, b, seat, result) for (a, b, seat, _task), result in zip(plan, stop.results)]
        raise TournamentInterrupted(played, standings(names, played) if played else [], len(plan)) from None
    played = [PairingRound(a, b, seat, result) for (a, b, seat, _task), result in zip(plan, results)]
    return played, standings(names, played)


class TournamentInterrupted(Exception):
    """Ctrl-C during a tournament: the rounds played so far (`played`), their standings, out of `total`."""

    def __init__(self, played: list[PairingRound], table: list[Standing], total: int) -> None:
        super().__init__(f"interrupted after {len(played)} of {total} rounds")
        self.played = played
        self.table = table
        self.total = total


def standings(names: Sequence[str], played: Sequence[PairingRound]) -> list[Standing]:
    ratings = rate(names, [(game.winner, game.loser) for game in played])
    wins = {name: 0 for name in names}
    rounds = {name: 0 for name in names}
    for game in played:
        wins[game.winner] += 1
        rounds[game.a] += 1
        rounds[game.b] += 1
    return [Standing(rating, wins[rating.name], rounds[rating.name]) for rating in ratings]
