"""Every (count state, banked difference) a deal can reach, for miniature rules, by playing the rules
forward from every deal: the exact count the laid-cards bound (strategies.table.win.reach) is an
upper bound of. Moves come from win_brute.WinBrute.results (written from the rules; no kernel code).

A state is seen by its mover: both hands and the deck as per-landmark counts, and D, the mover's
banked points minus the opponent's. Its canonical form sorts the landmarks' (mine, theirs, deck)
triples, as the kernel's layers do (landmarks are interchangeable).
"""

from __future__ import annotations

import itertools
from functools import cache

from win_brute import WinBrute

from rummy import CountState, RulesConfig, count_rules
from rummy.countstate import second_mover
from strategies.kernel.core import state_at
from strategies.kernel.jit import jit

Counts = tuple[int, ...]
Triples = tuple[tuple[int, int, int], ...]


def deals(rules: RulesConfig) -> set[tuple[Counts, Counts, Counts]]:
    """Every (mover's hand, opponent's hand, deck) a deal can make, as per-landmark counts."""
    n, cards, hand = rules.types_per_round, rules.cards_per_type, rules.hand_size
    hands = [counts for counts in itertools.product(range(cards + 1), repeat=n) if sum(counts) == hand]
    found = set()
    for mine in hands:
        for theirs in hands:
            deck = tuple(cards - a - b for a, b in zip(mine, theirs, strict=True))
            if min(deck) >= 0:
                found.add((mine, theirs, deck))
    return found


Reachable = list[dict[tuple[Triples, int], set[Counts]]]


def reachable_pairs(rules: RulesConfig, brute: WinBrute) -> Reachable:
    """reachable[d]: the canonical (state, D) pairs with d cards in the deck that some play from some deal
    reaches (d from 0 to the deck size; a round that ended early by an emptied hand reaches no layer),
    each with the laid multisets (cards of each landmark laid in sets, in the state's landmark order)
    that reach it, tracked move by move rather than inferred from the counts."""
    top = rules.deck_size
    none = tuple([0] * rules.types_per_round)
    layers: list[set[tuple[Counts, Counts, Counts, int, Counts]]] = [set() for _ in range(top + 1)]
    layers[top] = {(mine, theirs, deck, 0, none) for mine, theirs, deck in deals(rules)}
    for d in range(top, 0, -1):
        for mine, theirs, deck, diff, laid in layers[d]:
            for mine2, theirs2, points in brute.results(mine, theirs):
                if not any(mine2) or not any(theirs2):
                    continue  # the round ends with no draw
                # A set's cards leave the hand for good; a wasted lay keeps them.
                laid2 = tuple(a + b - c for a, b, c in zip(laid, mine, mine2, strict=True)) if points else laid
                for t, n in enumerate(deck):
                    if n:
                        drawn = mine2[:t] + (mine2[t] + 1,) + mine2[t + 1 :]
                        rest = deck[:t] + (n - 1,) + deck[t + 1 :]
                        layers[d - 1].add((theirs2, drawn, rest, -(diff + points), laid2))
    found: Reachable = []
    for layer in layers:
        pairs: dict[tuple[Triples, int], set[Counts]] = {}
        for m, o, k, diff, laid in layer:
            order = sorted(range(len(m)), key=lambda t: (m[t], o[t], k[t]))
            state = tuple((m[t], o[t], k[t]) for t in order)
            pairs.setdefault((state, diff), set()).add(tuple(laid[t] for t in order))
        found.append(pairs)
    return found


@cache
def brute_and_reachable(rules: RulesConfig) -> tuple[WinBrute, Reachable]:
    """The brute-force win solver and its reachable pairs, once per rules for the whole test run."""
    brute = WinBrute(rules)
    return brute, reachable_pairs(rules, brute)


@jit
def kernel_state_at(k, d, i):  # type: ignore[no-untyped-def]
    """The kernel's canonical state with index i of layer d (its unranking, compiled for the tests)."""
    return state_at(k, d, i)


def count_state(rules: RulesConfig, mine: Counts, theirs: Counts, deck: Counts, diff: int) -> CountState:
    """The position with these per-landmark counts, player 0 to move D = diff points ahead, and the tie
    rule the turns taken give."""
    from strategies.kernel.tables import _pack  # the kernel's packing: 4 bits a type

    d = sum(deck)
    return CountState(
        count_rules(rules),
        (_pack(mine), _pack(theirs)),
        _pack(deck),
        points=(diff, 0),
        turns_left=d,
        mover=0,
        second=second_mover(rules.deck_size - d, 0),
    )
