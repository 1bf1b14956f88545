"""A match's statistics from its rounds: what `rummy-vision match` prints and returns as JSON."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.matches.local_match import RoundResult
from bot.players.faults import Fault, FaultLog
from rummy.stats import wilson_interval

# What differs between cards within one kind of reason: a quoted name, an address, a number.
_PARTICULAR = re.compile(r"'[^']*'|\"[^\"]*\"|\bhttps?://\S+|\d+(?:\.\d+)?")


def reason_counts(by_round: Iterable[Iterable[tuple[str, int]]]) -> tuple[tuple[str, int], ...]:
    """Each round's (reason, cards) pairs added up by kind of reason, the commonest first.

    Reasons name the card ("recognizer named 'giralda tower', which is not in AllCardTypes"), so one kind
    is written with its particulars as "..." and its first instance as an example: a line a user can read.
    """
    total: Counter[str] = Counter()
    example: dict[str, str] = {}
    for pairs in by_round:
        for reason, cards in pairs:
            kind = _PARTICULAR.sub("...", reason)
            total[kind] += cards
            example.setdefault(kind, reason)
    return tuple((_reason_text(kind, example[kind], count), count) for kind, count in total.most_common())


def _reason_text(kind: str, example: str, count: int) -> str:
    if example == kind or count == 1:
        return example
    return f"{kind} (e.g. {', '.join(_PARTICULAR.findall(example))})"


@dataclass(frozen=True)
class Blindness:
    """What one player's recognizer left unknown over a set of rounds, and why."""

    cards_seen: int = 0  # cards our strategy's recognizer was asked about (0 for a bot file)
    cards_unknown: int = 0  # of those, the ones it left unknown
    reasons: tuple[tuple[str, int], ...] = ()  # why: each reason with its count of cards, commonest first

    @property
    def share(self) -> float | None:
        return self.cards_unknown / self.cards_seen if self.cards_seen else None

    def to_json(self) -> dict[str, Any]:
        share = self.share
        return {
            "cards_seen": self.cards_seen,
            "unknown_share": None if share is None else round(share, 4),
            "unknown_reasons": [{"reason": reason, "cards": cards} for reason, cards in self.reasons],
        }


def seat_blindness(played: Sequence[tuple[RoundResult, int]]) -> Blindness:
    """One player's Blindness over the rounds it played, each given with the seat it sat in."""
    return Blindness(
        cards_seen=sum(result.unknown_cards[seat][1] for result, seat in played),
        cards_unknown=sum(result.unknown_cards[seat][0] for result, seat in played),
        reasons=reason_counts(result.unknown_reasons[seat] for result, seat in played),
    )


def played_by_name(results: Iterable[RoundResult]) -> dict[str, list[tuple[RoundResult, int]]]:
    """Each player's rounds, with the seat it sat in, by the name it played under (a tournament's rounds)."""
    played: dict[str, list[tuple[RoundResult, int]]] = {}
    for result in results:
        for seat, name in enumerate(result.players):
            played.setdefault(name, []).append((result, seat))
    return played


def blindness_by_name(results: Iterable[RoundResult]) -> dict[str, Blindness]:
    """Each player's Blindness over `results`, by the name it played under (a tournament's rounds)."""
    return {name: seat_blindness(rounds) for name, rounds in played_by_name(results).items()}


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_margin: float
    ms_per_move: float
    faults: int
    fault_log: tuple[tuple[Fault, int], ...] = ()  # each distinct fault once, with its count
    blindness: Blindness = Blindness()  # what our strategy's recognizer left unknown, and why (none for a bot file)
    rounds_faulted: int = 0  # rounds with a fault: online each would have had an INVALID_MOVE or a missed move
    lost_on_time: int = 0  # --strict: rounds lost for no valid move by the deadline
    # Moves that took longer than the move time (counted only when the match had one). Our strategies play in
    # process, unstopped, so that seeds replay the same; online, `play` would have sent a safe move instead.
    late_moves: int = 0
    longest_ms: float = 0.0
    # Moves decided on a belief whose evidence contradicted itself (a label stated sure, against the deal or a set
    # the referee judged): the recognizer errs more than its error model says. The first such note, in words.
    contradicted: int = 0
    contradiction: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)],
            "mean_margin": round(self.mean_margin, 3),
            "ms_per_move": round(self.ms_per_move, 3),
            "faults": self.faults,
            "fault_reasons": [{**fault.to_json(), "count": count} for fault, count in self.fault_log],
            **self.blindness.to_json(),
            "rounds_faulted": self.rounds_faulted,
            "lost_on_time": self.lost_on_time,
            "late_moves": self.late_moves,
            "contradicted_moves": self.contradicted,
        }


def summarize(
    names: tuple[str, str], results: Sequence[tuple[RoundResult, int]], move_time_ms: int | None = None
) -> list[PlayerSummary]:
    """`results` pairs each round with the seat the first contender sat in; with `move_time_ms`, moves that took
    longer are counted (`late_moves`)."""
    rounds = len(results)
    summaries = []
    for index, name in enumerate(names):
        seats = [seat_of_a if index == 0 else 1 - seat_of_a for _result, seat_of_a in results]
        wins = sum(1 for (result, _), seat in zip(results, seats) if result.winner == seat)
        margins = [result.margin(seat) for (result, _), seat in zip(results, seats)]
        times = [ms for (result, _), seat in zip(results, seats) for ms in result.think_ms(seat)]
        summaries.append(
            PlayerSummary(
                name=name,
                wins=wins,
                win_rate=wins / rounds if rounds else 0.0,
                ci95=wilson_interval(wins, rounds),
                mean_margin=statistics.fmean(margins) if margins else 0.0,
                ms_per_move=statistics.fmean(times) if times else 0.0,
                faults=sum(result.faults(seat) for (result, _), seat in zip(results, seats)),
                blindness=seat_blindness([(result, seat) for (result, _), seat in zip(results, seats)]),
                rounds_faulted=sum(1 for (result, _), seat in zip(results, seats) if result.faults(seat)),
                lost_on_time=sum(1 for (result, _), seat in zip(results, seats) if result.lost_on_time == seat),
                late_moves=sum(result.late_moves(seat, move_time_ms) for (result, _), seat in zip(results, seats)),
                # The longest of the moves counted late, so that the warning's two figures speak of the same moves.
                longest_ms=max(
                    (ms for (result, _), seat in zip(results, seats) for ms in result.played_ms(seat)), default=0.0
                ),
                **contradictions([(result, seat) for (result, _), seat in zip(results, seats)]),
                fault_log=tuple(
                    FaultLog(
                        fault for (result, _), seat in zip(results, seats) for fault in result.fault_details(seat)
                    ).entries()
                ),
            )
        )
    return summaries


def contradictions(played: Sequence[tuple[RoundResult, int]]) -> dict[str, Any]:
    """How many of a seat's moves were decided on a belief that found its evidence contradicting itself, and the
    first note that said so."""
    counts = [result.contradicted[seat] for result, seat in played]
    return {
        "contradicted": sum(count for count, _note in counts),
        "contradiction": next((note for count, note in counts if count), ""),
    }


def summary_json(summaries: Sequence[PlayerSummary], rounds: int, **extra: Any) -> dict[str, Any]:
    return {"rounds": rounds, "players": [summary.to_json() for summary in summaries], **extra}
