"""Analysis positions: a gamestate with the labels of every card in both hands and the deck's make-up.

Format: {"GameState": {...}, "CardLabels": {"<id>": "<landmark>", ...}, "DeckCounts": {"<landmark>": n, ...}};
the optional keys "Comment", "Expected" (a move in the arena's format) and "Objective" are
annotations for curated suites.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummy import DEFAULT_RULES, CountState, Move, MoveKind, RulesConfig, count_rules
from rummy.countstate import card_move, pack, second_mover

REQUIRED = ("GameState", "CardLabels", "DeckCounts")
ANNOTATIONS = ("Comment", "Expected", "Objective")
UNUSED_TYPE = "(no card of this type left) {}"


class PositionError(ValueError):
    """A position file that cannot be analysed; the message says what is wrong."""


@dataclass(frozen=True)
class Position:
    state: CountState  # me (the mover) as player 0
    types: tuple[str, ...]  # type index -> landmark
    my_cards: tuple[tuple[int, int], ...]  # (id, type) in hand order
    opp_cards: tuple[tuple[int, int], ...]
    rules: RulesConfig
    annotations: Mapping[str, Any]

    def card_move(self, move_id: int) -> Move:
        """A card-level move for the count-level move `move_id`."""
        return card_move(self.state.rules, move_id, self.my_cards, self.opp_cards)

    def move_id(self, raw: Mapping[str, Any]) -> int:
        """The count-level move id of an arena move of this position (e.g. a suite's "Expected")."""
        kinds = dict(self.my_cards)
        opp_kinds = dict(self.opp_cards)
        rules = self.state.rules
        try:
            if "Lay" in raw:
                counts = Counter(kinds[card_id] for card_id in raw["Lay"])
                code = pack([counts.get(t, 0) for t in range(rules.n_types)])
                for move in rules.moves:
                    if move.kind == MoveKind.LAY and rules.lay_codes[move.id] == code:
                        return move.id
                return rules.waste_id
            if "Take" in raw:
                return rules.take_ids[opp_kinds[raw["Take"]]]
            if "Give" in raw:
                return rules.give_ids[kinds[raw["Give"]]]
        except (KeyError, TypeError) as error:
            raise PositionError(f"move {raw} names a card not in the right hand: {error}") from None
        raise PositionError(f"not a move: {raw}")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise PositionError(message)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{where} must be an integer, got {value!r}")
    return value


def _cards(gamestate: Mapping[str, Any], key: str) -> list[int]:
    hand = gamestate.get(key)
    if not isinstance(hand, list):
        raise PositionError(f"GameState.{key} must be a list of [id, url] pairs")
    ids = []
    for card in hand:
        _require(isinstance(card, list) and len(card) == 2, f"GameState.{key} entries are [id, url], got {card!r}")
        ids.append(_int(card[0], f"a card id in GameState.{key}"))
    return ids


def _parts(raw: Any) -> tuple[Any, Any, Any]:
    """The position's GameState, CardLabels and DeckCounts, its keys and their shapes checked."""
    _require(isinstance(raw, dict), f"a position is a JSON object with keys {', '.join(REQUIRED)}")
    missing = [key for key in REQUIRED if key not in raw]
    _require(not missing, f"the position lacks {', '.join(missing)}")
    unknown = sorted(set(raw) - set(REQUIRED) - set(ANNOTATIONS))
    _require(not unknown, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(REQUIRED + ANNOTATIONS)}")
    gamestate, labels, deck_counts = raw["GameState"], raw["CardLabels"], raw["DeckCounts"]
    _require(isinstance(gamestate, dict), "GameState must be an object")
    _require(isinstance(labels, dict), 'CardLabels must be an object {"<id>": "<landmark>"}')
    _require(isinstance(deck_counts, dict), 'DeckCounts must be an object {"<landmark>": count}')
    _require(gamestate.get("IsMover") is True, "GameState.IsMover must be true: analysis is for the player to move")
    return gamestate, labels, deck_counts


def parse_position(raw: Any, rules: RulesConfig = DEFAULT_RULES) -> Position:
    gamestate, labels, deck_counts = _parts(raw)
    catalog = gamestate.get("AllCardTypes") or list(rules.catalog)
    my_ids, opp_ids = _cards(gamestate, "MyHand"), _cards(gamestate, "OppHand")
    _require(bool(my_ids) and bool(opp_ids), "both hands must hold cards (an empty hand ends the round)")
    _require(len(set(my_ids + opp_ids)) == len(my_ids) + len(opp_ids), "a card id appears twice in the hands")
    landmark_of: dict[int, str] = {}
    for card_id in my_ids + opp_ids:
        label = labels.get(str(card_id))
        _require(isinstance(label, str), f"CardLabels has no landmark for card {card_id}")
        _require(label in catalog, f"card {card_id} is labelled {label!r}, which is not in AllCardTypes")
        landmark_of[card_id] = label
    for name, count in deck_counts.items():
        _require(name in catalog, f"DeckCounts names {name!r}, which is not in AllCardTypes")
        _require(_int(count, f"DeckCounts[{name!r}]") >= 0, f"DeckCounts[{name!r}] is negative")
    in_play = sorted(set(landmark_of.values()) | {name for name, count in deck_counts.items() if count})
    _require(
        len(in_play) <= rules.types_per_round,
        f"{len(in_play)} landmarks are in play ({', '.join(in_play)}) but a round uses {rules.types_per_round}",
    )
    types = tuple(in_play) + tuple(UNUSED_TYPE.format(i + 1) for i in range(rules.types_per_round - len(in_play)))
    index = {name: t for t, name in enumerate(types)}
    totals = Counter(landmark_of.values())
    totals.update({name: count for name, count in deck_counts.items()})
    over = [name for name, count in totals.items() if count > rules.cards_per_type]
    _require(not over, f"more than {rules.cards_per_type} cards of {', '.join(over)} in hands and deck")
    in_deck = sum(deck_counts.values())
    cards_in_deck = _int(gamestate.get("CardsInDeck"), "GameState.CardsInDeck")
    remaining = _int(gamestate.get("RemainingMoves"), "GameState.RemainingMoves")
    _require(in_deck == cards_in_deck, f"DeckCounts add up to {in_deck} but GameState.CardsInDeck is {cards_in_deck}")
    _require(
        1 <= remaining <= rules.max_turns and remaining == cards_in_deck,
        f"RemainingMoves ({remaining}) must be 1..{rules.max_turns} and equal CardsInDeck ({cards_in_deck})",
    )
    my_points = _int(gamestate.get("MyPoints"), "GameState.MyPoints")
    opp_points = _int(gamestate.get("OppPoints"), "GameState.OppPoints")
    my_cards = tuple((card_id, index[landmark_of[card_id]]) for card_id in my_ids)
    opp_cards = tuple((card_id, index[landmark_of[card_id]]) for card_id in opp_ids)

    def counts(cards: tuple[tuple[int, int], ...]) -> list[int]:
        found = [0] * rules.types_per_round
        for _card_id, t in cards:
            found[t] += 1
        return found

    deck = [deck_counts.get(name, 0) for name in types]
    state = CountState(
        count_rules(rules),
        (pack(counts(my_cards)), pack(counts(opp_cards))),
        pack(deck),
        points=(my_points, opp_points),
        turns_left=remaining,
        mover=0,
        second=second_mover(rules.max_turns - remaining, mover=0),
    )
    annotations = {key: raw[key] for key in ANNOTATIONS if key in raw}
    return Position(state, types, my_cards, opp_cards, rules, annotations)
