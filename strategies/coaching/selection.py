"""Turn a person's selection of cards and a button (Lay, Take, Give) into a move, or say why it is none.

Nothing here talks to a referee: the page and the terminal check a selection first and send only
what passes. A Lay of 3-5 own cards that forms no set is a legal move (a wasted turn), so it passes
only when the player confirms it as a deliberate pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummy import DEFAULT_RULES, RulesConfig

ACTIONS = ("lay", "take", "give")


@dataclass(frozen=True)
class HandCard:
    id: int
    landmark: str | None  # None when the name is not known


@dataclass(frozen=True)
class Verdict:
    move: dict[str, Any] | None  # the arena move to send; None when the selection is no move
    message: str  # what the move does, or why the selection is not a move
    points: int = 0
    needs_confirm: bool = False  # a Lay that is no set: sent only as a deliberate pass

    @property
    def ok(self) -> bool:
        return self.move is not None and not self.needs_confirm

    def to_json(self) -> dict[str, Any]:
        return {
            "Ok": self.ok,
            "Move": self.move,
            "Message": self.message,
            "Points": self.points,
            "NeedsConfirm": self.needs_confirm,
        }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe_cards(landmarks: Sequence[str | None]) -> str:
    """E.g. "2 big ben and 1 giralda"."""
    counts = Counter(name or "unknown card" for name in landmarks)
    parts = [f"{count} {name}" for name, count in counts.most_common()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def set_name(counts: Sequence[int]) -> str:
    size = sum(counts)
    words = {3: "three", 4: "four", 5: "five"}.get(size, str(size))
    return f"{words} alike" if len([c for c in counts if c]) == 1 else f"{words} different"


def check_selection(
    action: str,
    mine: Sequence[int],
    theirs: Sequence[int],
    my_hand: Sequence[HandCard],
    opp_hand: Sequence[HandCard],
    *,
    confirm_pass: bool = False,
    rules: RulesConfig = DEFAULT_RULES,
) -> Verdict:
    """The move that `action` on the selected cards (`mine` from my hand, `theirs` from the opponent's) makes."""
    action = action.strip().lower()
    if action not in ACTIONS:
        return Verdict(None, f"{action!r} is not a move: choose Lay, Take or Give")
    my_cards = {card.id: card for card in my_hand}
    opp_cards = {card.id: card for card in opp_hand}
    strangers = [card_id for card_id in [*mine, *theirs] if card_id not in my_cards and card_id not in opp_cards]
    if strangers:
        return Verdict(None, f"card(s) {strangers} are in neither hand any more: select again")
    if len(set(mine)) != len(mine) or len(set(theirs)) != len(theirs):
        return Verdict(None, "a card is selected twice")
    wrong_side = [card_id for card_id in mine if card_id not in my_cards] + [
        card_id for card_id in theirs if card_id not in opp_cards
    ]
    if wrong_side:
        return Verdict(None, f"card(s) {wrong_side} are not on the side they were selected from")
    if action == "lay":
        return _check_lay(mine, theirs, my_cards, confirm_pass, rules)
    if action == "take":
        if mine:
            return Verdict(None, "Take moves one of the opponent's cards to you: unselect your own card(s)")
        if len(theirs) != 1:
            return Verdict(None, f"Take needs exactly one of the opponent's cards; you selected {len(theirs)}")
        card = opp_cards[theirs[0]]
        return Verdict({"Take": card.id}, f"Take {card.landmark or 'card ' + str(card.id)} from the opponent")
    if theirs:
        return Verdict(None, "Give hands one of your own cards to the opponent: unselect the opponent's card(s)")
    if len(mine) != 1:
        return Verdict(None, f"Give needs exactly one of your cards; you selected {len(mine)}")
    card = my_cards[mine[0]]
    return Verdict({"Give": card.id}, f"Give {card.landmark or 'card ' + str(card.id)} to the opponent")


def _check_lay(
    mine: Sequence[int], theirs: Sequence[int], my_cards: dict[int, HandCard], confirm_pass: bool, rules: RulesConfig
) -> Verdict:
    if theirs:
        return Verdict(None, "you can only lay cards from your own hand: unselect the opponent's card(s)")
    if not rules.min_lay <= len(mine) <= rules.max_lay:
        return Verdict(None, f"a Lay needs {rules.min_lay} to {rules.max_lay} of your cards; you selected {len(mine)}")
    landmarks = [my_cards[card_id].landmark for card_id in mine]
    move = {"Lay": list(mine)}
    if any(name is None for name in landmarks):
        return Verdict(move, "some of these cards have no known name: if they form no set, the turn is wasted", 0, True)
    counts = tuple(Counter(landmarks).values())
    points = rules.set_points(counts)
    if points:
        return Verdict(move, f"Lay {describe_cards(landmarks)}: {set_name(counts)}, +{points}", points)
    why = (
        f"{describe_cards(landmarks)} are neither all alike nor all different"
        if len(counts) > 1
        else f"{_plural(len(mine), 'card')} alike score only as 3, 4 or 5"
    )
    if len(mine) == 5 and len(counts) == 5:
        why = "five different cards are no set (only 3 or 4 different score)"
    warning = f"no set: {why}. Laying them scores nothing and ends your turn (a deliberate pass)"
    return Verdict(move, warning, 0, needs_confirm=not confirm_pass)
