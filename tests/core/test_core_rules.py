"""One test or more for every rule of rules.md; decided points are named in the test names."""

from __future__ import annotations

import json

import pytest
from random_play import round_snapshot

from rummy import (
    DEFAULT_CATALOG,
    DEFAULT_RULES,
    GAMESTATE_KEYS,
    Card,
    Deal,
    Give,
    Lay,
    MalformedMove,
    Match,
    Round,
    RulesConfig,
    Status,
    Take,
    deal_round,
    parse_move,
    render_gamestate,
)


def test_catalog_is_the_32_names_of_the_arena_example():
    assert len(DEFAULT_CATALOG) == 32 == len(set(DEFAULT_CATALOG))
    assert "city hall, london" in DEFAULT_CATALOG
    assert "saint joseph's oratory" in DEFAULT_CATALOG


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ((3, 0, 0, 0), 20),
        ((0, 4, 0, 0), 30),
        ((0, 0, 5, 0), 50),
        ((1, 1, 1, 0), 25),
        ((1, 1, 1, 1), 35),
        ((2, 1, 0, 0), 0),
        ((2, 2, 0, 0), 0),
        ((3, 1, 0, 0), 0),
        ((2, 1, 1, 1), 0),
        ((3, 2, 0, 0), 0),
        ((4, 1, 0, 0), 0),
        ((1, 1, 0, 0), 0),
    ],
)
def test_set_points(counts, points):
    assert DEFAULT_RULES.set_points(counts) == points


def test_deal_has_four_types_of_ten_cards_with_unique_ids_and_urls():
    deal = deal_round(7)
    cards = [*deal.hands[0], *deal.hands[1], *deal.deck]
    assert len(deal.kinds) == 4 == len(set(deal.kinds))
    assert set(deal.kinds) <= set(DEFAULT_CATALOG)
    assert len(cards) == 40
    assert all(sum(card.kind == kind for card in cards) == 10 for kind in deal.kinds)
    assert len({card.id for card in cards}) == 40
    assert len({card.url for card in cards}) == 40
    assert (len(deal.hands[0]), len(deal.hands[1]), len(deal.deck)) == (10, 10, 20)


def test_same_seed_same_deal_and_first_mover_different_seed_differs():
    assert deal_round("abc") == deal_round("abc")
    deals = [deal_round(seed) for seed in range(40)]
    assert len({deal.hands for deal in deals}) == 40
    assert {deal.first_mover for deal in deals} == {0, 1}


def test_decided_card_urls_and_ids_reveal_nothing_about_the_type():
    deal = deal_round(3)
    for card in [*deal.hands[0], *deal.hands[1], *deal.deck]:
        assert not any(word in card.url for name in DEFAULT_CATALOG for word in name.split() if len(word) > 3)
    # ids are assigned in random order: sorting by id does not group the types
    ordered = sorted([*deal.hands[0], *deal.hands[1], *deal.deck], key=lambda card: card.id)
    runs = sum(1 for left, right in zip(ordered, ordered[1:]) if left.kind != right.kind)
    assert runs > 10


# --- moves: shape ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not valid JSON"),
        ([1, 2, 3], "JSON object"),
        ({}, "exactly one key"),
        ({"Lay": [1, 2, 3], "Take": 4}, "exactly one key"),
        ({"Discard": 1}, "unknown move 'Discard'"),
        ({"Lay": 5}, "Lay must be a list"),
        ({"Lay": [1, 2]}, "3 to 5 ids, got 2"),
        ({"Lay": [1, 2, 3, 4, 5, 6]}, "3 to 5 ids, got 6"),
        ({"Lay": [1, 2, 2]}, "repeats card id(s) [2]"),
        ({"Lay": [1, "2", 3]}, 'integer card id, got "2"'),
        ({"Take": "7"}, 'Take must be an integer card id, got "7"'),
        ({"Give": True}, "Give must be an integer card id, got true"),
        ({"Give": 1.5}, "Give must be an integer card id, got 1.5"),
        ({"Take": None}, "got null"),
    ],
)
def test_decided_malformed_move_shapes_say_why(raw, reason):
    with pytest.raises(MalformedMove, match=None) as error:
        parse_move(raw)
    assert reason in str(error.value)


