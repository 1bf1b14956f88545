"""rummy.GameInfo against counts made here from the rules' text: the moves by enumerating every lay, the
bounds by playing out every deal of miniature rules to the end."""

from __future__ import annotations

import itertools
import math

import pytest

from rummy import DEFAULT_RULES, CountState, RulesConfig, count_rules, game_info
from rummy.countstate import DRAW

TINY = [
    RulesConfig(types_per_round=2, cards_per_type=3, hand_size=2),
    RulesConfig(
        types_per_round=3, cards_per_type=2, hand_size=2, min_lay=2, max_lay=3, different_points=((2, 6), (3, 25))
    ),
    RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2, same_kind_points=((3, 14), (4, 21)), hand_penalty=9),
]


def _scores(config: RulesConfig, counts: tuple[int, ...]) -> bool:
    """Whether laying these cards (count per type) scores: all of one type, or all of different types."""
    size = sum(counts)
    used = [count for count in counts if count]
    if len(used) == 1:
        return size in dict(config.same_kind_points)
    return all(count == 1 for count in used) and size in dict(config.different_points)


def _lay_count(config: RulesConfig) -> int:
    """Every multiset of min_lay..max_lay cards that scores (a move id even when a type has fewer cards)."""
    n = config.types_per_round
    return sum(
        1
        for counts in itertools.product(range(config.max_lay + 1), repeat=n)
        if config.min_lay <= sum(counts) <= config.max_lay and _scores(config, counts)
    )


@pytest.mark.parametrize("config", [DEFAULT_RULES, *TINY])
def test_the_move_count_is_every_scoring_lay_plus_the_wasted_lay_and_a_take_and_a_give_per_type(
    config: RulesConfig,
) -> None:
    info = game_info(config)
    assert info.num_lays == _lay_count(config)
    assert info.num_distinct_moves == _lay_count(config) + 1 + 2 * config.types_per_round
    assert info.max_game_length == config.total_cards - 2 * config.hand_size


def test_the_arena_rules_facts() -> None:
    info = game_info(DEFAULT_RULES)
    # 3-5 of a kind (4 types: 12), 3 or 4 different (4 + 1): 17 lays; 26 move ids in all.
    assert (info.num_lays, info.num_distinct_moves, info.max_game_length) == (17, 26, 20)
    # 5 of a kind is the best points per card (10); 40 cards.
    assert (info.max_banked_points, info.max_margin, info.decided_beyond, info.point_unit) == (400, 400, 401, 5)
    assert (info.min_utility("margin"), info.max_utility("margin")) == (-400.0, 400.0)
    assert (info.min_utility("win"), info.max_utility("win")) == (-1.0, 1.0)
    with pytest.raises(ValueError, match="objective"):
        info.max_utility("points")


def _deals(config: RulesConfig) -> list[CountState]:
    """Every deal of the round, by the types in each hand and the deck (as counts), player 0 first."""
    rules = count_rules(config)
    cards = [t for t in range(config.types_per_round) for _ in range(config.cards_per_type)]
    found = {}
    for first in itertools.combinations(range(len(cards)), config.hand_size):
        rest = [i for i in range(len(cards)) if i not in first]
        for second in itertools.combinations(rest, config.hand_size):
            hands = ([cards[i] for i in first], [cards[i] for i in second])
            deck = [cards[i] for i in rest if i not in second]
            state = CountState.from_types(rules, hands, deck, 0)
            found[(state.hands[0], state.hands[1], state.deck)] = state
    return list(found.values())


def _extremes(state: CountState, seen: dict[str, int]) -> None:
    """Play every line to the end; note the largest banked points, final margin and swing from any point."""
    unit = game_info(state.rules.config).point_unit
    banked = state.points[0] - state.points[1]
    assert banked % unit == 0
    seen["points"] = max(seen["points"], *state.points)
    if state.is_over:
        seen["margin"] = max(seen["margin"], abs(state.margin(0)))
        return
    moves = [t for t, _p in state.chance_outcomes()] if state.phase == DRAW else list(state.legal_moves())
    for choice in moves:
        state.push_draw(choice) if state.phase == DRAW else state.push(choice)
        _extremes(state, seen)
        state.pop()


@pytest.mark.parametrize("config", TINY)
def test_no_play_reaches_beyond_the_declared_bounds(config: RulesConfig) -> None:
    info = game_info(config)
    seen = {"points": 0, "margin": 0}
    for deal in _deals(config):
        _extremes(deal, seen)
    assert seen["points"] <= info.max_banked_points
    assert seen["margin"] <= info.max_margin < info.decided_beyond
    assert seen["margin"] > 0  # the miniature games are played, not empty
    per_card = max(math.ceil(points / size) for size, points in config.same_kind_points + config.different_points)
    assert info.max_margin <= config.total_cards * max(per_card, config.hand_penalty)
