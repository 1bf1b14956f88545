"""The count-level state that search works on.

Cards of the same type are interchangeable for play, so search only needs, per type, how many
cards each hand and the deck hold. Counts are packed four bits per type into one int ("a code"),
which makes states cheap to copy, hash and compare. Moves are deduplicated by type and each
distinct move has a dense integer id (`CountRules.moves[id]`).

A state alternates between two phases: the mover chooses a move (DECIDE), then, unless a hand
emptied, draws a card whose type is a chance outcome weighted by the deck (DRAW).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import lru_cache

from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.moves import Give, Lay, Move, Take

BITS = 4
NIBBLE = (1 << BITS) - 1


class Phase(IntEnum):
    """Where a round stands: the mover chooses a move, the mover draws, or the round is over."""

    DECIDE = 0
    DRAW = 1
    OVER = 2


DECIDE, DRAW, OVER = Phase.DECIDE, Phase.DRAW, Phase.OVER


class MoveKind(StrEnum):
    """What a count-level move does; a StrEnum, so each kind also equals its plain name ("lay", ...)."""

    LAY = "lay"
    WASTE = "waste"  # a lay that is no set: a pass
    TAKE = "take"
    GIVE = "give"


def pack(counts: Sequence[int]) -> int:
    code = 0
    for index, count in enumerate(counts):
        code |= count << (BITS * index)
    return code


def unpack(code: int, n_types: int) -> tuple[int, ...]:
    return tuple((code >> (BITS * index)) & NIBBLE for index in range(n_types))


@dataclass(frozen=True)
class CountMove:
    """A move by card types: `kind` is lay, waste, take or give."""

    id: int
    kind: MoveKind
    counts: tuple[int, ...] = ()  # lay: cards of each type
    type: int = -1  # take / give: the card's type
    points: int = 0

    @property
    def label(self) -> str:
        if self.kind == MoveKind.LAY:
            return "Lay " + "+".join(f"{count}x{chr(65 + t)}" for t, count in enumerate(self.counts) if count)
        if self.kind == MoveKind.WASTE:
            return "Waste (invalid set)"
        return f"{self.kind.title()} {chr(65 + self.type)}"


class CountRules:
    """The move tables for one RulesConfig, shared by every state of that configuration."""

    def __init__(self, config: RulesConfig = DEFAULT_RULES) -> None:
        self.config = config
        self.n_types = config.types_per_round
        n = self.n_types
        moves: list[CountMove] = []
        for size in range(config.min_lay, config.max_lay + 1):
            for counts in _multisets(n, size):
                points = config.set_points(counts)
                if points:
                    moves.append(CountMove(len(moves), MoveKind.LAY, counts, points=points))
        self.waste_id = len(moves)
        moves.append(CountMove(self.waste_id, MoveKind.WASTE))
        first_take = len(moves)
        self.take_ids = tuple(range(first_take, first_take + n))
        moves.extend([CountMove(first_take + t, MoveKind.TAKE, type=t) for t in range(n)])
        first_give = len(moves)
        self.give_ids = tuple(range(first_give, first_give + n))
        moves.extend([CountMove(first_give + t, MoveKind.GIVE, type=t) for t in range(n)])
        self.moves: tuple[CountMove, ...] = tuple(moves)
        self.lay_codes = tuple(pack(move.counts) if move.kind == MoveKind.LAY else 0 for move in moves)
        # Packed type counts -> the Lay's move id, for every set: what a card-level Lay is in one assignment.
        self.lay_by_code: dict[int, int] = {
            self.lay_codes[move.id]: move.id for move in moves if move.kind == MoveKind.LAY
        }
        self.unit = tuple(1 << (BITS * t) for t in range(n))
        self._own: dict[int, tuple[int, ...]] = {}
        self._draws: dict[int, tuple[tuple[int, float], ...]] = {}
        self._takes: dict[int, tuple[int, ...]] = {}
        self._sizes: dict[int, int] = {}

    def own_moves(self, hand: int) -> tuple[int, ...]:
        """Lays, the wasted lay (when some 3-5 cards form no set) and gives: all need only the own hand."""
        found = self._own.get(hand)
        if found is None:
            found = self._own[hand] = self._compute_own(hand)
        return found

    def take_moves(self, opponent_hand: int) -> tuple[int, ...]:
        found = self._takes.get(opponent_hand)
        if found is None:
            counts = unpack(opponent_hand, self.n_types)
            found = self._takes[opponent_hand] = tuple(self.take_ids[t] for t in range(self.n_types) if counts[t])
        return found

    def draw_outcomes(self, deck: int) -> tuple[tuple[int, float], ...]:
        """A draw from `deck` as (type, probability) pairs, weighted by the deck's counts."""
        found = self._draws.get(deck)
        if found is None:
            counts = unpack(deck, self.n_types)
            total = sum(counts)
            found = self._draws[deck] = tuple((t, count / total) for t, count in enumerate(counts) if count)
        return found

    def size(self, code: int) -> int:
        found = self._sizes.get(code)
        if found is None:
            found = self._sizes[code] = sum(unpack(code, self.n_types))
        return found

    def _compute_own(self, hand: int) -> tuple[int, ...]:
        counts = unpack(hand, self.n_types)
        config = self.config
        ids = [
            move.id
            for move in self.moves
            if move.kind == MoveKind.LAY and all(have >= need for have, need in zip(counts, move.counts))
        ]
        if any(
            config.set_points(sub) == 0
            for size in range(config.min_lay, config.max_lay + 1)
            for sub in _multisets(self.n_types, size)
            if all(have >= need for have, need in zip(counts, sub))
        ):
            ids.append(self.waste_id)
        ids.extend(self.give_ids[t] for t in range(self.n_types) if counts[t])
        return tuple(ids)