def test_moves_round_trip_through_json():
    for move in (Lay((1, 2, 3)), Take(9), Give(4)):
        assert parse_move(json.dumps(move.to_json())) == move
        assert hash(move) == hash(parse_move(move.to_json()))


# --- a crafted round -------------------------------------------------------------------------


def crafted_round(hand0: str, hand1: str, deck: str, first: int = 0, rules: RulesConfig = DEFAULT_RULES) -> Round:
    """Cards named by letters: A-D are the four types; ids are given in order of appearance."""
    kinds = {"A": "big ben", "B": "giralda", "C": "bryggen", "D": "fitz roy"}
    counter = iter(range(100, 200))

    def cards(letters: str) -> tuple[Card, ...]:
        result = []
        for letter in letters:
            card_id = next(counter)
            result.append(Card(card_id, f"/cards/{card_id}.png", kinds[letter]))
        return tuple(result)

    deal = Deal(tuple(kinds.values()), (cards(hand0), cards(hand1)), cards(deck), first)
    return Round(deal, rules)


def full_round() -> Round:
    # 40 cards, 10 of each type: hands A5 B3 C1 D1 and A1 B1 C4 D4, deck A4 B6 C5 D5
    return crafted_round("AAAAABCDBB", "ABCDCCCDDD", "AAAABBBBBBCCCCCDDDDD")


def ids_of(round_: Round, player: int, letters: str) -> tuple[int, ...]:
    kinds = {"A": "big ben", "B": "giralda", "C": "bryggen", "D": "fitz roy"}
    chosen: list[int] = []
    for letter in letters:
        chosen.append(
            next(card.id for card in round_.hands[player] if card.kind == kinds[letter] and card.id not in chosen)
        )
    return tuple(chosen)


def test_worked_check_of_the_arena_example():
    round_ = full_round()
    assert round_.rules.total_cards == 40
    round_.apply(0, Lay(ids_of(round_, 0, "AAAAA")))  # five of a kind: 50
    round_.apply(1, Lay(ids_of(round_, 1, "ABCD")))  # four different: 35
    match_view = (len(round_.hands[0]), len(round_.hands[1]), len(round_.deck), round_.turns_left)
    assert match_view == (6, 7, 18, 18)
    assert round_.points == [50, 35]
    assert len(round_.laid) == 9 and 6 + 7 + 18 + 9 == 40


def test_valid_set_leaves_the_game_and_scores_for_the_mover():
    round_ = full_round()
    laid = ids_of(round_, 0, "AAA")
    outcome = round_.apply(0, Lay(laid))
    assert outcome.points == 20 and not outcome.wasted
    assert round_.points == [20, 0]
    assert not set(laid) & set(round_.hand_ids(0)) and {card.id for card in round_.laid} == set(laid)


def test_invalid_set_is_a_wasted_turn_cards_stay_and_the_mover_draws():
    round_ = full_round()
    before = round_.hand_ids(0)
    outcome = round_.apply(0, Lay(ids_of(round_, 0, "AAB")))
    assert outcome.wasted and outcome.points == 0
    assert round_.hand_ids(0)[:10] == before and len(round_.hands[0]) == 11
    assert round_.mover == 1 and round_.turns_taken == 1


def test_take_and_give_move_one_card_between_hands():
    round_ = full_round()
    taken = round_.hands[1][0].id
    round_.apply(0, Take(taken))
    assert taken in round_.hand_ids(0) and taken not in round_.hand_ids(1)
    given = round_.hands[1][0].id
    round_.apply(1, Give(given))
    assert given in round_.hand_ids(0) and given not in round_.hand_ids(1)
    # P0: 10 + take + draw + the given card; P1: 10 - taken - given + draw
    assert (len(round_.hands[0]), len(round_.hands[1])) == (13, 9)


