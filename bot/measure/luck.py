"""A duel's luck-adjusted figure: the first player's expected win rate with the deck's luck taken out.

A round's result for the first player (1 won, 0 lost) telescopes into its exact P(win) at the deal,
plus the change of that P(win) at every decision, plus its change at every draw. With exact values
the mover's P(win) before a decision is its best move's, so a decision changes the first player's
P(win) by minus what the mover gave up (its regret) when the mover is the first player, and by plus
the opponent's regret otherwise. A draw's change averages to zero over the deck's orders, so leaving
the draws out leaves an unbiased estimate of the round's expected result, with far less spread than
the result itself. Over a deal's two seatings the deal's P(win) sums to 1, so a deal's estimate is
0.5 + (the opponent's regret - the first player's regret) / 2, summed over both rounds.

The values are exact only from the whole win table (or, on miniature rules, from solving to the end
of the round); a judge that cannot give exact values is refused, so the figure is never an estimate
built on estimates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rummy import DEFAULT_RULES, RulesConfig
from rummy.countstate import CountState
from rummy.deals import Chooser, DealSpec, play_round
from rummy.stats import Z95
from strategies.table.perfect import PerfectStrategy, perfect_available

# A judge gives every legal move's exact 2 P(win) - 1 for the mover (the search's win scale).
Judge = Callable[[CountState], dict[int, float]]


class InexactJudge(RuntimeError):
    """The judge could not give exact values for a decision of the duel."""


@dataclass
class Regrets:
    """P(win) given up by each seat's decisions in one round, and how many decisions were judged."""

    given_up: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    mistakes: list[int] = field(default_factory=lambda: [0, 0])  # decisions that gave up more than 1e-9


class Judged:
    """A chooser whose every decision with more than one legal move is valued by the judge."""

    def __init__(self, inner: Chooser, seat: int, judge: Judge, regrets: Regrets) -> None:
        self.inner, self.seat, self.judge, self.regrets = inner, seat, judge, regrets
        self.name = inner.name

    def choose(self, state: CountState) -> int:
        move = self.inner.choose(state.copy())
        if len(state.legal_moves()) > 1:
            values = self.judge(state)
            loss = max(0.0, (max(values.values()) - values[move]) / 2)
            self.regrets.given_up[self.seat] += loss
            self.regrets.decisions[self.seat] += 1
            self.regrets.mistakes[self.seat] += loss > 1e-9
        return move


def judged_round(
    deal: DealSpec, seats: Sequence[Chooser], judge: Judge, rules: RulesConfig = DEFAULT_RULES
) -> tuple[CountState, Regrets]:
    """Play one round as `play_round` does, with each player's regret against the judge's exact values."""
    regrets = Regrets()
    judged = [Judged(chooser, seat, judge, regrets) for seat, chooser in enumerate(seats)]
    return play_round(deal, judged, rules), regrets


def deal_estimate(first_player_seat_regrets: Sequence[tuple[float, float]]) -> float:
    """A deal's luck-adjusted result for the first player, from (first player's, opponent's) regret in each
    of its two seatings: the deal's P(win) cancels over the seatings."""
    mine = sum(own for own, _theirs in first_player_seat_regrets)
    theirs = sum(other for _own, other in first_player_seat_regrets)
    return 0.5 + (theirs - mine) / 2


@dataclass(frozen=True)
class LuckAdjusted:
    """The first player's expected win rate over the duel's deals, luck taken out, with a normal 95% interval
    over deals; each player's mean P(win) given up per round and share of judged decisions that gave some up."""

    judge: str
    deals: int
    rate: float
    low: float
    high: float
    player_regret: float
    opponent_regret: float
    player_mistakes: float
    opponent_mistakes: float


class LuckTally:
    """Running figures over the deals finished so far, a constant cost a deal (a long duel prints a line a
    deal). Add each deal's rounds as (regrets, the first player's seat)."""

    def __init__(self) -> None:
        self.deals = 0
        self.mean = 0.0
        self.squares = 0.0  # Welford's sum of squared deviations from the mean
        self.rounds = 0
        self.given_up = [0.0, 0.0]  # the first player's, its opponent's
        self.decisions = [0, 0]
        self.mistakes = [0, 0]

    def add(self, rounds: Sequence[tuple[Regrets, int]]) -> None:
        pairs = []
        for regrets, seat in rounds:
            pairs.append((regrets.given_up[seat], regrets.given_up[1 - seat]))
            for index, who in enumerate((seat, 1 - seat)):
                self.given_up[index] += regrets.given_up[who]
                self.decisions[index] += regrets.decisions[who]
                self.mistakes[index] += regrets.mistakes[who]
        self.rounds += len(rounds)
        estimate = deal_estimate(pairs)
        self.deals += 1
        step = estimate - self.mean
        self.mean += step / self.deals
        self.squares += step * (estimate - self.mean)

    def figure(self, judge: str) -> LuckAdjusted:
        spread = math.inf
        if self.deals > 1:
            spread = Z95 * math.sqrt(self.squares / (self.deals - 1) / self.deals)
        rounds = max(1, self.rounds)
        return LuckAdjusted(
            judge,
            self.deals,
            self.mean,
            self.mean - spread,
            self.mean + spread,
            self.given_up[0] / rounds,
            self.given_up[1] / rounds,
            self.mistakes[0] / max(1, self.decisions[0]),
            self.mistakes[1] / max(1, self.decisions[1]),
        )


def win_table_judge(rules: RulesConfig = DEFAULT_RULES) -> tuple[Judge, str] | None:
    """Exact values from the whole win table that `perfect` reads, and the table's file; None without it."""
    if rules != DEFAULT_RULES or not perfect_available(rules):
        return None
    perfect = PerfectStrategy(rules=rules)
    table = perfect.win_table
    if table is None or not table.whole:
        return None

    def judge(state: CountState) -> dict[int, float]:
        result = perfect.analyse(state)
        if not result.exact or result.move_values is None:
            raise InexactJudge(f"no exact win values ({perfect.last_how}) at {state}")
        return dict(result.move_values)

    return judge, str(table.path)
