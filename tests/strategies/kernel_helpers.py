"""Miniature rule sets for the kernel and table tests, and brute-force counting of canonical states."""

from __future__ import annotations

import itertools

from rummy import RulesConfig

MINIATURES = [
    RulesConfig(types_per_round=2, cards_per_type=5, hand_size=3),
    RulesConfig(types_per_round=3, cards_per_type=4, hand_size=3),
    RulesConfig(types_per_round=4, cards_per_type=3, hand_size=3),
    # Every scoring option changed: other points, penalty and set sizes.
    RulesConfig(
        types_per_round=3,
        cards_per_type=4,
        hand_size=3,
        same_kind_points=((2, 7), (3, 15)),
        different_points=((2, 9),),
        hand_penalty=2,
        min_lay=2,
        max_lay=3,
    ),
]


def rules_id(rules: RulesConfig) -> str:
    return f"{rules.types_per_round}x{rules.cards_per_type}h{rules.hand_size}p{rules.hand_penalty}l{rules.min_lay}"


def brute_force_layers(rules: RulesConfig) -> list[set[tuple[tuple[int, int, int], ...]]]:
    """Every canonical state (sorted per-type triples) by deck size, both hands non-empty, by enumeration."""
    cards = rules.cards_per_type
    triples = [
        (m, o, k) for m in range(cards + 1) for o in range(cards + 1) for k in range(cards + 1) if m + o + k <= cards
    ]
    layers: list[set[tuple[tuple[int, int, int], ...]]] = [set() for _ in range(rules.deck_size + 1)]
    for combo in itertools.product(triples, repeat=rules.types_per_round):
        deck = sum(k for _m, _o, k in combo)
        if deck > rules.deck_size or not any(m for m, _o, _k in combo) or not any(o for _m, o, _k in combo):
            continue
        layers[deck].add(tuple(sorted(combo)))
    return layers
