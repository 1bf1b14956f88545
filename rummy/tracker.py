"""Reconstruct what a bot cannot see directly: the laid cards, the round's four types and the deck.

A bot feeds `observe` every gamestate it receives with the labels it has for the cards (from a
recognizer). Every card shows in some hand before it can be laid, so a card that disappears from
both hands was laid, and the deck holds, per type, the cards of that type not yet seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.countstate import CountState, card_move, count_rules, pack, second_mover
from rummy.moves import Move

PLACEHOLDER = "unseen type {}"


class Tracker:
    def __init__(self, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.rules = rules
        self.rounds_seen = 0
        self._reset()

    def _reset(self) -> None:
        self.labels: dict[int, str | None] = {}  # every card seen this round
        self.laid: set[int] = set()
        self.unseen_laid = 0  # cards laid before this bot ever saw them
        self._score_sum = -1
        self._remaining_moves = -1
        self._last: dict[str, Any] | None = None

    # --- feeding ------------------------------------------------------------------------------

    def observe(self, gamestate: Mapping[str, Any], labels: Mapping[int, str | None]) -> None:
        score_sum = gamestate["MyScore"] + gamestate["OppScore"]
        running = gamestate["GameStatus"] == "RUNNING"
        in_hands = [card[0] for card in gamestate["MyHand"]] + [card[0] for card in gamestate["OppHand"]]
        new_round = self._last is None or (
            running and (score_sum > self._score_sum or gamestate["RemainingMoves"] > self._remaining_moves)
        )
        if new_round:
            self._reset()
            self.rounds_seen += 1
        self._score_sum = score_sum
        self._remaining_moves = gamestate["RemainingMoves"]
        now = set(in_hands)
        # Cards never return to a hand once laid, so a card seen before and in no hand now was laid.
        self.laid = set(self.labels) - now
        for card_id in in_hands:
            label = labels.get(card_id)
            if label is not None or card_id not in self.labels:
                self.labels[card_id] = label
        self.unseen_laid = self.rules.total_cards - len(now) - gamestate["CardsInDeck"] - len(self.laid)
        self._last = dict(gamestate)

    # --- what is known ------------------------------------------------------------------------

    def types_in_use(self) -> tuple[str, ...]:
        """The round's types: the labels seen, most frequent first when noise shows more than fit."""
        counts = Counter(label for label in self.labels.values() if label is not None)
        ranked = sorted(counts, key=lambda label: (-counts[label], label))[: self.rules.types_per_round]
        known = sorted(ranked)
        missing = self.rules.types_per_round - len(known)
        return tuple(known) + tuple(PLACEHOLDER.format(index + 1) for index in range(missing))

    def card_types(self) -> dict[int, int]:
        """Type index of every card seen this round; unlabelled cards go where most cards are missing."""
        types = self.types_in_use()
        index = {name: position for position, name in enumerate(types)}
        assigned: dict[int, int] = {}
        unknown: list[int] = []
        for card_id, label in self.labels.items():
            if label in index:
                assigned[card_id] = index[label]
            else:
                unknown.append(card_id)
        room = [self.rules.cards_per_type] * len(types)
        for t in assigned.values():
            room[t] -= 1
        for card_id in sorted(unknown):
            t = max(range(len(types)), key=lambda position: room[position])
            assigned[card_id] = t
            room[t] -= 1
        return assigned

    def deck_counts(self) -> dict[str, int]:
        """The deck's composition by type; exact when every card was seen with a true label."""
        types = self.types_in_use()
        room = [self.rules.cards_per_type] * len(types)
        for t in self.card_types().values():
            room[t] -= 1
        for _ in range(max(0, self.unseen_laid)):
            t = max(range(len(types)), key=lambda position: room[position])
            room[t] -= 1
        deck_size = self._last["CardsInDeck"] if self._last else self.rules.deck_size
        _fit(room, deck_size, self.rules.cards_per_type)
        return dict(zip(types, room))

    def count_state(self) -> CountState:
        """The last gamestate at count level, me as player 0, type order as in `types_in_use`."""
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        state = self._last
        n = self.rules.types_per_round
        types = self.card_types()
        mine, theirs = [0] * n, [0] * n
        for card_id, _url in state["MyHand"]:
            mine[types[card_id]] += 1
        for card_id, _url in state["OppHand"]:
            theirs[types[card_id]] += 1
        deck = list(self.deck_counts().values())
        turns_taken = self.rules.max_turns - state["RemainingMoves"]
        mover = 0 if state["IsMover"] else 1
        return CountState(
            count_rules(self.rules),
            (pack(mine), pack(theirs)),
            pack(deck),
            points=(state["MyPoints"], state["OppPoints"]),
            turns_left=state["RemainingMoves"],
            mover=mover,
            second=second_mover(turns_taken, mover),
        )

    def card_move(self, move_id: int, confidence: Mapping[int, float] | None = None) -> Move:
        """A card-level move for the count-level move `move_id` of the last gamestate's mover (me).

        Where a type has several cards, the most confidently labelled are laid and the least
        confidently labelled are given away.
        """
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        types = self.card_types()
        my_cards = [(card[0], types[card[0]]) for card in self._last["MyHand"]]
        opp_cards = [(card[0], types[card[0]]) for card in self._last["OppHand"]]
        return card_move(count_rules(self.rules), move_id, my_cards, opp_cards, confidence)


def _fit(room: list[int], total: int, cap: int) -> None:
    """Clamp per-type counts to 0..cap and make them sum to `total` (noisy labels can break both)."""
    for t, count in enumerate(room):
        room[t] = min(cap, max(0, count))
    while sum(room) > total:
        room[room.index(max(room))] -= 1
    while sum(room) < total:
        open_types = [t for t in range(len(room)) if room[t] < cap]
        if not open_types:
            break
        room[min(open_types, key=lambda t: room[t])] += 1
