"""Rich tables for match results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.matches.summary import Blindness, PlayerSummary
from rummy.terminal_text import escape, printable
from strategies.provenance import source_text

COLUMNS = ("player", "won", "win rate", "95% CI", "margin", "ms/move", "faults")


def summary_rows(summaries: Sequence[PlayerSummary]) -> list[tuple[str, ...]]:
    """The standings as shown, one row per player: the terminal table and the viewer use the same cells."""
    rows: list[tuple[str, ...]] = []
    for summary in summaries:
        low, high = summary.ci95
        rows.append(
            (
                summary.name,
                str(summary.wins),
                f"{summary.win_rate:.1%}",
                f"{low:.1%} - {high:.1%}",
                f"{summary.mean_margin:+.1f}",
                f"{summary.ms_per_move:.1f}",
                str(summary.faults),
            )
        )
    return rows


def summary_table(summaries: Sequence[PlayerSummary], rounds: int, dealing: str) -> Table:
    table = Table(title=f"{rounds} rounds, {dealing}")
    # A player's name says its recognizer (perfect@harsh:0.1): on a narrow terminal it folds onto a second line
    # rather than losing its end to an ellipsis.
    for column in COLUMNS:
        table.add_column(column, justify="left" if column == "player" else "right", overflow="fold")
    for row in summary_rows(summaries):
        table.add_row(*map(escape, row))
    return table


def print_faults(console: Console, summaries: Sequence[PlayerSummary]) -> None:
    """Each distinct fault once: its first traceback in full (file and line in the bot's file), then its count."""
    for summary in summaries:
        if not summary.fault_log:
            continue
        distinct = len(summary.fault_log)
        console.print(
            f"[bold red]{escape(summary.name)}: {summary.faults} faults[/] ({distinct} distinct); "
            + arena_judgement(summary),
            highlight=False,
            soft_wrap=True,
        )
        for fault, count in summary.fault_log:
            times = "once" if count == 1 else f"{count} times"
            console.print(f"[red]{escape(fault.summary)}[/] ({times})", highlight=False, soft_wrap=True)
            if fault.traceback:
                console.print(Text(fault.traceback, style="dim"), soft_wrap=True)


def arena_judgement(summary: PlayerSummary) -> str:
    """What became of the faulty moves here, and what the arena would have made of them."""
    if summary.lost_on_time:
        return (
            f"as on the arena (--strict), each was answered INVALID_MOVE or went unsent, and {summary.lost_on_time}"
            " rounds were lost on time (no valid move by the deadline)"
        )
    return (
        "a safe move replaced each. The arena replaces none: it answers INVALID_MOVE (or gets no move) and the"
        f" bot loses the match on time unless a valid move follows by the deadline: {summary.rounds_faulted}"
        " rounds here had such a move (`--strict` plays them as the arena does)"
    )


def print_sources(console: Any, names: Sequence[str], sources: Sequence[dict[str, Any]]) -> None:
    """What played for each name: strategy, objective, budget, table, weights, recognizer (or the bot file)."""
    for name, source in zip(names, sources):
        text = f"bot file {source['bot_file']}" if "bot_file" in source else source_text(source)
        console.print(f"{name}: {text}", soft_wrap=True, highlight=False, markup=False)


# Above this share of unknown cards a strategy that plays by labels is mostly guessing.
BLIND_WARNING_SHARE = 0.02


REASONS_SHOWN = 3  # a blind run's commonest reasons; the JSON output has them all


def blindness_warning(name: str, blindness: Blindness) -> str | None:
    """A warning when a recognizer left a noticeable share of the cards unknown, with the commonest
    reasons it gave (a user's recognizer that names landmarks outside the catalog shows here), else None."""
    share, reasons = blindness.share, blindness.reasons
    if share is None or share <= BLIND_WARNING_SHARE:
        return None
    # A reason may quote what a user's file or a remote service answered: shown, never sent to the terminal.
    why = "; ".join(f"{cards} x {printable(reason[:160])}" for reason, cards in reasons[:REASONS_SHOWN])
    more = f"; and {len(reasons) - REASONS_SHOWN} other reasons" if len(reasons) > REASONS_SHOWN else ""
    return (
        f"{name}: its recognizer left {share:.1%} of the {blindness.cards_seen} cards it saw unknown;"
        " those moves were played without knowing the cards" + (f" (why: {why}{more})" if why else "")
    )


def print_blindness(console: Any, summaries: Sequence[PlayerSummary]) -> None:
    """A warning for each player whose recognizer left a noticeable share of the cards unknown."""
    for summary in summaries:
        warning = blindness_warning(summary.name, summary.blindness)
        if warning:
            console.print(Text(warning, style="yellow"), soft_wrap=True, highlight=False)


def contradiction_warning(name: str, moves: int, note: str) -> str | None:
    """A warning when a player's belief found what its recognizer answered contradicting the game (in `moves` of
    its moves; `note` the belief's first words on it), else None."""
    if not moves:
        return None
    return (
        f"{name}: {_counted(moves, 'move was', 'moves were')} decided on a belief whose evidence contradicted itself"
        f" ({printable(note[:200])}). Its recognizer errs in ways its error model rules out (a"
        " label it states sure is wrong); `rummy-vision measure recognizer-errors` measures how it errs, and"
        " errors:FILE.json:NAME plays it so"
    )


def print_contradictions(console: Any, summaries: Sequence[PlayerSummary]) -> None:
    for summary in summaries:
        warning = contradiction_warning(summary.name, summary.contradicted, summary.contradiction)
        if warning:
            console.print(Text(warning, style="yellow"), soft_wrap=True, highlight=False)


def print_late(console: Any, summaries: Sequence[PlayerSummary], move_time_ms: int | None) -> None:
    """A warning for each player whose moves took longer than the move time: a bot file's were faults already;
    ours were played, which the arena would not have waited for."""
    for summary in summaries:
        if summary.late_moves and move_time_ms:
            text = (
                f"{summary.name}: {_counted(summary.late_moves, 'move', 'moves')} took longer than the move time"
                f" ({move_time_ms} ms;"
                f" the longest {summary.longest_ms:.0f} ms). They were played here, so that seeds replay the same;"
                " online, `play` sends a safe move at the deadline instead"
            )
            console.print(Text(text, style="yellow"), soft_wrap=True, highlight=False)


def _counted(count: int, one: str, more: str) -> str:
    return f"{count} {one if count == 1 else more}"
