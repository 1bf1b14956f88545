"""The opponent's move between two of our views, read from the gamestates as certain facts.

A bot only sees the gamestates where it moves. Between two of them it made one move and drew, then the
opponent made one move and drew. From the two views and our own move, the cards say what the opponent
saw when it chose (both hands, what was already out of the deck, the points, the turns left) and what
it did (the card it took or gave, the cards it laid, or a Lay the referee refused). Types are not part
of this: which landmark each card was is for the belief; a strategy can then ask, for each way the cards
could be, how likely a good player was to choose that move (strategies.opponent_model).

One case is ambiguous: when the opponent took the card we had just drawn, both new cards are in its
hand and either could be the one it took. Both readings are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rummy.moves import Give, Lay, Move, Take


class SeenKind(StrEnum):
    TAKE = "take"
    GIVE = "give"
    LAY = "lay"  # accepted: the cards left the game
    REFUSED = "refused"  # a Lay the referee judged no set: a wasted turn, its cards unknown


@dataclass(frozen=True)
class OpponentDecision:
    """What the opponent saw when it moved and what it did, by card id (one reading of the views)."""

    my_ids: tuple[int, ...]  # our hand then
    opp_ids: tuple[int, ...]  # its hand then
    out: tuple[int, ...]  # every card out of the deck then: both hands and everything laid (unseen: negative)
    points: tuple[int, int]  # set points (ours, its) before its move
    turns_left: int  # including its move
    kind: SeenKind
    cards: tuple[int, ...]  # the card taken or given, or the cards laid; () for a refused Lay


def _ids(hand: Sequence[Sequence[Any]]) -> set[int]:
    return {card[0] for card in hand}


def read_opponent_move(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    ours: Move,
    laid_before: set[int],
    set_points: Callable[[Mapping[str, Any], str, str], int],
) -> tuple[OpponentDecision, ...]:
    """The readings of the opponent's move between our view `before` (where we played `ours`) and our next
    view `after`, each with what it saw; () when the views do not show exactly one move of each (a view
    missed, the round over) or do not fit together. `laid_before`: every card out of play at `before`,
    unseen laid ones as negative ids. `set_points(view, points_key, hand_key)`: a view's set points."""
    if after["RemainingMoves"] != before["RemainingMoves"] - 2:
        return ()
    mine, theirs = _ids(before["MyHand"]), _ids(before["OppHand"])
    my_now, their_now = _ids(after["MyHand"]), _ids(after["OppHand"])
    laid = set(laid_before)
    if isinstance(ours, Take) and ours.id in theirs:
        mine, theirs = mine | {ours.id}, theirs - {ours.id}
    elif isinstance(ours, Give) and ours.id in mine:
        mine, theirs = mine - {ours.id}, theirs | {ours.id}
    elif isinstance(ours, Lay) and set(ours.ids) <= mine and not set(ours.ids) & (my_now | their_now):
        mine, laid = mine - set(ours.ids), laid | set(ours.ids)
    if not mine or not theirs:
        return ()  # the round ended with our move
    new = (my_now | their_now) - mine - theirs - laid
    drawn_by_us = new & my_now
    if len(drawn_by_us) == 1:
        candidates = list(drawn_by_us)
    elif not drawn_by_us and len(new & their_now) == 2:
        candidates = sorted(new & their_now)  # it took the card we drew: either new card could be that one
    else:
        return ()
    points = (set_points(after, "MyPoints", "MyHand"), set_points(before, "OppPoints", "OppHand"))
    gained = set_points(after, "OppPoints", "OppHand") - points[1]
    readings = []
    for drawn in candidates:
        my_then = mine | {drawn}
        reading = _what_it_did(my_then, theirs, my_now, their_now, new - {drawn}, gained)
        if reading is None:
            continue
        kind, cards = reading
        readings.append(
            OpponentDecision(
                tuple(sorted(my_then)),
                tuple(sorted(theirs)),
                tuple(sorted(my_then | theirs | laid)),
                points,
                before["RemainingMoves"] - 1,
                kind,
                cards,
            )
        )
    return tuple(readings)


def _what_it_did(
    my_then: set[int], theirs: set[int], my_now: set[int], their_now: set[int], its_draw: set[int], gained: int
) -> tuple[SeenKind, tuple[int, ...]] | None:
    taken = my_then & their_now
    given = theirs & my_now
    gone = theirs - my_now - their_now
    if len(its_draw) > 1 or my_now - my_then - given or their_now - theirs - taken - its_draw:
        return None  # cards that no single move explains
    if taken and not given and not gone and len(taken) == 1 and my_now == my_then - taken:
        return SeenKind.TAKE, tuple(taken)
    if given and not taken and not gone and len(given) == 1:
        return SeenKind.GIVE, tuple(given)
    if gone and not taken and not given and gained > 0:
        return SeenKind.LAY, tuple(sorted(gone))
    if not taken and not given and not gone and gained == 0:
        return SeenKind.REFUSED, ()
    return None
