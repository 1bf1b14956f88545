"""Duplicate-deal duels between two configured players (`rummy-vision measure duel`):

    rummy-vision measure duel perfect "expectimax-plan:max_depth=2" --rounds 200 --workers 2
    rummy-vision measure duel "expectimax:objective=win,nodes=449000" perfect --rounds 200

A player is a registered name with options after a colon (`key=value,...`; integers are read as
integers). Every deal (`rummy.deals.make_deal`, seeds first-seed..) is played twice with the
seats swapped; the first player's win rate comes with a Wilson 95% interval. With node budgets
(`nodes=N`) a duel replays round for round on any machine, under any load. `perfect` and table
leaves read the table at RUMMY_VISION_TABLE or in the user data directory.

When the whole win table is built, every decision is also valued exactly and the duel gives the first
player's luck-adjusted expected win rate (bot.measure.luck): two near-perfect players that 2,000 rounds
of results cannot tell apart are told apart by the P(win) each gave up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from bot.measure.luck import Judge, LuckAdjusted, LuckTally, Regrets, judged_round, win_table_judge
from rummy.deals import make_deal, play_round
from rummy.stats import wilson_interval as wilson
from strategies.registry import get_strategy

# A worker's judge, made once per process (it maps the win table).
_judge: tuple[Judge, str] | None = None


@dataclass(frozen=True)
class PairResult:
    player: str
    opponent: str
    rounds: int
    wins: int
    rate: float
    low: float  # Wilson 95% interval
    high: float
    mean_margin: float
    seconds: float
    luck_adjusted: LuckAdjusted | None = None


def parse_player(spec: str) -> tuple[str, dict[str, Any]]:
    """`name:key=value,...` as (name, options)."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return name, options


def worker_judge() -> tuple[Judge, str]:
    global _judge
    if _judge is None:
        _judge = win_table_judge()
        if _judge is None:
            raise RuntimeError(
                "the luck-adjusted figure needs the whole win table: run `rummy-vision solve` "
                "(2.73 GB, about 22 CPU minutes)"
            )
    return _judge


def play_deal(job: tuple[str, str, int, bool]) -> list[tuple[int, int, Regrets | None]]:
    """Both seatings of one deal: [(the first player won 0/1, its margin, regrets if judged), ...]."""
    player, opponent, seed, judged = job
    deal = make_deal(seed)
    outcomes = []
    for seat in (0, 1):
        me_name, me_options = parse_player(player)
        them_name, them_options = parse_player(opponent)
        me = get_strategy(me_name, **me_options)
        them = get_strategy(them_name, **them_options)
        seats = (me, them) if seat == 0 else (them, me)
        regrets = None
        if judged:
            final, regrets = judged_round(deal, seats, worker_judge()[0])
        else:
            final = play_round(deal, seats)
        outcomes.append((int(final.winner() == seat), final.margin(seat), regrets))
    return outcomes


def duel(
    player: str,
    opponent: str,
    deals: int,
    *,
    workers: int = 2,
    first_seed: int = 0,
    tally: Callable[[str], None] | None = None,
    judge: str | None = None,
) -> PairResult:
    """With `tally`, a running line per finished deal (so a long run stopped early still tells its figures).
    With `judge` (the win table's file, from `win_table_judge`), every decision is valued and the result
    carries the luck-adjusted figure."""
    began = time.perf_counter()
    jobs = [(player, opponent, first_seed + index, judge is not None) for index in range(deals)]
    flat: list[tuple[int, int]] = []
    luck = LuckTally()

    def record(pair: list[tuple[int, int, Regrets | None]]) -> None:
        flat.extend((won, margin) for won, margin, _regrets in pair)
        if judge is not None:
            luck.add([(regrets, seat) for seat, (*_result, regrets) in enumerate(pair) if regrets is not None])
        if tally:
            won = sum(outcome for outcome, _margin in flat)
            low, high = wilson(won, len(flat))
            line = f"  {len(flat)} rounds: {won} won, Wilson 95% {low:.3f}-{high:.3f}"
            if judge is not None and luck.deals > 1:
                adjusted = luck.figure(judge)
                line += f"; luck-adjusted {adjusted.rate:.4f} ({adjusted.low:.4f}-{adjusted.high:.4f})"
            tally(line)

    if workers > 1:
        with Pool(workers) as pool:
            for pair in pool.imap(play_deal, jobs):
                record(pair)
    else:
        for job in jobs:
            record(play_deal(job))
    wins = sum(won for won, _margin in flat)
    low, high = wilson(wins, len(flat))
    mean = sum(margin for _won, margin in flat) / len(flat)
    adjusted = luck.figure(judge) if judge is not None else None
    seconds = time.perf_counter() - began
    return PairResult(player, opponent, len(flat), wins, wins / len(flat), low, high, mean, seconds, adjusted)
