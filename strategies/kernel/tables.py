"""The kernel's lookup tables for one RulesConfig, built in Python once and passed to compiled code.

Canonical index. A count state is, for each type, the triple (mover's count, opponent's count,
deck count); types are interchangeable, so the state is the multiset of its triples. Triples get
dense ids; a state is its ids sorted in decreasing order, and its index within its layer (the deck
size d) is that sequence's rank among all such sequences with deck total d and both hands
non-empty. `counts[r, j, s, need_mine, need_theirs]` is how many non-increasing sequences of r ids,
all below j, have deck total s and (when the flags ask) some card in the mover's / opponent's hand;
ranking and unranking are sums and binary searches over it.

Moves keep the ids of `rummy.countstate.CountRules`: lays, the wasted lay, takes, gives.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from rummy import DEFAULT_RULES, MoveKind, RulesConfig, count_rules, game_info

MAX_TYPES = 4
MAX_MOVE_BITS = 63

# The one array type of the kernel's integers (packed tables, keys, packed states, bitmaps), and of its values.
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


class KernelUnsupported(ValueError):
    """A rule set the compiled kernel cannot play; the message says which option and why."""


class KernelTables(NamedTuple):
    n_types: int
    cards: int
    penalty: int
    n_lays: int
    n_triples: int
    max_deck: int
    ids: Ints  # (m * (C+1) + o) * (C+1) + k -> triple id, -1 when m+o+k > C
    triple_mine: Ints
    triple_theirs: Ints
    triple_deck: Ints
    counts: Ints  # [r, j, s, need_mine, need_theirs], see the module's docstring
    lay_codes: Ints  # packed counts of each lay (4 bits a type, as rummy.countstate)
    lay_points: Ints
    non_sets: Ints  # packed counts of every min_lay..max_lay multiset that is no set (the wasted lay)
    own_masks: Ints  # by packed hand: bits of its lays, its wasted lay and its gives
    blob: Ints  # all of the above in one array, for compiled code (see `pack_blob`)


def check_supported(config: RulesConfig) -> None:
    """Every RulesConfig option is honoured, within these limits; outside them, refuse clearly."""
    if config.types_per_round > MAX_TYPES:
        raise KernelUnsupported(
            f"the compiled kernel handles at most {MAX_TYPES} types per round, not {config.types_per_round}"
        )
    if config.min_lay < 1:
        raise KernelUnsupported(f"min_lay must be at least 1 for the compiled kernel, got {config.min_lay}")
    moves = game_info(config).num_distinct_moves
    if moves > MAX_MOVE_BITS:
        raise KernelUnsupported(
            f"these rules have {moves} distinct moves; the compiled kernel keeps a hand's moves in a "
            f"{MAX_MOVE_BITS}-bit mask"
        )


def _multisets(n_types: int, size: int) -> list[tuple[int, ...]]:
    return [
        tuple(combo.count(t) for t in range(n_types))
        for combo in itertools.combinations_with_replacement(range(n_types), size)
    ]


def _pack(counts: tuple[int, ...]) -> int:
    return sum(count << (4 * t) for t, count in enumerate(counts))


def _sequence_counts(n_types: int, mine: Ints, theirs: Ints, deck: Ints, max_deck: int) -> Ints:
    n = len(mine)
    counts = np.zeros((n_types + 1, n + 1, max_deck + 1, 2, 2), dtype=np.int64)
    counts[0, :, 0, 0, 0] = 1  # the empty sequence
    for r in range(1, n_types + 1):
        for j in range(1, n + 1):
            m, o, k = int(mine[j - 1]), int(theirs[j - 1]), int(deck[j - 1])
            counts[r, j] = counts[r, j - 1]
            # Sequences that start with id j-1; the rest are ids below j.
            for s in range(k, max_deck + 1):
                for need_m in (0, 1):
                    for need_o in (0, 1):
                        counts[r, j, s, need_m, need_o] += counts[
                            r - 1, j, s - k, int(need_m and m == 0), int(need_o and o == 0)
                        ]
    return counts


def _own_masks(n_types: int, lays: list[tuple[int, ...]], non_sets: list[int]) -> Ints:
    """Move bits for every packed hand (ids: lays, the wasted lay, n_types takes, n_types gives)."""
    codes = np.arange(1 << (4 * n_types), dtype=np.int64)
    held = np.stack([(codes >> (4 * t)) & 15 for t in range(n_types)], axis=1)
    masks = np.zeros(codes.shape, dtype=np.int64)
    for bit, need in enumerate(lays):
        masks |= np.all(held >= np.array(need), axis=1).astype(np.int64) << bit
    wasted = np.zeros(codes.shape, dtype=bool)
    for code in non_sets:
        wasted |= np.all(held >= np.array([(code >> (4 * t)) & 15 for t in range(n_types)]), axis=1)
    masks |= wasted.astype(np.int64) << len(lays)
    for t in range(n_types):
        masks |= (held[:, t] > 0).astype(np.int64) << (len(lays) + 1 + n_types + t)
    return masks


# The blob: a header of these slots, then the tables at the offsets it names. Compiled code takes
# one array instead of a tuple of arrays, which numba passes slowly (reference counts on every call).
(
    N_TYPES,
    CARDS,
    PENALTY,
    N_LAYS,
    N_TRIPLES,
    MAX_DECK,
    AT_IDS,
    AT_MINE,
    AT_THEIRS,
    AT_DECK,
    AT_COUNTS,
    STRIDE_R,
    STRIDE_J,
    STRIDE_S,
    AT_LAY_CODES,
    AT_LAY_POINTS,
    AT_NON_SETS,
    N_NON_SETS,
    AT_OWN_MASKS,
    HEADER,
) = range(20)


def pack_blob(scalars: dict[int, int], parts: list[tuple[int, Ints]]) -> Ints:
    header = np.zeros(HEADER, dtype=np.int64)
    for slot, value in scalars.items():
        header[slot] = value
    at = HEADER
    for slot, part in parts:
        header[slot] = at
        at += part.size
    return np.concatenate([header] + [part.reshape(-1) for _slot, part in parts])


def _triple_index(
    cards: int,
) -> tuple[list[tuple[int, int, int]], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (mine, theirs, deck) split of one type's cards, the id of each by its packed split, and the
    splits' three columns."""
    triples = [
        (m, o, k) for m in range(cards + 1) for o in range(cards + 1) for k in range(cards + 1) if m + o + k <= cards
    ]
    side = cards + 1
    ids = np.full(side**3, -1, dtype=np.int64)
    for index, (m, o, k) in enumerate(triples):
        ids[(m * side + o) * side + k] = index
    mine = np.array([t[0] for t in triples], dtype=np.int64)
    theirs = np.array([t[1] for t in triples], dtype=np.int64)
    deck = np.array([t[2] for t in triples], dtype=np.int64)
    return triples, ids, mine, theirs, deck


