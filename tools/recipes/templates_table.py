"""Every starter template against reference strategies: `python tools/measure.py templates`.

Duplicate rounds in process (each deal twice, seats swapped), every player told the true labels, so
the table compares the templates' play, not their recognizers. `strong` searches under a node budget
with a generous clock, and the opponents are given node budgets, so the same moves come out on any
machine under any load. An opponent that cannot play here (`perfect` without its table) is left
out of the table with the reason, never replaced by another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.matches.local_match import Contender, play_round, schedule
from bot.matches.summary import summarize
from bot.measure.duel import parse_player
from bot.templates.contender import TemplateContender

SEARCH_CLOCK_S = 60.0  # long enough that the node budget, not the clock, ends every search of `strong`


def opponent_contender(spec: str) -> Contender:
    name, options = parse_player(spec)
    return Contender(name, strategy_options=options)


def templates_table(
    templates: list[str], opponents: list[str], rounds: int, seed: str, nodes: int, emit: Callable[[str], None]
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    left_out: dict[str, str] = {}
    sources: dict[str, Any] = {}  # what each opponent played with: its budget, and the table file perfect read
    players = {spec: opponent_contender(spec) for spec in opponents}
    for spec, opponent in players.items():
        try:
            opponent.check()
            sources[spec] = opponent.source()
        except (ValueError, OSError, RuntimeError) as error:  # e.g. perfect without its table
            left_out[spec] = f"{type(error).__name__}: {error}"
            emit(f"{spec}: not measured ({left_out[spec]})")
    for template in templates:
        player = TemplateContender(template, nodes=nodes, seconds=SEARCH_CLOCK_S)
        for spec, opponent in players.items():
            if spec in left_out:
                continue
            played = []
            for deal, seat in schedule(player, opponent, rounds, f"{seed}:{spec}", True):
                seats = (player, opponent) if seat == 0 else (opponent, player)
                played.append((play_round(deal, seats), seat))
            mine = summarize((player.name, spec), played)[0].to_json()
            low, high = mine["ci95"]
            rows.append(
                {"template": template, "opponent": spec, "rounds": len(played), "wins": mine["wins"]}
                | {"win_rate": mine["win_rate"], "ci95": mine["ci95"], "mean_margin": mine["mean_margin"]}
                | {"faults": mine["faults"]}
            )
            emit(
                f"{template} vs {spec}: {mine['wins']}/{len(played)} won, {mine['win_rate']:.1%} "
                f"(95% CI {low:.1%}-{high:.1%}), mean margin {mine['mean_margin']:+.1f}"
            )
    return {
        "labels": "true labels (the templates' play is measured, not a recognizer)",
        "strong_budget": {"nodes": nodes, "seconds": SEARCH_CLOCK_S},
        "rows": rows,
        "opponents": sources,
        "not_measured": left_out,
    }