def _multisets(n_types: int, size: int) -> Iterator[tuple[int, ...]]:
    for combo in itertools.combinations_with_replacement(range(n_types), size):
        yield tuple(combo.count(t) for t in range(n_types))


@lru_cache(maxsize=32)
def count_rules(config: RulesConfig = DEFAULT_RULES) -> CountRules:
    return CountRules(config)


class CountState:
    """Both hands, the deck and the points by type count, with push/pop for search.

    Players are 0 and 1; `second` is the player who moved second this round (wins ties).
    """

    __slots__ = ("rules", "hands", "deck", "points", "turns_left", "mover", "second", "phase", "_stack")

    def __init__(
        self,
        rules: CountRules,
        hands: tuple[int, int],
        deck: int,
        *,
        points: tuple[int, int] = (0, 0),
        turns_left: int | None = None,
        mover: int = 0,
        second: int = 1,
        phase: int = DECIDE,
    ) -> None:
        self.rules = rules
        self.hands = list(hands)
        self.deck = deck
        self.points = list(points)
        self.turns_left = rules.size(deck) if turns_left is None else turns_left
        self.mover = mover
        self.second = second
        self.phase = phase
        self._stack: list[tuple[int, int, int, int, int, int, int, int, int]] = []
        if phase == DECIDE and not (hands[0] and hands[1]) or self.turns_left <= 0:
            self.phase = OVER

    @classmethod
    def random_deal(cls, rng: random.Random, config: RulesConfig = DEFAULT_RULES) -> CountState:
        hands, deck, first = deal_types(rng, config)
        return cls.from_types(count_rules(config), hands, deck, first)

    @classmethod
    def from_types(
        cls, rules: CountRules, hands: tuple[Sequence[int], Sequence[int]], deck: Sequence[int], first_mover: int
    ) -> CountState:
        """The start of a round whose hands and deck hold cards of these type indices."""
        return cls(
            rules,
            (_code_of(rules, hands[0]), _code_of(rules, hands[1])),
            _code_of(rules, deck),
            mover=first_mover,
            second=1 - first_mover,
        )

    def copy(self) -> CountState:
        return CountState(
            self.rules,
            (self.hands[0], self.hands[1]),
            self.deck,
            points=(self.points[0], self.points[1]),
            turns_left=self.turns_left,
            mover=self.mover,
            second=self.second,
            phase=self.phase,
        )

    # --- reading ------------------------------------------------------------------------------

    def counts(self, player: int) -> tuple[int, ...]:
        return unpack(self.hands[player], self.rules.n_types)

    def deck_counts(self) -> tuple[int, ...]:
        return unpack(self.deck, self.rules.n_types)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> tuple[int, ...]:
        if self.phase != DECIDE:
            return ()
        mover = self.mover
        return self.rules.own_moves(self.hands[mover]) + self.rules.take_moves(self.hands[1 - mover])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw's outcomes as (type, probability), weighted by the deck."""
        if self.phase != DRAW:
            return []
        return list(self.rules.draw_outcomes(self.deck))

    def score(self, player: int) -> int:
        """The round score as it would stand if the round ended now (hand penalty applied)."""
        return self.points[player] - self.rules.config.hand_penalty * self.rules.size(self.hands[player])

    def margin(self, player: int) -> int:
        return self.score(player) - self.score(1 - player)

    def winner(self) -> int:
        margin = self.margin(0)
        if margin == 0:
            return self.second
        return 0 if margin > 0 else 1

    def key(self) -> tuple[int, ...]:
        """Equal for states that differ only by renaming types or swapping the players' seats."""
        mover = self.mover
        mine, theirs, deck = self.hands[mover], self.hands[1 - mover], self.deck
        columns = sorted(
            ((mine >> shift) & NIBBLE) | (((theirs >> shift) & NIBBLE) << 4) | (((deck >> shift) & NIBBLE) << 8)
            for shift in range(0, BITS * self.rules.n_types, BITS)
        )
        return (
            *columns,
            self.points[mover] - self.points[1 - mover],
            self.turns_left,
            mover == self.second,
            self.phase,
        )

    # --- make / unmake ------------------------------------------------------------------------

    def push(self, move_id: int) -> None:
        """Play a count-level move for the mover (no legality check: take ids from legal_moves)."""
        rules = self.rules
        mover = self.mover
        hands = self.hands
        self._stack.append(
            (hands[0], hands[1], self.deck, self.points[0], self.points[1], self.turns_left, mover, self.phase, move_id)
        )
        move = rules.moves[move_id]
        kind = move.kind
        if kind == MoveKind.LAY:
            hands[mover] -= rules.lay_codes[move_id]
            self.points[mover] += move.points
        elif kind == MoveKind.TAKE:
            unit = rules.unit[move.type]
            hands[mover] += unit
            hands[1 - mover] -= unit
        elif kind == MoveKind.GIVE:
            unit = rules.unit[move.type]
            hands[mover] -= unit
            hands[1 - mover] += unit
        self.phase = DRAW if hands[0] and hands[1] else OVER

    def push_draw(self, draw_type: int) -> None:
        """The mover draws a card of `draw_type`; the turn ends."""
        mover = self.mover
        self._stack.append(
            (
                self.hands[0],
                self.hands[1],
                self.deck,
                self.points[0],
                self.points[1],
                self.turns_left,
                mover,
                self.phase,
                draw_type,
            )
        )
        unit = self.rules.unit[draw_type]
        self.hands[mover] += unit
        self.deck -= unit
        self.turns_left -= 1
        if self.turns_left <= 0:
            self.phase = OVER
        else:
            self.mover = 1 - mover
            self.phase = DECIDE

    def sample_draw(self, rng: random.Random) -> int:
        deck = self.deck
        pick = int(rng.random() * self.rules.size(deck))
        for t in range(self.rules.n_types):
            pick -= (deck >> (BITS * t)) & NIBBLE
            if pick < 0:
                return t
        raise RuntimeError("drawing from an empty deck")

    def pop(self) -> int:
        """Undo the last push and return what it played: a move id when the state is back at DECIDE,
        the drawn type when it is back at DRAW (so `push`/`push_draw` of the result redoes it)."""
        h0, h1, self.deck, p0, p1, self.turns_left, self.mover, self.phase, undone = self._stack.pop()
        self.hands[0], self.hands[1] = h0, h1
        self.points[0], self.points[1] = p0, p1
        return int(undone)

    def __repr__(self) -> str:
        return (
            f"CountState(hands={self.counts(0)}/{self.counts(1)}, deck={self.deck_counts()}, points={self.points}, "
            f"turns_left={self.turns_left}, mover={self.mover}, second={self.second}, phase={self.phase})"
        )


