"""`heuristic` against the simplest labelling bot (`python tools/measure.py baseline-bot`).

The bot is `fixtures/strategies/lay_any_set.py`: lay any set, else give the rarest card. Every deal
(`rummy.deals.make_deal`, seeds first-seed..) is played twice with the seats swapped; `heuristic`
searches one turn deep, so the result does not depend on the machine.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from bot.measure.duel import parse_player
from rummy.deals import make_deal, play_round
from rummy.stats import wilson_interval
from strategies.registry import get_strategy
from tools.recipes.record import REPOSITORY

FIXTURE = REPOSITORY / "fixtures" / "strategies" / "lay_any_set.py"
FIRST_SEED = 70000  # deal seeds no other measurement uses


def lay_any_set(path: Path = FIXTURE) -> Any:
    """A fresh instance of the fixture bot."""
    spec = importlib.util.spec_from_file_location("lay_any_set", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LayAnySet()


def baseline_duel(player: str, deals: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    """`player` (`name` or `name:key=value,...`) against the fixture on duplicate deals."""
    bot = lay_any_set()
    name, options = parse_player(player)
    won = 0
    margins = []
    for seed in range(first_seed, first_seed + deals):
        deal = make_deal(seed)
        for seat in (0, 1):
            ours = get_strategy(name, **options)
            final = play_round(deal, (ours, bot) if seat == 0 else (bot, ours))
            won += final.winner() == seat  # a tie goes to the second mover, as the rules say
            margins.append(final.margin(seat))
    rounds = len(margins)
    low, high = wilson_interval(won, rounds)
    return {
        "player": player,
        "opponent": bot.name,
        "rounds": rounds,
        "won": won,
        "win_rate": won / rounds,
        "wilson95": [low, high],
        "mean_margin": sum(margins) / rounds,
        "deal_seeds": [first_seed, first_seed + deals - 1],
    }
