"""A second exact solver, written from the rules alone, to check the curated suite independently.

The curated positions' "Expected" moves were chosen by `solve()`; checking `solve()` against them
again would only check that it is deterministic. This solver shares no code with the project: it
reads the position's JSON itself (hands as card ids with landmark names, the deck as names), scores
sets with its own table taken from the rules, and searches plain expectimax to the end of the round,
with no pruning, no transposition table, no move ordering and no canonical keys.

At the root it values every card-level move (each 3-5 subset of the hand as a Lay, each Take, each
Give), so the expected card move is checked as played. Below the root it works on landmark counts:
the rules never tell two cards of the same landmark apart, so a hand is its multiset of names, and
situations that repeat are remembered (a plain cache of exact values, not a pruning device).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

# The rules: 3, 4, 5 of a kind score 20, 30, 50; 3 or 4 all different score 25, 35; 3 points off per card
# left in hand at the end; 3 to 5 cards per Lay; equal scores go to the player who moved second.
SAME_KIND = {3: 20, 4: 30, 5: 50}
ALL_DIFFERENT = {3: 25, 4: 35}
PENALTY = 3
LAY_SIZES = (3, 4, 5)
TURNS_PER_ROUND = 20

Hand = tuple[tuple[str, int], ...]  # (landmark, count) pairs, sorted, counts > 0


def set_points(names: tuple[str, ...] | list[str]) -> int:
    kinds = set(names)
    if len(kinds) == 1:
        return SAME_KIND.get(len(names), 0)
    if len(kinds) == len(names):
        return ALL_DIFFERENT.get(len(names), 0)
    return 0


def _hand(names: Counter[str] | Mapping[str, int]) -> Hand:
    return tuple(sorted((name, count) for name, count in names.items() if count > 0))


def _size(hand: Hand) -> int:
    return sum(count for _name, count in hand)


def _minus(hand: Hand, names: Mapping[str, int]) -> Hand:
    left = Counter(dict(hand))
    left.subtract(names)
    return _hand(left)


def _plus(hand: Hand, name: str) -> Hand:
    grown = Counter(dict(hand))
    grown[name] += 1
    return _hand(grown)


def _final(mine: Hand, theirs: Hand, lead: int, i_am_second: bool, objective: str) -> float:
    """The value of a finished round for the player whose hand is `mine`; `lead` = my points - theirs."""
    margin = lead - PENALTY * _size(mine) + PENALTY * _size(theirs)
    if objective == "margin":
        return float(margin)
    if margin == 0:
        return 1.0 if i_am_second else -1.0
    return 1.0 if margin > 0 else -1.0


@cache
def _lays(hand: Hand) -> tuple[Hand, ...]:
    """Every distinct multiset of 3-5 cards of the hand: how many cards of each landmark it takes."""
    names = [name for name, _count in hand]
    choices = [range(min(count, max(LAY_SIZES)) + 1) for _name, count in hand]
    return tuple(_hand(dict(zip(names, taken))) for taken in itertools.product(*choices) if sum(taken) in LAY_SIZES)


@cache
def _value(
    mine: Hand, theirs: Hand, deck: Hand, lead: int, turns_left: int, i_am_second: bool, objective: str
) -> float:
    """The value for the player to move (holding `mine`) of a decision with `turns_left` draws still to come."""
    best = -float("inf")
    for after_mine, after_theirs, points in _moves(mine, theirs):
        value = _after_move(after_mine, after_theirs, deck, lead + points, turns_left, i_am_second, objective)
        best = max(best, value)
    return best


def _moves(mine: Hand, theirs: Hand) -> set[tuple[Hand, Hand, int]]:
    """Every distinct effect of a move: (my hand after, their hand after, points scored)."""
    effects: set[tuple[Hand, Hand, int]] = set()
    for lay in _lays(mine):
        names = [name for name, count in lay for _ in range(count)]
        points = set_points(names)
        # A Lay that forms no set is a wasted turn: the cards stay.
        effects.add((_minus(mine, dict(lay)) if points else mine, theirs, points))
    for name, _count in theirs:
        effects.add((_plus(mine, name), _minus(theirs, {name: 1}), 0))
    for name, _count in mine:
        effects.add((_minus(mine, {name: 1}), _plus(theirs, name), 0))
    return effects


def _after_move(
    mine: Hand, theirs: Hand, deck: Hand, lead: int, turns_left: int, i_am_second: bool, objective: str
) -> float:
    """The mover's value once its move is made: the round ends on an empty hand, else the mover draws."""
    if not mine or not theirs:
        return _final(mine, theirs, lead, i_am_second, objective)
    total = _size(deck)
    value = 0.0
    for name, count in deck:  # each card of the deck is equally likely to be on top
        drawn = _plus(mine, name)
        rest = _minus(deck, {name: 1})
        if turns_left == 1:
            child = _final(drawn, theirs, lead, i_am_second, objective)
        else:
            # The opponent moves next: its value is the negation of ours (both objectives are zero-sum).
            child = -_value(theirs, drawn, rest, -lead, turns_left - 1, not i_am_second, objective)
        value += count / total * child
    return value


def card_move_values(raw: Mapping[str, Any], objective: str) -> dict[str, float]:
    """The exact value of every card-level move of the position `raw` (the analysis JSON format), keyed by
    the move's JSON text, e.g. '{"Take": 12}'. Values are 2 P(win) - 1 for "win", expected margin for "margin"."""
    state, labels = raw["GameState"], raw["CardLabels"]
    my_cards = [(card[0], labels[str(card[0])]) for card in state["MyHand"]]
    opp_cards = [(card[0], labels[str(card[0])]) for card in state["OppHand"]]
    mine = _hand(Counter(name for _id, name in my_cards))
    theirs = _hand(Counter(name for _id, name in opp_cards))
    deck = _hand(raw["DeckCounts"])
    turns_left = state["RemainingMoves"]
    # The first mover moves on turns 0, 2, 4, ...; I am to move now.
    i_moved_first = (TURNS_PER_ROUND - turns_left) % 2 == 0
    lead = state["MyPoints"] - state["OppPoints"]
    values: dict[str, float] = {}

    def record(move: dict[str, Any], after_mine: Hand, after_theirs: Hand, points: int) -> None:
        values[_key(move)] = _after_move(
            after_mine, after_theirs, deck, lead + points, turns_left, not i_moved_first, objective
        )

    for size in LAY_SIZES:
        for combo in itertools.combinations(my_cards, size):
            names = [name for _id, name in combo]
            points = set_points(names)
            after = _minus(mine, Counter(names)) if points else mine
            record({"Lay": [card_id for card_id, _name in combo]}, after, theirs, points)
    for card_id, name in opp_cards:
        record({"Take": card_id}, _plus(mine, name), _minus(theirs, {name: 1}), 0)
    for card_id, name in my_cards:
        record({"Give": card_id}, _minus(mine, {name: 1}), _plus(theirs, name), 0)
    return values


def _key(move: Mapping[str, Any]) -> str:
    ((kind, value),) = move.items()
    if kind == "Lay":
        return f'{{"Lay": {sorted(value)}}}'
    return f'{{"{kind}": {value}}}'


def move_key(move: Mapping[str, Any]) -> str:
    """The key of `card_move_values` for an arena move."""
    return _key(move)
