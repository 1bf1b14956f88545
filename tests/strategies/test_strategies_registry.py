"""Every registered strategy plays legal moves, respects deadlines, and works as an arena agent."""

import random
import time

import pytest
from strategies_helpers import random_position

from rummy import CardLabel, Match, render_gamestate
from rummy.deals import make_deal, play_round
from rummy.stats import wilson_interval
from strategies.agent import ArenaAgent
from strategies.registry import STRONGEST, get_strategy, strategy_names

FAST = {"time_ms": 50}


def test_all_names_are_registered() -> None:
    assert {"random", "greedy", "heuristic", "expectimax", "exact", "easy", "medium", "hard", "perfect"} <= set(
        strategy_names()
    )
    assert STRONGEST in strategy_names()


# `perfect` needs its table: tests/strategies/test_perfect.py.
@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "expectimax", "easy", "medium", "hard"])
def test_strategies_choose_legal_moves(name: str) -> None:
    rng = random.Random(name)
    options = FAST if name in {"expectimax", "easy", "medium", "hard"} else {}
    player = get_strategy(name, **options)
    for _ in range(15):
        state = random_position(rng)
        before = repr(state)
        assert player.choose(state) in state.legal_moves()
        assert repr(state) == before  # the search leaves the state as it found it


def test_unknown_names_and_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'nobody'"):
        get_strategy("nobody")
    with pytest.raises(ValueError, match="does not take the option"):
        get_strategy("greedy", time_ms=10)
    with pytest.raises(ValueError):
        get_strategy("expectimax", objective="points")


def test_a_deadline_caps_the_budget() -> None:
    state = random_position(random.Random(5), max_steps=0)
    player = get_strategy("expectimax", time_ms=60_000)
    start = time.monotonic()
    move = player.choose(state, deadline=start + 0.2)
    # Generous (a busy machine): the point is that the 60 s budget gave way to the 0.2 s deadline.
    assert time.monotonic() - start < 30.0
    assert move in state.legal_moves()
    passed = player.choose(state, deadline=start - 1)  # already late: still a legal answer, at once
    assert passed in state.legal_moves()


def test_margin_objective_and_characters_play() -> None:
    state = random_position(random.Random(6))
    assert get_strategy("expectimax", objective="margin", time_ms=50).choose(state) in state.legal_moves()
    assert get_strategy("easy", seed=3).choose(state) in state.legal_moves()


class TrueLabels:
    """A recognizer that knows the deal (the match's own card kinds)."""

    name = "true-labels"

    def __init__(self, match: Match) -> None:
        self.match = match

    def recognize(self, cards, catalog):  # type: ignore[no-untyped-def]
        kinds = {card.id: card.kind for hand in self.match.current.hands for card in hand}
        return {card_id: CardLabel(kinds[card_id], 1.0) for card_id, _url in cards}


def test_expectimax_plays_a_card_level_match_through_the_arena_agent() -> None:
    match = Match(seed="strategies-agent", rounds=2)
    agents = [
        ArenaAgent(get_strategy("expectimax", time_ms=30), TrueLabels(match)),
        ArenaAgent(get_strategy("greedy"), TrueLabels(match)),
    ]
    from rummy import parse_move

    while not match.over:
        player = match.mover
        move = agents[player].calculate_move(render_gamestate(match, player))
        match.apply(player, parse_move(move))
    assert sum(match.rounds_won) == 2


def test_duplicate_deals_beat_random_and_the_interval_is_wilson() -> None:
    wins = 0
    for seed in range(4):
        deal = make_deal(seed)
        for seat in (0, 1):
            # A node budget, not the 1 s time budget: under load the exact endgame solve could eat the second
            # and leave a depth-0 answer, so the wins would depend on the machine's speed.
            me = get_strategy("expectimax", max_depth=2, nodes=20_000)
            them = get_strategy("random", seed=seed)
            final = play_round(deal, (me, them) if seat == 0 else (them, me))
            wins += final.winner() == seat
    assert wins >= 7
    low, high = wilson_interval(768, 1000)
    assert low == pytest.approx(0.7408, abs=1e-4) and high == pytest.approx(0.7931, abs=1e-4)
