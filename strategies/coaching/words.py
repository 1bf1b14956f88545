"""Why a move is good, in words: the set it lays, the -3 a card costs at the round's end, and what a
Take or a Give does to both hands."""

from __future__ import annotations

from rummy import MoveKind
from strategies.agent import describe_count_move
from strategies.position import Position


def _set_within_reach(count: int, rules_points: dict[int, int]) -> str:
    words = {3: "three", 4: "four", 5: "five"}
    if count >= 5:
        return f"five alike, a set worth {rules_points[5]}"
    if count in rules_points:
        return f"{words[count]} alike, a set worth {rules_points[count]}"
    if count == 2:
        return "two alike, one short of a set of three"
    return ""


def explain_move(position: Position, move_id: int, comparison: str = "") -> str:
    """A few sentences on what `move_id` does in `position` (the mover is player 0)."""
    state = position.state
    rules = position.rules
    move = state.rules.moves[move_id]
    names = position.types
    mine, theirs, deck = state.counts(0), state.counts(1), state.deck_counts()
    penalty = rules.hand_penalty
    alike = dict(rules.same_kind_points)
    label = describe_count_move(move, names)
    if move.kind == MoveKind.LAY:
        size = sum(move.counts)
        kind = "alike" if len([c for c in move.counts if c]) == 1 else "all different"
        left = sum(mine) - size
        text = (
            f"{label}: {size} cards {kind} score {move.points} now, and those {size} cards leave your hand, "
            f"so they can no longer cost you -{penalty} each at the round's end ({penalty * size} points of "
            f"exposure gone; {left} cards would still count against you)."
        )
        if left == 0:
            text += " Your hand is empty after it, which ends the round at once."
    elif move.kind == MoveKind.TAKE:
        t = move.type
        name = names[t]
        after = mine[t] + 1
        reach = _set_within_reach(after, alike)
        text = f"Take {name}: you would hold {after} {name}" + (f" ({reach})" if reach else "") + "."
        if theirs[t] >= 3 > theirs[t] - 1:
            text += f" It breaks their {theirs[t]} {name}, a set they could have laid."
        elif theirs[t] - 1 > 0:
            text += f" They keep {theirs[t] - 1} {name}."
        text += (
            f" Your hand grows by a card (another -{penalty} if it is still there at the end) and theirs "
            f"shrinks by one; after the move you draw, and the deck still holds {deck[t]} {name}."
        )
    elif move.kind == MoveKind.GIVE:
        t = move.type
        name = names[t]
        text = (
            f"Give {name}: one card less in your hand cuts your exposure by {penalty} points, and it is a card "
            f"you have little use for (you hold {mine[t]} {name})."
        )
        if theirs[t] + 1 >= 3:
            text += f" Careful: they would hold {theirs[t] + 1} {name}, enough for a set."
        else:
            text += f" They would hold {theirs[t] + 1} {name}, still short of a set of three alike."
    else:
        text = (
            "Pass with a Lay that is no set: the hands stay as they are and only the draw changes them; "
            "every Take, Give or set makes things worse here."
        )
    return f"{text} {comparison}".strip()
