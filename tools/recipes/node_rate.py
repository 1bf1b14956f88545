"""How many nodes a searcher gets through per CPU second, so that a duel can give it the node budget
that equals its time budget on an idle machine (figures, not pass/fail):

    python tools/measure.py node-rate expectimax-plan "expectimax:objective=win" --positions 40

A time budget makes a searcher as strong as the machine is idle: on a shared machine it searches
less deep. Its node budget at the same strength is its rate (nodes per CPU second, measured on
decisions where the search ran, not on exact solves or forced moves) times the time budget; with it
a duel's moves do not depend on the load, and a run can be repeated bit for bit.
"""

from __future__ import annotations

import time

from bot.measure.duel import parse_player
from bot.measure.sampling import position_set
from strategies.registry import get_strategy


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
