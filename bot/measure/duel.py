"""Duplicate-deal duels between two configured players (figures, not pass/fail):

    python -m strategies.table.duel perfect "expectimax-plan:max_depth=2" --rounds 200 --workers 2
    python -m strategies.table.duel "expectimax:objective=win,max_depth=2" perfect --rounds 200
    python -m strategies.table.duel "expectimax:max_depth=2" "expectimax-plan:max_depth=2" --rounds 200

A player is a registered name with options after a colon (`key=value,...`; integers are read as
integers). Every deal (strategies.strength.make_deal, seeds first-seed..) is played twice with the
seats swapped; the first player's win rate comes with a Wilson 95% interval. `perfect` and table
leaves read the table at RUMMY_VISION_TABLE or in the user data directory.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from multiprocessing import Pool
from typing import Any

from rummy.stats import wilson_interval as wilson
from strategies.registry import get_strategy
from strategies.strength import PairResult, make_deal, play_round


def parse_player(spec: str) -> tuple[str, dict[str, Any]]:
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return name, options


def _play_deal(job: tuple[str, str, int]) -> list[tuple[int, int]]:
    player, opponent, seed = job
    deal = make_deal(seed)
    outcomes = []
    for seat in (0, 1):
        me_name, me_options = parse_player(player)
        them_name, them_options = parse_player(opponent)
        me = get_strategy(me_name, **me_options)
        them = get_strategy(them_name, **them_options)
        final = play_round(deal, (me, them) if seat == 0 else (them, me))
        outcomes.append((int(final.winner() == seat), final.margin(seat)))
    return outcomes


def duel(
    player: str, opponent: str, deals: int, *, workers: int = 2, first_seed: int = 0, tally: bool = False
) -> PairResult:
    """With `tally`, a running line per finished deal (so a long run stopped early still tells its figures)."""
    began = time.perf_counter()
    jobs = [(player, opponent, first_seed + index) for index in range(deals)]
    flat: list[tuple[int, int]] = []

    def record(pair: list[tuple[int, int]]) -> None:
        flat.extend(pair)
        if tally:
            won = sum(outcome for outcome, _margin in flat)
            low, high = wilson(won, len(flat))
            print(f"  {len(flat)} rounds: {won} won, Wilson 95% {low:.3f}-{high:.3f}", flush=True)

    if workers > 1:
        with Pool(workers) as pool:
            for pair in pool.imap(_play_deal, jobs):
                record(pair)
    else:
        for job in jobs:
            record(_play_deal(job))
    wins = sum(won for won, _margin in flat)
    low, high = wilson(wins, len(flat))
    mean = sum(margin for _won, margin in flat) / len(flat)
    return PairResult(player, opponent, len(flat), wins, wins / len(flat), low, high, mean, time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--rounds", type=int, default=200, help="rounds (two per deal)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    args = parser.parse_args()
    deals = max(1, (args.rounds + 1) // 2)
    result = duel(args.player, args.opponent, deals, workers=args.workers, first_seed=args.seed, tally=True)
    print(
        f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
        f"(Wilson 95% {result.low:.3f}-{result.high:.3f}), "
        f"mean margin {result.mean_margin:+.2f}, {result.seconds:.0f} s",
        flush=True,
    )
    print(json.dumps(asdict(result)), flush=True)


if __name__ == "__main__":
    main()