@pytest.mark.parametrize(
    ("player", "move", "reason"),
    [
        (0, "lay-opponent-card", "not in the mover's hand"),
        (0, "take-own-card", "not in the opponent's hand"),
        (0, "give-opponent-card", "not in the mover's hand"),
        (1, "take-own-card", "it is player 0's turn"),
    ],
)
def test_decided_malformed_moves_change_nothing(player, move, reason):
    round_ = full_round()
    own, theirs = round_.hands[0][0].id, round_.hands[1][0].id
    moves = {
        "lay-opponent-card": Lay((own, round_.hands[0][1].id, theirs)),
        "take-own-card": Take(own),
        "give-opponent-card": Give(theirs),
    }
    before = (round_.hand_ids(0), round_.hand_ids(1), len(round_.deck), list(round_.points), round_.mover)
    with pytest.raises(MalformedMove) as error:
        round_.apply(player, moves[move])
    assert reason in str(error.value)
    assert (round_.hand_ids(0), round_.hand_ids(1), len(round_.deck), list(round_.points), round_.mover) == before


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (lambda own, theirs: Lay((own[0], own[0], own[0])), "repeats card id"),
        (lambda own, theirs: Lay((own[0], own[1], own[0])), "repeats card id"),
        (lambda own, theirs: Lay((own[0], own[1])), "3 to 5 ids, got 2"),
        (lambda own, theirs: Lay(()), "3 to 5 ids, got 0"),
        (lambda own, theirs: Lay(tuple(own[:6])), "3 to 5 ids, got 6"),
        (lambda own, theirs: Lay((own[0], own[1], 999_999)), "999999 is not in the mover's hand"),
        (lambda own, theirs: Lay((own[0], own[1], theirs[0])), "not in the mover's hand"),
        (lambda own, theirs: Lay((own[0], own[1], str(own[2]))), "integer card id"),
        (lambda own, theirs: Lay((own[0], own[1], True)), "integer card id"),
        (lambda own, theirs: Lay(own[0]), "sequence of card ids"),
        (lambda own, theirs: Take(own[0]), "not in the opponent's hand"),
        (lambda own, theirs: Take(float(theirs[0])), "integer card id"),
        (lambda own, theirs: Give(theirs[0]), "not in the mover's hand"),
        (lambda own, theirs: Give(None), "integer card id"),
        (lambda own, theirs: {"Give": own[0]}, "not a move"),
    ],
)
def test_every_malformed_move_is_refused_with_the_round_untouched(build, reason):
    # Round.apply is the referee's last line: it must not trust a move's shape even when no parser ran.
    round_ = full_round()
    move = build(round_.hand_ids(0), round_.hand_ids(1))
    before = round_snapshot(round_)
    with pytest.raises(MalformedMove) as error:
        round_.apply(0, move)
    assert reason in str(error.value)
    assert round_snapshot(round_) == before
    round_.apply(0, Give(round_.hand_ids(0)[0]))  # and the mover may still play


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"cards_per_type": 0}, "cards_per_type is 0"),
        ({"hand_size": 20}, "at least one more card is needed for the deck"),
        ({"hand_size": 21}, "two hands of 21 need 42 cards"),
        ({"hand_size": 0}, "hand_size is 0"),
        ({"types_per_round": 0}, "types_per_round is 0"),
        ({"types_per_round": 33}, "must be 1..32"),
        ({"cards_per_type": 16}, "packed in 4 bits"),
        ({"min_lay": 4, "max_lay": 3}, "min_lay <= max_lay"),
        ({"hand_penalty": -1}, "must not be negative"),
        ({"catalog": ("a", "a", "b", "c")}, "distinct"),
    ],
)
def test_rules_config_refuses_unplayable_settings_and_says_why(options, reason):
    with pytest.raises(ValueError, match="invalid rules") as error:
        RulesConfig(**options)
    assert reason in str(error.value)


def test_a_deal_that_does_not_fit_the_rules_is_refused():
    with pytest.raises(ValueError, match="each type needs 10 cards"):
        crafted_round("AAAAABCDBB", "ABCDCCCDDD", "AAAABBBBBBCCCCDDDDDB")  # 11 B and 9 C
    with pytest.raises(ValueError, match="the deck has 19 cards, not 20"):
        crafted_round("AAAAABCDBB", "ABCDCCCDDD", "AAAABBBBBBCCCCCDDDD")
    with pytest.raises(ValueError, match="hand 0 has 2 cards, not 3"):
        crafted_round("AA", "BBB", "ACCCDDD", rules=_mini_rules(cards_per_type=3, hand_size=3))


