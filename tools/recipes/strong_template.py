"""The `strong` starter template against `greedy`: `python tools/measure.py strong-template`.

Duplicate rounds in process (each deal twice, seats swapped), both players told the true labels
(the measurement is of the strategy, not of a recognizer). The template searches under a node
budget with a generous clock, so its moves do not depend on the machine's load, and is timed per
move; a second pass times it under the file's own defaults (its node and time budgets, as in the
arena) for the per-move p95, which does depend on the machine and its load.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from bot.matches.local_match import Contender, play_round, schedule
from bot.matches.summary import summarize
from bot.templates.contender import TemplateContender

SEARCH_CLOCK_S = 60.0  # long enough that the node budget, not the clock, ends every search


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else (values[0] if values else 0.0)


def spread(values: list[float]) -> dict[str, float]:
    return {"moves": len(values), "median": statistics.median(values), "p95": p95(values), "max": max(values)}


def strong_template(
    rounds: int, seed: str, nodes: int, timing_rounds: int, emit: Callable[[str], None]
) -> dict[str, Any]:
    strong = TemplateContender("strong", nodes=nodes, seconds=SEARCH_CLOCK_S)
    greedy = Contender("greedy")
    played = []
    for index, (deal, seat_of_strong) in enumerate(schedule(strong, greedy, rounds, seed, True)):
        seats = (strong, greedy) if seat_of_strong == 0 else (greedy, strong)
        played.append((play_round(deal, seats), seat_of_strong))
        if (index + 1) % 20 == 0:
            emit(f"{index + 1}/{rounds} rounds")
    standings = [summary.to_json() for summary in summarize((strong.name, greedy.name), played)]
    think = [ms for result, seat in played for ms in result.think_ms(seat)]
    timed = TemplateContender("strong")  # the file's own defaults
    timed_ms: list[float] = []
    for deal, seat in schedule(timed, greedy, timing_rounds, f"{seed}:timing", True):
        timed_round = play_round(deal, (timed, greedy) if seat == 0 else (greedy, timed))
        timed_ms += timed_round.think_ms(seat)
    figures = {
        "rounds": len(played),
        "labels": "true labels (the strategy is measured, not a recognizer)",
        "strong_budget": {"nodes": nodes, "seconds": SEARCH_CLOCK_S},
        "standings": standings,
        "strong_ms_per_move_at_node_budget": spread(think),
        "strong_ms_per_move_default_budgets": {"rounds": timing_rounds} | spread(timed_ms),
    }
    for row in standings:
        low, high = row["ci95"]
        emit(f"{row['name']}: {row['wins']} won, {row['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%})")
    default = spread(timed_ms)
    emit(f"strong per move under its own budgets: median {default['median']:.0f} ms, p95 {default['p95']:.0f} ms")
    return figures