def deal_types(
    rng: random.Random, config: RulesConfig = DEFAULT_RULES
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...], int]:
    """A shuffled deal by type index: (both hands, the deck from the top, the first mover)."""
    cards = [t for t in range(config.types_per_round) for _ in range(config.cards_per_type)]
    rng.shuffle(cards)
    size = config.hand_size
    hands = (tuple(cards[:size]), tuple(cards[size : 2 * size]))
    return hands, tuple(cards[2 * size :]), rng.randrange(2)


def card_move(
    rules: CountRules,
    move_id: int,
    my_cards: Sequence[tuple[int, int]],
    opp_cards: Sequence[tuple[int, int]],
    trust: Mapping[int, float] | None = None,
) -> Move:
    """The card-level move (card ids) for count-level move `move_id` of the player holding `my_cards`.

    Cards are (id, type index) pairs in hand order. Where a type has several cards, the most trusted
    are laid and the least trusted given away, in hand order among equals; without `trust` (e.g. a
    recognizer's confidences) every card is trusted alike.
    """
    move = rules.moves[move_id]
    trust = trust or {}
    by_trust = sorted(my_cards, key=lambda card: -trust.get(card[0], 1.0))
    if move.kind == MoveKind.LAY:
        chosen: list[int] = []
        for t, need in enumerate(move.counts):
            chosen.extend([card_id for card_id, kind in by_trust if kind == t][:need])
        return Lay(tuple(chosen))
    if move.kind == MoveKind.TAKE:
        return Take(next(card_id for card_id, kind in opp_cards if kind == move.type))
    if move.kind == MoveKind.GIVE:
        of_type = [card_id for card_id, kind in my_cards if kind == move.type]
        return Give(min(of_type, key=lambda card_id: trust.get(card_id, 1.0)))
    config = rules.config
    for size in range(config.min_lay, config.max_lay + 1):
        for combo in itertools.combinations(my_cards, size):
            if config.set_points(tuple(Counter(kind for _id, kind in combo).values())) == 0:
                return Lay(tuple(card_id for card_id, _kind in combo))
    raise ValueError("no cards of the hand form an invalid set")