def test_decided_empty_hand_ends_the_round_at_once_without_a_draw():
    round_ = crafted_round("AAA", "BBB", "CCCDDD", rules=_mini_rules(cards_per_type=3, hand_size=3))
    outcome = round_.apply(0, Lay(ids_of(round_, 0, "AAA")))
    assert outcome.round_over and outcome.drawn is None
    assert round_.turns_taken == 0 and round_.over
    assert round_.points == [20, -9]  # penalty: 3 cards left in the other hand
    assert round_.winner() == 0


def test_giving_the_last_card_also_ends_the_round():
    round_ = crafted_round("A", "B", "CD", rules=_mini_rules(cards_per_type=1, hand_size=1))
    round_.apply(0, Give(round_.hands[0][0].id))
    assert round_.over and round_.points == [0, -6]


def test_round_ends_after_the_20th_turn_with_the_deck_empty_and_penalties():
    round_ = full_round()
    while not round_.over:
        player = round_.mover
        round_.apply(player, Give(round_.hands[player][0].id))
    assert round_.turns_taken == 20 and not round_.deck
    assert round_.points == [-3 * len(round_.hands[0]), -3 * len(round_.hands[1])]


def test_tie_goes_to_the_player_who_moved_second():
    for first in (0, 1):
        round_ = crafted_round("AB", "AB", "CDCD", first=first, rules=_mini_rules(cards_per_type=2, hand_size=2))
        while not round_.over:
            player = round_.mover
            round_.apply(player, Give(round_.hands[player][0].id))
        assert round_.points[0] == round_.points[1]
        assert round_.winner() == 1 - first


def _mini_rules(cards_per_type: int, hand_size: int) -> RulesConfig:
    return RulesConfig(types_per_round=4, cards_per_type=cards_per_type, hand_size=hand_size)


# --- matches and gamestates ------------------------------------------------------------------


def play_out(match: Match) -> None:
    while not match.over:
        player = match.current.mover
        match.apply(player, Give(match.current.hands[player][0].id))


def test_match_winner_has_more_rounds_and_decided_equal_rounds_are_drawn():
    results = set()
    for seed in range(30):
        match = Match(seed=seed, rounds=2)
        play_out(match)
        wins = tuple(match.rounds_won)
        assert sum(wins) == 2
        expected = {(1, 1): (Status.DRAWN, Status.DRAWN), (2, 0): (Status.WON, Status.LOST)}
        expected[(0, 2)] = (Status.LOST, Status.WON)
        assert tuple(match.status) == expected[wins]
        results.add(wins)
    assert (1, 1) in results


def test_each_round_of_a_match_has_a_fresh_deal():
    match = Match(seed=5, rounds=3)
    play_out(match)
    deals = [round_.deal for round_ in match.finished_rounds]
    assert len({deal.kinds for deal in deals}) == 3
    assert {card.url for card in deals[0].deck}.isdisjoint(card.url for card in deals[1].deck)


def test_timeout_loses_the_match_at_once():
    match = Match(seed=1, rounds=5)
    match.forfeit(1)
    assert match.status == [Status.WON_BY_TIMEOUT, Status.LOST_BY_TIMEOUT]
    assert match.over and match.mover is None
    with pytest.raises(MalformedMove):
        match.apply(match.current.mover, Give(1))


def test_gamestate_has_exactly_the_arena_keys_and_decided_remaining_rounds():
    match = Match(seed=2, rounds=3)
    view = render_gamestate(match, 0, game_id=12, opponent_id="bob", response_deadline_ms=99, url_prefix="http://h")
    assert tuple(view) == GAMESTATE_KEYS
    assert view["RemainingRounds"] == 3  # the current round counts
    assert view["RemainingMoves"] == view["CardsInDeck"] == 20
    assert view["GameId"] == 12 and view["OpponentId"] == "bob" and view["ResponseDeadline"] == 99
    assert view["IsMover"] == (match.current.mover == 0)
    assert all(url.startswith("http://h/cards/") for _id, url in view["MyHand"] + view["OppHand"])
    play_out(match)
    final = render_gamestate(match, 0)
    assert final["RemainingRounds"] == 0 and final["GameStatus"] in {"WON", "LOST", "DRAWN"}
    assert final["MyScore"] + final["OppScore"] == 3 and final["IsMover"] is False


def test_final_points_include_the_hand_penalty():
    match = Match(seed=9)
    play_out(match)
    view = render_gamestate(match, 0)
    assert view["MyPoints"] == -3 * len(view["MyHand"])
