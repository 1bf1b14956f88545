"""The referee's card-level game: one round, and a match of several rounds."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from rummy.cards import Card, Deal, deal_round
from rummy.config import DEFAULT_RULES, MalformedLay, RulesConfig
from rummy.moves import Give, Lay, MalformedMove, Move, Take, require_card_id


class Status(StrEnum):
    RUNNING = "RUNNING"
    WON = "WON"
    LOST = "LOST"
    WON_BY_TIMEOUT = "WON_BY_TIMEOUT"
    LOST_BY_TIMEOUT = "LOST_BY_TIMEOUT"
    DRAWN = "DRAWN"


@dataclass(frozen=True)
class MoveOutcome:
    points: int  # points the mover scored with this move
    wasted: bool  # a Lay of the mover's own cards that forms no set
    drawn: Card | None  # the card the mover drew, None when the round ended before the draw
    round_over: bool


def deal_problems(deal: Deal, rules: RulesConfig) -> list[str]:
    """How a deal breaks the rules (hand and deck sizes, cards per type, distinct ids); empty if it fits."""
    found: list[str] = []
    for player, hand in enumerate(deal.hands):
        if len(hand) != rules.hand_size:
            found.append(f"hand {player} has {len(hand)} cards, not {rules.hand_size}")
    if len(deal.deck) != rules.deck_size:
        found.append(f"the deck has {len(deal.deck)} cards, not {rules.deck_size}")
    cards = [*deal.hands[0], *deal.hands[1], *deal.deck]
    if len(set(deal.kinds)) != rules.types_per_round:
        found.append(f"the deal names {len(set(deal.kinds))} distinct types, not {rules.types_per_round}")
    by_kind = Counter(card.kind for card in cards)
    wrong = {kind: count for kind, count in sorted(by_kind.items()) if count != rules.cards_per_type}
    missing = sorted(set(deal.kinds) - set(by_kind))
    if wrong or missing or set(by_kind) - set(deal.kinds):
        shown = {**wrong, **dict.fromkeys(missing, 0)}
        found.append(f"each type needs {rules.cards_per_type} cards; got {shown or dict(by_kind)}")
    if len({card.id for card in cards}) != len(cards):
        found.append("card ids repeat")
    if deal.first_mover not in (0, 1):
        found.append(f"first_mover is {deal.first_mover}, not 0 or 1")
    return found


@dataclass
class Round:
    """One round: both hands, the deck, the laid cards, the points, whose turn."""

    deal: Deal
    rules: RulesConfig = DEFAULT_RULES
    hands: list[list[Card]] = field(init=False)
    deck: list[Card] = field(init=False)
    laid: list[Card] = field(default_factory=list, init=False)
    points: list[int] = field(default_factory=lambda: [0, 0], init=False)
    turns_taken: int = field(default=0, init=False)
    mover: int = field(init=False)
    over: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        problems = deal_problems(self.deal, self.rules)
        if problems:
            raise ValueError("the deal does not fit the rules: " + "; ".join(problems))
        self.hands = [list(self.deal.hands[0]), list(self.deal.hands[1])]
        self.deck = list(self.deal.deck)
        self.mover = self.deal.first_mover

    @property
    def second_mover(self) -> int:
        return 1 - self.deal.first_mover

    @property
    def turns_left(self) -> int:
        return self.rules.max_turns - self.turns_taken

    def hand_ids(self, player: int) -> list[int]:
        return [card.id for card in self.hands[player]]

    def landmarks_by_url(self) -> dict[str, str]:
        """The true landmark of every card in the hands, by image URL: what the oracle recognizer reads."""
        return {card.url: card.kind for hand in self.hands for card in hand}

    def _find(self, player: int, card_id: int, hand_name: str) -> Card:
        for card in self.hands[player]:
            if card.id == card_id:
                return card
        raise MalformedMove(f"card {card_id} is not in {hand_name} ({len(self.hands[player])} cards)")

    def apply(self, player: int, move: Move) -> MoveOutcome:
        """Play `move` for `player`; a MalformedMove leaves the round untouched.

        Every check runs before anything changes, so a refused move (wrong type, an id that is not
        an int or not in the hand it names, a repeated id, a Lay of the wrong size) costs nothing.
        """
        if self.over:
            raise MalformedMove("the round is over")
        if player != self.mover:
            raise MalformedMove(f"it is player {self.mover}'s turn, not player {player}'s")
        opponent = 1 - player
        points, wasted = 0, False
        if isinstance(move, Lay):
            try:
                cards = self._lay_cards(player, move)
            except MalformedMove:
                if self.rules.malformed_lay != MalformedLay.WASTE:
                    raise
                cards = []  # a malformed Lay taken as a wasted turn
            counts = Counter(card.kind for card in cards)
            points = self.rules.set_points(tuple(counts.values())) if cards else 0
            if points:
                for card in cards:
                    self.hands[player].remove(card)
                self.laid.extend(cards)
                self.points[player] += points
            else:
                wasted = True
        elif isinstance(move, Take):
            card = self._find(opponent, require_card_id(move.id, "Take"), "the opponent's hand")
            self.hands[opponent].remove(card)
            self.hands[player].append(card)
        elif isinstance(move, Give):
            card = self._find(player, require_card_id(move.id, "Give"), "the mover's hand")
            self.hands[player].remove(card)
            self.hands[opponent].append(card)
        else:
            raise MalformedMove(f"not a move: {move!r}")
        drawn = None
        if (self.hands[0] and self.hands[1]) or (self.rules.draw_after_emptying and self.deck):
            drawn = self.deck.pop(0)
            self.hands[player].append(drawn)
            self.turns_taken += 1
        if not (self.hands[0] and self.hands[1]) or self.turns_taken >= self.rules.max_turns:
            self._finish()
        else:
            self.mover = opponent
        return MoveOutcome(points=points, wasted=wasted, drawn=drawn, round_over=self.over)

    def _lay_cards(self, player: int, move: Lay) -> list[Card]:
        ids = move.ids
        if not isinstance(ids, tuple | list):
            raise MalformedMove(f"Lay must hold a sequence of card ids, got {type(ids).__name__}")
        for card_id in ids:
            require_card_id(card_id, "each Lay entry")
        if not self.rules.min_lay <= len(ids) <= self.rules.max_lay:
            raise MalformedMove(f"Lay needs {self.rules.min_lay} to {self.rules.max_lay} ids, got {len(ids)}")
        repeated = sorted({card_id for card_id in ids if ids.count(card_id) > 1})
        if repeated:
            raise MalformedMove(f"Lay repeats card id(s) {repeated}")
        return [self._find(player, card_id, "the mover's hand") for card_id in ids]

    def _finish(self) -> None:
        self.over = True
        for player in (0, 1):
            self.points[player] -= self.rules.hand_penalty * len(self.hands[player])

    def winner(self) -> int:
        """The round's winner; equal scores go to the player who moved second."""
        if not self.over:
            raise RuntimeError("the round is still running")
        if self.points[0] == self.points[1]:
            return self.second_mover
        return 0 if self.points[0] > self.points[1] else 1


