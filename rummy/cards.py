"""Cards and the seeded deal of one round."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummy.config import DEFAULT_RULES, RulesConfig

ID_RANGE = range(1, 1_000_000)


@dataclass(frozen=True)
class Card:
    id: int
    url: str
    kind: str  # the landmark; known to the referee, never rendered into a gamestate


@dataclass(frozen=True)
class Deal:
    kinds: tuple[str, ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]  # deck[0] is drawn first
    first_mover: int


def card_url(token: str) -> str:
    """The opaque path of a card image; the server prefixes its own base."""
    return f"/cards/{token}.png"


def deal_round(seed: int | str, rules: RulesConfig = DEFAULT_RULES) -> Deal:
    """Same seed, same landmarks, ids, URLs, hands, deck order and first mover."""
    rng = random.Random(f"rummy-vision-deal:{seed}")
    kinds = tuple(rng.sample(rules.catalog, rules.types_per_round))
    ids = rng.sample(ID_RANGE, rules.total_cards)
    cards = [
        Card(id=card_id, url=card_url(f"{rng.getrandbits(96):024x}"), kind=kinds[index // rules.cards_per_type])
        for index, card_id in enumerate(ids)
    ]
    rng.shuffle(cards)
    size = rules.hand_size
    return Deal(
        kinds=kinds,
        hands=(tuple(cards[:size]), tuple(cards[size : 2 * size])),
        deck=tuple(cards[2 * size :]),
        first_mover=rng.randrange(2),
    )
