"""What recognition errors cost (`rummy-vision measure noise-cost`).

Each player plays through a recognizer (`PLAYER@RECOGNIZER`, as in `match`) against an opponent with the
true labels, on duplicate deals (each deal twice, seats swapped), through the same card-level path as
`match`: gamestate -> recognizer labels -> belief -> count-level states -> strategy -> move. A row per
(player, recognizer, opponent): rounds won with a Wilson 95% interval, the mean margin, how many of the
player's Lays the referee refused (and how many of those it expected to be no set: passes), how many it
expected refused (the sum of 1 - the set chance it stated for each Lay: above the refused count, the belief
was too sure of the sets it chose), the player's mean and 95th-percentile time per move, and (FIRST+SECOND
recognizers) the second opinions asked.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.matches.executors import RoundTask, run_tasks
from bot.matches.local_match import Contender, RoundResult, deal_seeds
from rummy.stats import wilson_interval

SAME = "same"  # the opponent is the player itself, with the true labels


@dataclass(frozen=True)
class NoiseCost:
    player: str
    recognizer: str
    opponent: str
    rounds: int
    wins: int
    rate: float
    low: float
    high: float
    mean_margin: float
    lays: int
    refused: int  # every Lay the referee refused
    passes: int  # ... of which the player expected no set (a deliberate wasted turn, or a Lay it judged < 50% sure)
    mean_move_ms: float
    p95_move_ms: float
    asks: int = 0  # second opinions asked (API calls to the second recognizer of a FIRST+SECOND)
    reveal: str = ""  # measuring aid: the hand ("own" or "opp") whose true landmarks the player was told
    # Lays it expected refused: sum of 1 - the stated set chance (a certain belief's Lay: 0, or 1 when it meant a pass)
    expected_refused: float = 0.0


def noise_cost(
    player: str,
    recognizer: str,
    opponent: str,
    deals: int,
    *,
    seed: str = "noise",
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    reveal: str = "",
) -> NoiseCost:
    """`player` labelling through `recognizer` against `opponent` (SAME: the player) with true labels. With
    `reveal` ("own" or "opp"), the player is also told the true landmark of every card in that hand: not play,
    but a measure of what the errors on each hand cost."""
    noisy = Contender(player, recognizer, shown=f"{player}@{recognizer}", reveal=reveal)
    other = Contender(player if opponent == SAME else opponent, "oracle")
    tasks = []
    for deal in deal_seeds(seed, deals):
        tasks += [RoundTask(deal, (noisy, other)), RoundTask(deal, (other, noisy))]
    results = run_tasks(tasks, workers=workers, progress=progress)
    return replace(summarise(player, recognizer, opponent, results, [0, 1] * deals), reveal=reveal)


def summarise(
    player: str, recognizer: str, opponent: str, results: Sequence[RoundResult], seats: Sequence[int]
) -> NoiseCost:
    wins = sum(1 for result, seat in zip(results, seats) if result.winner == seat)
    margins = [result.margin(seat) for result, seat in zip(results, seats)]
    lays = refused = passes = asks = 0
    expected = 0.0
    times: list[float] = []
    for result, seat in zip(results, seats):
        for move in result.moves:
            if move.seat != seat:
                continue
            times.append(move.think_ms)
            asks += move.suggestions[0].get("Asked", 0) if move.suggestions else 0
            if "Lay" in move.move:
                lays += 1
                refused += move.wasted
                # A certain belief's refused Lay is the strategy's own pass; an uncertain one says its chance.
                stated = move.suggestions[0].get("SetChance") if move.suggestions else None
                chance = 0.0 if stated is None else stated
                passes += move.wasted and chance < 0.5
                # With no chance stated the belief was certain: the Lay was sure to be a set unless meant as a pass.
                expected += 1.0 - (stated if stated is not None else float(not move.wasted))
    low, high = wilson_interval(wins, len(results))
    times.sort()
    return NoiseCost(
        player,
        recognizer,
        opponent,
        len(results),
        wins,
        wins / len(results),
        low,
        high,
        statistics.fmean(margins),
        lays,
        refused,
        passes,
        statistics.fmean(times) if times else 0.0,
        times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0,
        asks,
        expected_refused=expected,
    )
