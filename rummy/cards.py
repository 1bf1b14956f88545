"""Cards and the seeded deal of one round."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummy.config import DEFAULT_RULES, RulesConfig

# The deal's stream draws from this range; a card's id is its draw's rank (below), so that a seed keeps its
# landmarks, URLs' tokens, hands, deck order and the order of its ids.
ID_RANGE = range(1, 1_000_000)
# As on the arena (whose example gamestate has card ids 0-28 and .jpg pictures): a round's ids are a
# shuffled 0..39, and card URLs end in .jpg. A bot with `if card_id:` or a .png check fails here too.
CARD_SUFFIX = ".jpg"
CARD_SUFFIXES = (".jpg", ".png")  # what a card URL may end in (.png: records made before ids 0-39)


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
    return f"/cards/{token}{CARD_SUFFIX}"


def token_of(url: str) -> str:
    """The opaque token of a card URL (absolute or a path): .../cards/<token>.jpg (.png in older records)."""
    name = url.rsplit("/", 1)[-1]
    return name.removesuffix(".jpg") if name.endswith(".jpg") else name.removesuffix(".png")


def deal_round(seed: int | str, rules: RulesConfig = DEFAULT_RULES) -> Deal:
    """Same seed, same landmarks, ids, URLs, hands, deck order and first mover."""
    rng = random.Random(f"rummy-vision-deal:{seed}")
    kinds = tuple(rng.sample(rules.catalog, rules.types_per_round))
    # Each card's id is the rank of the id it used to draw: a shuffled 0..39 whose order is the old ids' order,
    # so the rest of the deal stays the seed's and whatever sorts cards by id sorts them as it did.
    drawn = rng.sample(ID_RANGE, rules.total_cards)
    rank = {old: new for new, old in enumerate(sorted(drawn))}
    ids = [rank[old] for old in drawn]
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
