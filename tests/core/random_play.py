"""Random card-level moves for tests: legal, wasted and malformed, chosen by a seeded rng."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from rummy import Give, Lay, Match, Move, Take


def random_card_move(match: Match, rng: random.Random, malformed_share: float = 0.2) -> tuple[object, bool]:
    """A raw move (what a bot would send) and whether the referee must refuse it."""
    round_ = match.current
    player = round_.mover
    own = round_.hand_ids(player)
    other = round_.hand_ids(1 - player)
    if rng.random() < malformed_share:
        choices = [
            {"Take": rng.choice(own)},
            {"Give": rng.choice(other)},
            {"Lay": own[:2]},
            {"Lay": [own[0]] * 3},
            {"Lay": other[:3]} if len(other) >= 3 else {"Give": -1},
            {"Pass": 1},
            {"Take": str(other[0])},
            [],
            {"Lay": own[:3], "Give": own[0]},
        ]
        return rng.choice(choices), True
    kind = rng.random()
    if kind < 0.45 and len(own) >= 3:
        size = rng.randint(3, min(5, len(own)))
        return {"Lay": rng.sample(own, size)}, False
    if kind < 0.75:
        return {"Take": rng.choice(other)}, False
    return {"Give": rng.choice(own)}, False


def all_card_moves(match: Match) -> list[Move]:
    """Every well-formed move of the mover: each 3-5 subset of its hand, each take, each give."""
    round_ = match.current
    own = round_.hand_ids(round_.mover)
    other = round_.hand_ids(1 - round_.mover)
    moves: list[Move] = []
    for size in range(3, 6):
        moves.extend(Lay(combo) for combo in itertools.combinations(own, size))
    moves.extend(Take(card_id) for card_id in other)
    moves.extend(Give(card_id) for card_id in own)
    return moves


def kinds_of(match: Match) -> dict[int, str]:
    return {card.id: card.kind for hand in match.current.hands for card in hand}


def type_counts(cards, kinds: tuple[str, ...]) -> tuple[int, ...]:
    counted = Counter(card.kind for card in cards)
    return tuple(counted[kind] for kind in kinds)


def round_snapshot(round_) -> tuple:
    """Everything a move can change in a round, to check that a refused move changed nothing."""
    return (
        round_.hand_ids(0),
        round_.hand_ids(1),
        [card.id for card in round_.deck],
        [card.id for card in round_.laid],
        list(round_.points),
        round_.mover,
        round_.turns_taken,
        round_.over,
    )