@dataclass
class Match:
    """R rounds with fresh deals; the player who wins more rounds wins, equal rounds is DRAWN."""

    seed: int | str
    rounds: int = 1
    rules: RulesConfig = DEFAULT_RULES
    round_index: int = field(default=0, init=False)
    rounds_won: list[int] = field(default_factory=lambda: [0, 0], init=False)
    status: list[Status] = field(default_factory=lambda: [Status.RUNNING, Status.RUNNING], init=False)
    current: Round = field(init=False)
    finished_rounds: list[Round] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError("a match has at least one round")
        master = random.Random(f"rummy-vision-match:{self.seed}")
        self._round_seeds = [master.getrandbits(64) for _ in range(self.rounds)]
        self.current = Round(deal_round(self._round_seeds[0], self.rules), self.rules)

    @property
    def over(self) -> bool:
        return self.status[0] is not Status.RUNNING

    @property
    def remaining_rounds(self) -> int:
        return 0 if self.over else self.rounds - self.round_index

    @property
    def mover(self) -> int | None:
        return None if self.over else self.current.mover

    def apply(self, player: int, move: Move) -> MoveOutcome:
        if self.over:
            raise MalformedMove("the match is over")
        outcome = self.current.apply(player, move)
        if outcome.round_over:
            self._end_round()
        return outcome

    def _end_round(self) -> None:
        self.rounds_won[self.current.winner()] += 1
        self.finished_rounds.append(self.current)
        self.round_index += 1
        if self.round_index < self.rounds:
            self.current = Round(deal_round(self._round_seeds[self.round_index], self.rules), self.rules)
            return
        if self.rounds_won[0] == self.rounds_won[1]:
            self.status = [Status.DRAWN, Status.DRAWN]
        else:
            leader = 0 if self.rounds_won[0] > self.rounds_won[1] else 1
            self.status[leader], self.status[1 - leader] = Status.WON, Status.LOST

    def forfeit(self, player: int) -> None:
        """`player` missed its deadline: it loses the match at once."""
        if self.over:
            return
        self.status[player], self.status[1 - player] = Status.LOST_BY_TIMEOUT, Status.WON_BY_TIMEOUT
