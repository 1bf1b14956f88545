"""How many nodes a searcher gets through per CPU second, so that a duel can give it the node budget
that equals its time budget on an idle machine (figures, not pass/fail):

    python -m strategies.table.node_rate expectimax-plan "expectimax:objective=win" --positions 40

A time budget makes a searcher as strong as the machine is idle: on a shared machine it searches
less deep. Its node budget at the same strength is its rate (nodes per CPU second, measured on
decisions where the search ran, not on exact solves or forced moves) times the time budget; with it
a duel's moves do not depend on the load, and a run can be repeated bit for bit.
"""

from __future__ import annotations

import argparse
import time

from strategies.bench import position_set
from strategies.registry import get_strategy
from strategies.table.duel import parse_player


def node_rate(spec: str, positions: int, seed: int) -> tuple[float, int]:
    """(nodes per CPU second, decisions measured) of player `spec` on a fixed position set."""
    name, options = parse_player(spec)
    player = get_strategy(name, **options)
    nodes = 0
    seconds = 0.0
    decisions = 0
    for state in position_set(positions, seed):
        began = time.process_time()
        player.choose(state.copy())
        spent = time.process_time() - began
        last = getattr(player, "last", None)
        if last is not None and last.nodes > 0:
            nodes += last.nodes
            seconds += spent
            decisions += 1
    return (nodes / seconds if seconds else 0.0), decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players", nargs="+", help="players as in strategies.table.duel (name:key=value,...)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4242, help="position set (turns left 8-20)")
    parser.add_argument("--time-ms", type=float, default=1000.0, help="the time budget to translate into nodes")
    args = parser.parse_args()
    for spec in args.players:
        rate, decisions = node_rate(spec, args.positions, args.seed)
        print(
            f"{spec}: {rate:,.0f} nodes per CPU second over {decisions} searched decisions; "
            f"{args.time_ms:.0f} ms is about nodes={round(rate * args.time_ms / 1000, -3):.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
