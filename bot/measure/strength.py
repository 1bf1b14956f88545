"""Strength by duplicate deals: each deal is played twice with the seats swapped.

Play is in-process at count level (the information a bot has after recognising every card
correctly), with the deck order fixed by the deal, as in the arena. Run:

    python -m strategies.strength --rounds 1000 --max-depth 3 --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from typing import Any

from rummy import DECIDE, DEFAULT_RULES, OVER, CountState, RulesConfig, count_rules
from rummy.countstate import deal_types
from rummy.stats import wilson_interval
from strategies.registry import get_strategy, takes_option


@dataclass(frozen=True)
class DealSpec:
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    draws: tuple[int, ...]  # the deck from the top, as types
    first_mover: int


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


def make_deal(seed: int, rules: RulesConfig = DEFAULT_RULES) -> DealSpec:
    hands, draws, first_mover = deal_types(random.Random(f"strength-deal:{seed}"), rules)
    return DealSpec(hands, draws, first_mover)


def start_state(deal: DealSpec, rules: RulesConfig = DEFAULT_RULES) -> CountState:
    return CountState.from_types(count_rules(rules), deal.hands, deal.draws, deal.first_mover)


def play_round(deal: DealSpec, seats: Sequence[Any], rules: RulesConfig = DEFAULT_RULES) -> CountState:
    """Play one round; `seats[p]` is player p's strategy. Returns the finished state."""
    state = start_state(deal, rules)
    drawn = 0
    while state.phase != OVER:
        if state.phase == DECIDE:
            move = seats[state.mover].choose(state.copy())
            if move not in state.legal_moves():
                raise RuntimeError(f"{seats[state.mover].name} chose illegal move {move} in {state}")
            state.push(move)
        else:
            state.push_draw(deal.draws[drawn])
            drawn += 1
    return state


def _options(name: str, time_ms: float | None, max_depth: int | None, seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if name == "random":
        options["seed"] = seed
    if takes_option(name, "time_ms") and time_ms is not None:
        options["time_ms"] = time_ms
    if name == "expectimax" and max_depth is not None:
        options["max_depth"] = max_depth
    return options


def _play_deal(job: tuple[str, str, int, float | None, int | None]) -> list[tuple[int, int]]:
    """Both seatings of one deal: [(player won 0/1, player's margin), ...]."""
    player, opponent, seed, time_ms, max_depth = job
    deal = make_deal(seed)
    outcomes = []
    for seat in (0, 1):
        me = get_strategy(player, **_options(player, time_ms, max_depth, seed))
        them = get_strategy(opponent, **_options(opponent, time_ms, max_depth, seed + 1))
        seats = (me, them) if seat == 0 else (them, me)
        final = play_round(deal, seats)
        outcomes.append((int(final.winner() == seat), final.margin(seat)))
    return outcomes


def run_pair(
    player: str,
    opponent: str,
    deals: int,
    *,
    time_ms: float | None = None,
    max_depth: int | None = None,
    workers: int = 2,
    first_seed: int = 0,
) -> PairResult:
    start = time.perf_counter()
    jobs = [(player, opponent, first_seed + index, time_ms, max_depth) for index in range(deals)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_play_deal, jobs, chunksize=max(1, deals // (8 * workers)))
    else:
        results = [_play_deal(job) for job in jobs]
    flat = [outcome for pair in results for outcome in pair]
    wins = sum(won for won, _margin in flat)
    low, high = wilson_interval(wins, len(flat))
    return PairResult(
        player,
        opponent,
        len(flat),
        wins,
        wins / len(flat),
        low,
        high,
        sum(margin for _won, margin in flat) / len(flat),
        time.perf_counter() - start,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="expectimax")
    parser.add_argument("--opponents", default="random,greedy,heuristic")
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per pair (two per deal)")
    parser.add_argument("--time-ms", type=float, default=None, help="per-move budget of the searchers")
    parser.add_argument("--max-depth", type=int, default=None, help="depth cap of expectimax (turns)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--json", action="store_true", help="one JSON line per pair")
    args = parser.parse_args(argv)
    deals = max(1, (args.rounds + 1) // 2)
    for opponent in args.opponents.split(","):
        result = run_pair(
            args.player,
            opponent.strip(),
            deals,
            time_ms=args.time_ms,
            max_depth=args.max_depth,
            workers=args.workers,
            first_seed=args.seed,
        )
        if args.json:
            print(json.dumps(asdict(result)), flush=True)
        else:
            print(
                f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
                f"(95% CI {result.low:.3f}-{result.high:.3f}), mean margin {result.mean_margin:+.1f}, "
                f"{result.seconds:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
