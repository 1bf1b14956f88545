"""Compile (or load from the cache) every kernel entry point before the first timed move."""

from __future__ import annotations

import random
import sys
import threading
from functools import lru_cache

import numpy as np

from rummy import DEFAULT_RULES, CountState, RulesConfig
from strategies.kernel.jit import compile_notice
from strategies.kernel.solve_position import solve_exact
from strategies.kernel.tables import kernel_tables

# A miniature game: compiled code depends on argument types, not on the rules, so warming up
# on it prepares the full game too, in a fraction of the time.
WARM_RULES = RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2)


_READY = threading.Event()
_STARTED = threading.Lock()


def is_warm() -> bool:
    return _READY.is_set()


def warm_up_soon() -> None:
    """Warm up in a daemon thread: for players built while a match's clock may already run (house
    bots are built at the first move). Until it is done, nothing waits for it; is_warm() tells."""
    if _READY.is_set() or not _STARTED.acquire(blocking=False):
        return
    threading.Thread(target=warm_up, name="kernel-warm-up", daemon=True).start()


def announce() -> None:
    """Say on stderr, once, that the exact solver is compiled now when it is (a first run): a command that
    builds `perfect` or `expectimax` would otherwise stall for a minute without a word."""
    notice = compile_notice("the exact solver", ("play", "bitmap_solve", "sorted_solve"))
    if notice is not None:
        print(f"{notice}...", file=sys.stderr, flush=True)


@lru_cache(maxsize=1)
def warm_up() -> None:
    announce()
    # kernel.play loads numba: importing warm (is_warm, warm_up_soon) stays cheap
    from strategies.kernel.play import legal_moves, moved, state_index, table_move_values

    blob = kernel_tables(WARM_RULES).blob
    state = CountState.random_deal(random.Random(0), WARM_RULES)
    mover = state.mover
    mine, theirs, deck = state.hands[mover], state.hands[1 - mover], state.deck
    below = np.zeros(4096, dtype=np.float32)
    below.setflags(write=False)  # tables are read-only memory maps
    out = np.empty(len(state.rules.moves), dtype=np.float64)
    state_index(blob, mine, theirs, deck, state.turns_left)
    table_move_values(blob, mine, theirs, deck, 1, below, out)
    legal_moves(blob, mine, theirs)
    moved(blob, mine, theirs, 0)
    for objective in ("margin", "win"):
        solve_exact(state.copy(), objective)
    solve_exact(state.copy(), "margin", table_layers=(below, below, below))  # a table's lower layers
    kernel_tables(DEFAULT_RULES)  # the real game's tables are built in Python: once, now
    _READY.set()
