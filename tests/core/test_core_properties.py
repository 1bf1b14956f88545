"""Property tests: thousands of random rounds mixing legal, wasted and malformed moves."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_play import random_card_move, round_snapshot

from rummy import DEFAULT_CATALOG, MalformedMove, Match, RulesConfig, parse_move, render_gamestate

MINIATURE = RulesConfig(types_per_round=3, cards_per_type=5, hand_size=4)


def snapshot(match: Match) -> tuple:
    return (match.round_index, round_snapshot(match.current), list(match.rounds_won))


def play_checked(match_seed: int, move_seed: int, rounds: int, rules: RulesConfig) -> list[dict]:
    """Plays a whole match, checking the invariants after every request; returns every view."""
    match = Match(seed=match_seed, rounds=rounds, rules=rules)
    rng = random.Random(move_seed)
    views: list[dict] = []
    set_points = [0, 0]
    current_round = 0
    while not match.over:
        if match.round_index != current_round:
            current_round, set_points = match.round_index, [0, 0]
        round_ = match.current
        player = round_.mover
        raw, must_refuse = random_card_move(match, rng)
        before = snapshot(match)
        try:
            move = parse_move(raw, rules)
            laid_before = len(round_.laid)
            outcome = match.apply(player, move)
        except MalformedMove as error:
            assert must_refuse, f"refused a well-formed move {raw}: {error}"
            assert snapshot(match) == before, "a malformed move changed the game"
            continue
        assert not must_refuse, f"accepted malformed move {raw}"
        if outcome.points:
            set_points[player] += outcome.points
            assert len(round_.laid) > laid_before
        check_round(round_, set_points, rules)
        for viewer in (0, 1):
            views.append(check_view(match, viewer))
    return views


def check_round(round_, set_points, rules: RulesConfig) -> None:
    cards = [*round_.hands[0], *round_.hands[1], *round_.deck, *round_.laid]
    assert len(cards) == rules.total_cards
    assert len({card.id for card in cards}) == rules.total_cards
    assert Counter(card.kind for card in cards) == Counter({kind: rules.cards_per_type for kind in round_.deal.kinds})
    if round_.over:
        for player in (0, 1):
            assert round_.points[player] == set_points[player] - rules.hand_penalty * len(round_.hands[player])
    else:
        assert round_.points == set_points
        assert rules.max_turns - round_.turns_taken == len(round_.deck)


def check_view(match: Match, viewer: int) -> dict:
    view = render_gamestate(match, viewer)
    if view["GameStatus"] == "RUNNING":
        assert view["RemainingMoves"] == view["CardsInDeck"]
    text = json.dumps({key: value for key, value in view.items() if key != "AllCardTypes"}).lower()
    assert not any(name in text for name in DEFAULT_CATALOG), "a landmark name leaked into the gamestate"
    return view


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_one_round_matches_keep_every_invariant(match_seed, move_seed):
    views = play_checked(match_seed, move_seed, 1, RulesConfig())
    assert views[-1]["GameStatus"] in {"WON", "LOST"}


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(1, 4))
def test_random_multi_round_miniature_matches_keep_every_invariant(match_seed, move_seed, rounds):
    views = play_checked(match_seed, move_seed, rounds, MINIATURE)
    assert views[-1]["MyScore"] + views[-1]["OppScore"] == rounds
    assert views[-1]["RemainingRounds"] == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_equal_seeds_render_identical_gamestates(match_seed, move_seed):
    assert play_checked(match_seed, move_seed, 2, RulesConfig()) == play_checked(
        match_seed, move_seed, 2, RulesConfig()
    )