def second_mover(turns_taken: int, mover: int) -> int:
    """Who moved second this round, from the turns taken and who is to move: the first mover moves on
    turns 0, 2, 4, ... (each turn is one move, by alternating players)."""
    first_mover = mover if turns_taken % 2 == 0 else 1 - mover
    return 1 - first_mover


def _code_of(rules: CountRules, types: Sequence[int]) -> int:
    code = 0
    for t in types:
        code += rules.unit[t]
    return code


def play_random_round(state: CountState, rng: random.Random) -> CountState:
    """Finish the round with uniformly random count-level moves and draws (mutates `state`)."""
    while state.phase != OVER:
        _random_ply(state, rng)
    return state


def random_decision(
    rng: random.Random,
    config: RulesConfig = DEFAULT_RULES,
    *,
    turns_left: int | None = None,
    max_plies: int | None = None,
) -> CountState:
    """A random deal advanced by uniformly random moves and draws to a state where a player is to move.

    With `turns_left`, play stops exactly that many turns before the round's end (a deal whose round
    ends sooner is dealt again); otherwise after a random number of plies (moves and draws), at most
    `max_plies` (default: two per turn), then any pending draw.
    """
    while True:
        state = CountState.random_deal(rng, config)
        if turns_left is not None:
            while state.phase != OVER and not (state.phase == DECIDE and state.turns_left == turns_left):
                _random_ply(state, rng)
        else:
            plies = rng.randrange(0, 2 * config.max_turns if max_plies is None else max_plies + 1)
            for _ in range(plies):
                if state.phase == OVER:
                    break
                _random_ply(state, rng)
            while state.phase == DRAW:
                state.push_draw(state.sample_draw(rng))
        if state.phase == DECIDE:
            return state.copy()


def _random_ply(state: CountState, rng: random.Random) -> None:
    if state.phase == DECIDE:
        state.push(rng.choice(state.legal_moves()))
    else:
        state.push_draw(state.sample_draw(rng))
