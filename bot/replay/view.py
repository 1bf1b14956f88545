"""Replay steps as Rich renderables for the terminal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bot.replay.replays import Replay, Step
from rummy.terminal_text import escape, printable


def describe_move(move: Mapping[str, Any] | None, labels: Mapping[int, str]) -> str:
    if not move:
        return ""
    if len(move) != 1:
        return str(dict(move))
    ((kind, value),) = move.items()
    if kind == "Lay" and value == []:
        return "an invalid set (which cards, the gamestate does not say)"
    if kind == "Lay" and isinstance(value, list):
        return "Lay " + ", ".join(labels.get(card_id, f"#{card_id}") for card_id in value)
    if kind in ("Take", "Give") and isinstance(value, int):
        return f"{kind} {labels.get(value, f'#{value}')}"
    return str(dict(move))


def describe_hand(hand: list[list[Any]], labels: Mapping[int, str]) -> str:
    if not labels:
        return f"{len(hand)} cards: " + ", ".join(f"#{card_id}" for card_id, _url in hand)
    counts = Counter(labels.get(card_id, "?") for card_id, _url in hand)
    return f"{len(hand)} cards: " + ", ".join(f"{name} x{count}" for name, count in sorted(counts.items()))


def render_step(replay: Replay, step: Step) -> Panel:
    view = next((view for view in step.views if view is not None), None)
    seat_of_view = 0 if step.views[0] is not None else 1
    heading = Text(f"step {step.number}/{replay.steps[-1].number}  round {step.round_index + 1}  ", style="bold")
    if step.mover is None:
        heading.append(printable(step.result.lower() if step.result else ""))
    else:
        played = describe_move(step.move, step.labels_of_move)
        heading.append(printable(f"{replay.players[step.mover]} played {played}"))
        if step.note:
            heading.append(printable(f"  [{step.note}]"), style="green" if step.note.startswith("+") else "yellow")
        if step.drawn is not None:
            heading.append(printable(f"  drew {step.labels_of_move.get(step.drawn, f'#{step.drawn}')}"), style="cyan")
        if step.result and step.result != "SUCCESS":
            heading.append(printable(f"  {step.result}"), style="red")
    table = Table(show_header=True, box=None, pad_edge=False)
    for column in ("player", "points", "rounds", "hand"):
        table.add_column(column)
    if view is not None:
        me, opponent = replay.players[seat_of_view], replay.players[1 - seat_of_view]
        table.add_row(
            escape(me), str(view["MyPoints"]), str(view["MyScore"]), escape(describe_hand(view["MyHand"], step.labels))
        )
        table.add_row(
            escape(opponent),
            str(view["OppPoints"]),
            str(view["OppScore"]),
            escape(describe_hand(view["OppHand"], step.labels)),
        )
        footer = Text(
            printable(
                f"deck {view['CardsInDeck']} cards, {view['RemainingMoves']} moves left, status {view['GameStatus']}"
            )
        )
    else:
        footer = Text("no gamestate recorded")
    parts: list[Any] = [heading, table, footer]
    if step.log:
        mover = replay.players[step.mover] if step.mover is not None else "the bot"
        parts.append(Text(f"{escape(mover)}'s log for this move:", style="bold"))
        parts.append(Text(step.log.rstrip("\n"), style="dim"))
    return Panel(Group(*parts), title=escape(replay.title), expand=False)
