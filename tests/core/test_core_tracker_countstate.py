"""The tracker and the count-level state agree with the card-level engine."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from random_play import all_card_moves, kinds_of, random_card_move

from rummy import (
    DECIDE,
    DRAW,
    OVER,
    CountState,
    Lay,
    Match,
    RulesConfig,
    Tracker,
    count_rules,
    parse_move,
    play_random_round,
    render_gamestate,
)
from rummy.countstate import pack
from rummy.tracker import PLACEHOLDER

# The @example seeds 538683901, 32571 and 13760 are deals where a landmark has no card among the 20
# dealt (about 0.1% of deals): the tracker can only name it with a placeholder until a card of it is
# drawn. Hypothesis found them; they stay pinned so every run checks that case.


def truth_labels(match: Match) -> dict[int, str]:
    return kinds_of(match)


def engine_kinds(tracker: Tracker, match: Match) -> list[str]:
    """The engine's landmark behind each of the tracker's types, in the tracker's type order.

    A type the tracker has not seen yet is a placeholder, and rightly so: no gamestate tells which
    landmark it is. Every such landmark still has all its cards in the deck (a card is seen in a hand
    before it can be laid), so the placeholders are interchangeable and get the unseen landmarks in
    name order.
    """
    names = tracker.types_in_use()
    kinds = match.current.deal.kinds
    named = [name for name in names if not name.startswith(PLACEHOLDER.format(""))]
    assert set(named) <= set(kinds), f"the tracker names a landmark not in the round: {named}"
    unseen = iter(sorted(set(kinds) - set(named)))
    return [name if name in named else next(unseen) for name in names]


def tracker_deck(tracker: Tracker, match: Match) -> Counter:
    """The tracker's deck counts keyed by the engine's landmarks."""
    counts = list(tracker.deck_counts().values())
    mapped = Counter(dict(zip(engine_kinds(tracker, match), counts)))
    for name, count in tracker.deck_counts().items():
        if name.startswith(PLACEHOLDER.format("")):
            assert count == match.current.rules.cards_per_type, "an unseen landmark has all its cards in the deck"
    return mapped + Counter()


def engine_deck(match: Match) -> Counter:
    return Counter(card.kind for card in match.current.deck)


def random_legal_move(match: Match, rng: random.Random):
    raw, _refused = random_card_move(match, rng, malformed_share=0.0)
    return parse_move(raw)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
@example(538683901)
@example(32571)
@example(13760)
def test_tracker_fed_every_view_reproduces_the_deck_at_every_turn(seed):
    match = Match(seed=seed)
    rng = random.Random(seed)
    trackers = (Tracker(), Tracker())
    while not match.over:
        for viewer in (0, 1):
            trackers[viewer].observe(render_gamestate(match, viewer), truth_labels(match))
            assert sorted(engine_kinds(trackers[viewer], match)) == sorted(match.current.deal.kinds)
            assert tracker_deck(trackers[viewer], match) == engine_deck(match)
            assert trackers[viewer].unseen_laid == 0
        match.apply(match.current.mover, random_legal_move(match, rng))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
@example(538683901)
@example(32571)
@example(13760)
def test_tracker_fed_only_its_own_turns_after_the_deal_is_still_exact(seed):
    # A bot sees the deal (OfferGame's answer) and then one gamestate per turn of its own.
    match = Match(seed=seed)
    rng = random.Random(seed)
    trackers = (Tracker(), Tracker())
    for viewer in (0, 1):
        trackers[viewer].observe(render_gamestate(match, viewer), truth_labels(match))
    while not match.over:
        mover = match.current.mover
        trackers[mover].observe(render_gamestate(match, mover), truth_labels(match))
        assert tracker_deck(trackers[mover], match) == engine_deck(match)
        match.apply(mover, random_legal_move(match, rng))


def test_tracker_starts_afresh_each_round_of_a_match():
    match = Match(seed=4, rounds=3)
    rng = random.Random(4)
    tracker = Tracker()
    while not match.over:
        tracker.observe(render_gamestate(match, 0), truth_labels(match))
        assert tracker_deck(tracker, match) == engine_deck(match)
        match.apply(match.current.mover, random_legal_move(match, rng))
    assert tracker.rounds_seen == 3


def test_tracker_with_unknown_labels_keeps_the_deck_size_and_count_state_consistent():
    match = Match(seed=8)
    labels = {card_id: (None if card_id % 3 == 0 else kind) for card_id, kind in truth_labels(match).items()}
    tracker = Tracker()
    tracker.observe(render_gamestate(match, 0), labels)
    assert sum(tracker.deck_counts().values()) == 20
    state = tracker.count_state()
    assert sum(state.counts(0)) == 10 and sum(state.counts(1)) == 10 and sum(state.deck_counts()) == 20
    assert all(count <= 10 for count in state.counts(0))


def effect_signature(match: Match, move, kinds: dict[int, str]) -> tuple:
    """What a card move does, by type: the key the count level deduplicates on."""
    round_ = match.current
    order = round_.deal.kinds
    if isinstance(move, Lay):
        counts = tuple(sum(kinds[card_id] == kind for card_id in move.ids) for kind in order)
        if round_.rules.set_points(counts):
            return ("lay", counts)
        return ("waste",)
    return (type(move).__name__.lower(), order.index(kinds[move.id]))


def count_signature(state: CountState, move_id: int, order_map: list[int]) -> tuple:
    move = state.rules.moves[move_id]
    if move.kind == "lay":
        counts = [0] * len(order_map)
        for t, count in enumerate(move.counts):
            counts[order_map[t]] = count
        return ("lay", tuple(counts))
    if move.kind == "waste":
        return ("waste",)
    return (move.kind, order_map[move.type])


# Each example enumerates every 3-5 subset of the hand at every turn (about 600 moves), hence few examples.
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
@example(538683901)
@example(32571)
@example(13760)
def test_count_level_moves_are_the_card_moves_deduplicated_by_type(seed):
    match = Match(seed=seed)
    rng = random.Random(seed)
    tracker = Tracker()
    while not match.over:
        mover = match.current.mover
        tracker.observe(render_gamestate(match, mover), truth_labels(match))
        state = tracker.count_state()
        # tracker type index -> engine type index
        order_map = [match.current.deal.kinds.index(name) for name in engine_kinds(tracker, match)]
        kinds = kinds_of(match)
        card_level = {effect_signature(match, move, kinds) for move in all_card_moves(match)}
        count_level = [count_signature(state, move_id, order_map) for move_id in state.legal_moves()]
        assert len(count_level) == len(set(count_level)), "a count-level move is listed twice"
        assert set(count_level) == card_level
        # Every count move translates into a card move the referee accepts, with the same effect.
        for move_id in state.legal_moves():
            card_move = tracker.card_move(move_id)
            assert effect_signature(match, parse_move(card_move.to_json()), kinds) == count_signature(
                state, move_id, order_map
            )
        match.apply(mover, random_legal_move(match, rng))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32))
@example(538683901)
@example(32571)
@example(13760)
def test_push_and_draw_follow_the_engine_and_pop_restores(seed):
    match = Match(seed=seed)
    rng = random.Random(seed)
    tracker = Tracker()
    tracker.observe(render_gamestate(match, match.current.mover), truth_labels(match))
    while not match.over:
        state = tracker.count_state()
        before = (list(state.hands), state.deck, list(state.points), state.turns_left, state.mover, state.phase)
        move_id = rng.choice(state.legal_moves())
        card_move = tracker.card_move(move_id)
        outcome = match.apply(match.current.mover, card_move)
        state.push(move_id)
        if outcome.drawn is not None:
            assert state.phase == DRAW
            # A drawn card of a landmark the tracker has not seen is one of its placeholder types.
            drawn_type = engine_kinds(tracker, match).index(outcome.drawn.kind)
            assert any(t == drawn_type for t, _p in state.chance_outcomes())
            assert abs(sum(p for _t, p in state.chance_outcomes()) - 1) < 1e-12
            state.push_draw(drawn_type)
        if match.over:
            assert state.phase == OVER
            break
        assert state.phase == DECIDE
        tracker.observe(render_gamestate(match, match.current.mover), truth_labels(match))
        following = tracker.count_state()
        # The tracker's state is from the new mover's seat: compare seat-independent keys.
        assert state.key() == following.key()
        state.pop()
        if outcome.drawn is not None:
            state.pop()
        assert (list(state.hands), state.deck, list(state.points), state.turns_left, state.mover, state.phase) == before


def test_count_level_final_scores_and_winner_match_the_engine():
    for seed in range(200):
        match = Match(seed=seed)
        rng = random.Random(seed)
        tracker = Tracker()
        while True:
            player = match.current.mover
            tracker.observe(render_gamestate(match, player), truth_labels(match))
            state = tracker.count_state()
            move_id = rng.choice(state.legal_moves())
            outcome = match.apply(player, tracker.card_move(move_id))
            if match.over:
                state.push(move_id)
                if outcome.drawn is not None:
                    state.push_draw(engine_kinds(tracker, match).index(outcome.drawn.kind))
                round_ = match.finished_rounds[-1]
                assert (state.score(0), state.score(1)) == (round_.points[player], round_.points[1 - player])
                assert round_.winner() == (player if state.winner() == 0 else 1 - player)
                break


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=4, max_size=4),
    st.lists(st.integers(0, 4), min_size=4, max_size=4),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.permutations(range(4)),
    st.integers(-60, 60),
    st.booleans(),
)
def test_canonical_key_ignores_type_names_and_seats(mine, theirs, deck, perm, diff, mover_second):
    if not (sum(mine) and sum(theirs) and sum(deck)):
        return
    rules = count_rules()
    base = CountState(
        rules, (pack(mine), pack(theirs)), pack(deck), points=(diff, 0), mover=0, second=int(not mover_second)
    )
    permuted = [[values[perm[t]] for t in range(4)] for values in (mine, theirs, deck)]
    swapped = CountState(
        rules,
        (pack(permuted[1]), pack(permuted[0])),
        pack(permuted[2]),
        points=(5, 5 + diff),
        mover=1,
        second=1 if mover_second else 0,
    )
    assert base.key() == swapped.key()
    changed = CountState(rules, (pack(mine), pack(theirs)), pack(deck), points=(diff + 1, 0), mover=0)
    assert changed.key() != base.key()


def test_move_table_has_a_dense_id_for_each_distinct_move():
    rules = count_rules()
    assert [move.id for move in rules.moves] == list(range(len(rules.moves)))
    kinds = Counter(move.kind for move in rules.moves)
    # 4 types: 3/4/5 of a kind (12), 3 different (4), 4 different (1); waste; 4 takes; 4 gives
    assert kinds == Counter({"lay": 17, "waste": 1, "take": 4, "give": 4})


@pytest.mark.parametrize("config", [RulesConfig(), RulesConfig(types_per_round=2, cards_per_type=4, hand_size=3)])
def test_random_count_level_rounds_conserve_cards(config):
    rng = random.Random(3)
    total = config.total_cards
    for _ in range(300):
        state = CountState.random_deal(rng, config)
        play_random_round(state, rng)
        assert state.is_over
        rules = state.rules
        in_play = rules.size(state.hands[0]) + rules.size(state.hands[1]) + rules.size(state.deck)
        laid_points = state.points[0] + state.points[1]
        assert in_play <= total and (in_play == total) == (laid_points == 0)
        assert state.turns_left == rules.size(state.deck)


def test_waste_move_exists_exactly_when_some_cards_of_the_hand_form_no_set():
    rules = count_rules()
    config = rules.config
    for combo in itertools.product(range(4), repeat=4):
        hand = [t for t in range(4) for _ in range(combo[t])]
        # Brute force over the actual cards: is any 3-5 of them not a set?
        wasteful = any(
            config.set_points(tuple(Counter(cards)[t] for t in range(4))) == 0
            for size in range(3, 6)
            for cards in itertools.combinations(hand, size)
        )
        assert (rules.waste_id in rules.own_moves(pack(combo))) == wasteful, combo
