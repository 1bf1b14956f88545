"""What `play` shows: a Rich live status line and a summary table, or JSON Lines for scripts, or nothing."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from bot.client.runner import MatchSummary, SilentObserver
from bot.matches.summary import Blindness, reason_counts
from rummy.config import DEFAULT_RULES
from rummy.terminal_text import escape, printable

WINS = ("WON", "WON_BY_TIMEOUT")
LOSSES = ("LOST", "LOST_BY_TIMEOUT")


def tally(summaries: Sequence[MatchSummary]) -> dict[str, int]:
    statuses = Counter(summary.status for summary in summaries)
    return {
        "matches": len(summaries),
        "won": sum(statuses[status] for status in WINS),
        "lost": sum(statuses[status] for status in LOSSES),
        "drawn": statuses["DRAWN"],
        "aborted": statuses["ABORTED"],
        "fallbacks": sum(summary.fallbacks for summary in summaries),
        "faults": sum(summary.faults for summary in summaries),
        "cards_seen": sum(summary.cards_seen for summary in summaries),
        "cards_unknown": sum(summary.cards_unknown for summary in summaries),
    }


def blindness(summaries: Sequence[MatchSummary]) -> Blindness:
    """What our recognizer left unknown over the run, and why; nothing seen for a bot file."""
    return Blindness(
        cards_seen=sum(summary.cards_seen for summary in summaries),
        cards_unknown=sum(summary.cards_unknown for summary in summaries),
        reasons=reason_counts(summary.unknown_reasons.items() for summary in summaries),
    )


def share_text(share: float | None) -> str:
    return "-" if share is None else f"{share:.1%}"


class LiveStatus:
    """One status line kept up to date while matches run (match, opponent, round, turn, points)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = Live(Text("starting"), console=console, refresh_per_second=8, transient=True)
        self.games_done = 0
        self.last_move = ""

    def __enter__(self) -> LiveStatus:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(None, None, None)

    def waiting(self, games_done: int) -> None:
        self.games_done = games_done
        self.live.update(Text(f"match {games_done + 1}: waiting for an opponent...", style="yellow"))

    def gamestate(self, gamestate: dict[str, Any]) -> None:
        turns = DEFAULT_RULES.max_turns
        turn = min(turns, turns + 1 - int(gamestate.get("RemainingMoves") or 0))
        line = Text.assemble(
            (f"match {self.games_done + 1} ", "bold"),
            printable(
                f"game {gamestate.get('GameId')} vs {gamestate.get('OpponentId')} | "
                f"rounds won {gamestate.get('MyScore')}-{gamestate.get('OppScore')}, "
                f"{gamestate.get('RemainingRounds')} to play | "
                f"turn {turn} | points {gamestate.get('MyPoints')}-{gamestate.get('OppPoints')} | "
            ),
            ("my move" if gamestate.get("IsMover") else "their move", "cyan"),
            printable(f" {self.last_move}"),
        )
        self.live.update(line)

    def moved(self, move: dict[str, Any], source: str, reason: str, result: str) -> None:
        flag = " (fallback)" if source == "fallback" else ""
        self.last_move = f"| sent {json.dumps(move)}{flag}: {result}"

    def match_ended(self, summary: MatchSummary) -> None:
        self.games_done += 1
        self.console.print(
            f"match {self.games_done}: game {summary.game_id} vs {escape(summary.opponent_id)}: "
            f"[bold]{summary.status}[/] "
            f"{summary.my_score}-{summary.opp_score} ({summary.moves} moves, {summary.fallbacks} fallbacks)"
        )


def summary_table(summaries: Sequence[MatchSummary]) -> Table:
    table = Table(title="Matches played")
    # Replay paths are printed whole below the table (replay_lines): a table column would cut them short.
    # "unknown": the share of the cards our recognizer left unknown ("-" for a bot file, which labels its own).
    for column in ("#", "game", "opponent", "result", "rounds", "moves", "fallbacks", "unknown", "seconds"):
        table.add_column(column)
    for index, summary in enumerate(summaries, start=1):
        table.add_row(
            str(index),
            str(summary.game_id),
            escape(summary.opponent_id),
            escape(summary.status + (f" ({summary.error})" if summary.error else "")),
            f"{summary.my_score}-{summary.opp_score}",
            str(summary.moves),
            str(summary.fallbacks),
            share_text(summary.unknown_share),
            f"{summary.duration_s:.1f}",
        )
    totals = tally(summaries)
    share = blindness(summaries).share
    unknown = "" if share is None else f"; recognizer left {share:.1%} of {totals['cards_seen']} cards unknown"
    table.caption = (
        f"won {totals['won']}, lost {totals['lost']}, drawn {totals['drawn']}, aborted {totals['aborted']}; "
        f"{totals['fallbacks']} fallback moves{unknown}"
    )
    return table


def arena_judgement(summaries: Sequence[MatchSummary], *, strict: bool) -> str | None:
    """How the arena judges the bot's faulty moves (None when there were none)."""
    faulted = [summary for summary in summaries if summary.faults]
    if not faulted:
        return None
    faults = sum(summary.faults for summary in faulted)
    if strict:
        on_time = sum(1 for summary in faulted if summary.status == "LOST_BY_TIMEOUT")
        return (
            f"--strict: {faults} faulty moves, played as the arena plays them (INVALID_MOVE, or nothing sent);"
            f" {on_time} of {len(summaries)} matches lost on time"
        )
    return (
        f"{faults} faulty moves were replaced by safe ones in {len(faulted)} of {len(summaries)} matches. The arena"
        " replaces none: it answers INVALID_MOVE (or gets no move), and a bot with no valid move by the deadline"
        " loses the match on time; online those matches would have been lost (`--strict` plays them so)"
    )


def replay_lines(summaries: Sequence[MatchSummary]) -> list[str]:
    """One line per recorded match: its number and the whole path of its replay file."""
    return [f"replay of #{index}: {s.record_path}" for index, s in enumerate(summaries, start=1) if s.record_path]


class JsonLines(SilentObserver):
    """One JSON object per finished match on stdout, then a summary object."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def match_ended(self, summary: MatchSummary) -> None:
        self._emit({"event": "match", **summary.to_json()})

    def summary(self, summaries: Sequence[MatchSummary], faults: Sequence[dict[str, Any]] = ()) -> None:
        """The run's totals, with each distinct fault of the bot (`key`, `reason`, `count`, `traceback`)."""
        unknown = blindness(summaries).to_json()
        self._emit({"event": "summary", **tally(summaries), **unknown, "fault_reasons": list(faults)})

    def _emit(self, record: dict[str, Any]) -> None:
        self.stream.write(json.dumps(record) + "\n")
        self.stream.flush()