def _non_sets(config: RulesConfig, n_types: int) -> list[int]:
    """The packed counts of every lay size that scores no set points."""
    return [
        _pack(counts)
        for size in range(config.min_lay, config.max_lay + 1)
        for counts in _multisets(n_types, size)
        if config.set_points(counts) == 0
    ]


@lru_cache(maxsize=16)
def kernel_tables(config: RulesConfig = DEFAULT_RULES) -> KernelTables:
    check_supported(config)
    n_types, cards = config.types_per_round, config.cards_per_type
    # The deck can never hold more than every card of every type.
    max_deck = min(config.deck_size, n_types * cards)
    triples, ids, mine, theirs, deck = _triple_index(cards)
    rules = count_rules(config)
    lays = [move for move in rules.moves if move.kind == MoveKind.LAY]
    non_sets = _non_sets(config, n_types)
    counts = _sequence_counts(n_types, mine, theirs, deck, max_deck)
    lay_codes = np.array([_pack(move.counts) for move in lays], dtype=np.int64)
    lay_points = np.array([move.points for move in lays], dtype=np.int64)
    non_set_codes = np.array(non_sets, dtype=np.int64)
    own_masks = _own_masks(n_types, [move.counts for move in lays], non_sets)
    # Unranking binary-searches over ids with the rest fixed: keep those runs contiguous in memory.
    by_row = np.ascontiguousarray(counts.transpose(0, 2, 3, 4, 1)).reshape(n_types + 1, max_deck + 1, 1, 4, -1)
    blob = pack_blob(
        {
            N_TYPES: n_types,
            CARDS: cards,
            PENALTY: config.hand_penalty,
            N_LAYS: len(lays),
            N_TRIPLES: len(triples),
            MAX_DECK: max_deck,
            STRIDE_R: by_row.strides[0] // 8,
            STRIDE_S: by_row.strides[1] // 8,
            STRIDE_J: by_row.strides[3] // 8,  # the flags (2 * need_mine + need_theirs); ids are contiguous
            N_NON_SETS: len(non_sets),
        },
        [
            (AT_IDS, ids),
            (AT_MINE, mine),
            (AT_THEIRS, theirs),
            (AT_DECK, deck),
            (AT_COUNTS, by_row),
            (AT_LAY_CODES, lay_codes),
            (AT_LAY_POINTS, lay_points),
            (AT_NON_SETS, non_set_codes),
            (AT_OWN_MASKS, own_masks),
        ],
    )
    return KernelTables(
        n_types=n_types,
        cards=cards,
        penalty=config.hand_penalty,
        n_lays=len(lays),
        n_triples=len(triples),
        max_deck=max_deck,
        ids=ids,
        triple_mine=mine,
        triple_theirs=theirs,
        triple_deck=deck,
        counts=counts,
        lay_codes=lay_codes,
        lay_points=lay_points,
        non_sets=non_set_codes,
        own_masks=own_masks,
        blob=blob,
    )


def layer_sizes(tables: KernelTables) -> list[int]:
    """States by deck size d = 0..max_deck (both hands non-empty)."""
    n = tables.n_triples
    return [int(tables.counts[tables.n_types, n, d, 1, 1]) for d in range(tables.max_deck + 1)]
