"""The opponent's moves as evidence about the cards: a good player's choice says what its cards were.

The opponent sees every card as it is. When our labels may be wrong, each way the cards could be is a
different position for the opponent, and in some of them the move it made would have been a poor one.
For every move it made since our first view (rummy.opponent_moves), the strategy values the opponent's
position as it was, and the move gets a likelihood:

    P(move | cards, rational) = EPSILON / moves + (1 - EPSILON) * softmax(BETA * value)[move]

The opponent may not be a good player at all (a random bot, a template, the house's `greedy`), so the
belief does not rely on it: the evidence is a mixture, with the priors in PRIORS, of three kinds of
player, each the product over its moves of:

- "rational": the softmax above;
- "greedy": the house's greedy player, whose move is a function of its cards: EPSILON / moves, plus
  (1 - EPSILON) shared among the moves greedy holds equally good (GreedyStrategy.preferred);
- "any": 1 / moves, every move as likely as another.

Against an opponent whose moves fit no assignment well, the "any" part dominates and the belief is left
nearly as it was. Without the "greedy" part a greedy opponent cost a little (its moves look like a good
player's in some assignments and not in others, and moved the belief the wrong way); with it, a greedy
opponent's moves say much about its cards, since in the true assignment each is the one greedy makes.

**How strongly, said plainly.** The update weighs the belief's own assignments (all of them, or its
samples), and when many labels are unsure the samples may not hold the true assignment: the update can
then make the belief sure of a wrong one that happens to explain the moves. The belief is never called
exact after it. Weighed so, its draws are far from equal: in a 40-round look through harsh:0.2 against greedy
(tuning deals; a diagnostic, not stored), 128 draws (then the default) held a median of ~40 effective ones after
the reading ((sum w)^2 / sum w^2; a quarter of moves under ~20), and a set chance worked out on so few flatters
the Lay that is the best of several; `perfect` now draws 1,024 (perfect.DRAWS). `perfect:read_draws=N` reads
on N draws and resamples the weighed ones to the draws valued (Tracker.adopt with `keep`): its chances came
nearer the truth, but it laid fewer sets and won no more (docs/belief.md), so it is off. The evidence may
enter raised to a power below 1 (`perfect:temper=T`); it
first entered at 0.3 for that fear, but measured on tuning deals (seeds tune:0..499, 1,000 rounds a value,
measurements/temper-sweep-noisy.json and temper-sweep-harsh.json) more rounds were won the stronger it
entered, through noisy:0.1 (0.15, 0.3, 0.6, 1: 44.1%, 44.2%, 45.2%, 46.4%) and harsh:0.1 (0.3, 0.6, 1:
14.0%, 16.3%, 16.8%), so TEMPER is 1: Bayes' rule as it stands. BETA at 20 and 80 on the same deals
(measurements/beta-sweep-*.json) did no clearly better than 40 (noisy:0.1 45.3%, 46.6%; harsh:0.1 15.6%,
16.5%), so it stays. `perfect` reads the opponent by default
(`perfect:read_opponent=false` turns it off); docs/belief.md has the figures on other deals.

Values are the strategy's own (`analyse(..., all_values=True)` on count-level states, the opponent to
move), so this serves strategies whose values are cheap: table look-ups (`perfect`). They are cached by
state for the match. Only a belief unsure of labels is read so: with true labels the belief is exact
(an unseen opening set weighed by the deal) and stays so.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rummy import CountRules, Tracker
from rummy.countstate import CountState, count_rules, pack, second_mover
from rummy.opponent_moves import OpponentDecision, SeenKind
from strategies.baselines import GreedyStrategy


class Terms(NamedTuple):
    """One number per kind of opponent, in one order: the priors, and a move's likelihood under each kind."""

    rational: float  # a good player's: better moves likelier (BETA)
    greedy: float  # the house greedy's
    any: float  # a player to whom every move is as likely


EPSILON = 0.05  # a rational player's share of moves made for no reason the values show
# Prior weight of each kind of opponent. "greedy" gets a small share because its likelihood is sharp: with some
# 20 moves to choose from, against "any" a move greedy makes weighs about 19 to 1 for it, and another 1 to 20.
PRIORS = Terms(rational=0.45, greedy=0.1, any=0.45)
# How sharply a rational player prefers better moves: per unit of the value scale. Win values are 2 P(win) - 1,
# so 40 makes a move 0.05 worse in P(win) e^-4 as likely; margin values are points.
BETA = {"win": 40.0, "margin": 0.5}
TEMPER = 1.0  # the power the opponent's evidence enters with; 1 is Bayes' rule (see the module)
GREEDY = GreedyStrategy()


def reading_text(temper: float | None, beta: float | None) -> str:
    """How the opponent's moves are read, in words shared by the belief's note and the source line, e.g. "read as
    a rational player's (tempered, power 0.6), greedy's or any player's"; a setting is shown only when set away
    from full strength or the model's own beta."""
    shown = [f"tempered, power {temper:g}"] if temper not in (None, 1) else []
    shown += [f"beta {beta:g}"] if beta else []
    settings = "".join(f" ({part})" for part in shown)
    return f"read as a rational player's{settings}, greedy's or any player's"


class OpponentModel:
    """Reads the opponent's moves for one strategy; keep one per match (its caches are by state)."""

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy
        objective = str(getattr(strategy, "objective", "win")).lower()
        self.beta = getattr(strategy, "beta", None) or (BETA["margin"] if "margin" in objective else BETA["win"])
        self.temper = getattr(strategy, "temper", None) or TEMPER
        self._values: dict[tuple[Any, ...], Mapping[int, float]] = {}
        self._likely: dict[tuple[Any, ...], Terms] = {}

    def reweigh(self, tracker: Tracker, deadline: float | None = None, keep: int = 0) -> bool:
        """Weigh the tracker's belief by the opponent's moves (see the module); False when it was left as it
        was (nothing to read, true labels, no time, or no assignment with weight). With `keep`, a sampled belief
        of more draws is then resampled to `keep` (Tracker.adopt): read on many draws, valued on fewer."""
        decisions = tracker.opponent_moves
        belief = tracker.belief()
        # Read when a card in view is unsure, whatever the error model states: one that states no errors (silent)
        # still leaves the cards it gave no answer unsure. With every card in view sure, as with true labels, the
        # belief's one doubt is an unseen opening set, which the deal weighs exactly.
        mine, theirs = tracker.hand_ids()
        in_view = [card for card in (*mine, *theirs) if card in belief.marginals]
        if not decisions or belief.certain or all(belief.sure_of(card) for card in in_view):
            return False
        rules = count_rules(tracker.rules)
        found = []
        for assignment in belief.assignments:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            evidence = self._evidence(assignment.types, decisions, rules, tracker, deadline)
            found.append((assignment.types, assignment.weight * evidence**self.temper))
        if not any(weight > 0 for _types, weight in found):
            return False
        tracker.adopt(found, "weighed by the opponent's moves, " + reading_text(self.temper, None), keep)
        return True

    def _evidence(
        self,
        types: Mapping[int, int],
        decisions: Sequence[tuple[OpponentDecision, ...]],
        rules: CountRules,
        tracker: Tracker,
        deadline: float | None = None,
    ) -> float:
        products = [1.0] * len(PRIORS)
        for readings in decisions:
            terms = [self._terms(reading, types, rules, tracker, deadline) for reading in readings]
            known = [term for term in terms if term is not None]
            if not known:
                return 0.0  # no such position for the opponent: these types leave the deck short
            # Readings the views cannot tell apart are equally likely a priori.
            for kind in range(len(products)):
                products[kind] *= sum(term[kind] for term in known) / len(known)
        return sum(prior * product for prior, product in zip(PRIORS, products, strict=True))

    def _terms(
        self,
        reading: OpponentDecision,
        types: Mapping[int, int],
        rules: CountRules,
        tracker: Tracker,
        deadline: float | None = None,
    ) -> Terms | None:
        state = _state(reading, types, rules, tracker)
        if state is None:
            return None
        move = _count_move(reading, types, rules)
        key = (tuple(state.hands), state.deck, tuple(state.points), state.turns_left, state.second, move)
        if key not in self._likely:
            self._likely[key] = self._likelihood(state, move, deadline)
        return self._likely[key]

    def _likelihood(self, state: CountState, move: int, deadline: float | None = None) -> Terms:
        values = self._move_values(state, deadline)
        n = max(1, len(values))
        preferred = GREEDY.preferred(state)
        greedy = EPSILON / n + ((1 - EPSILON) / len(preferred) if move in preferred else 0.0)
        if move not in values:
            return Terms(EPSILON / n, greedy, 1.0 / n)
        top = max(values.values())
        weights = {m: math.exp(self.beta * (v - top)) for m, v in values.items()}
        share = weights[move] / sum(weights.values())
        return Terms(EPSILON / n + (1 - EPSILON) * share, greedy, 1.0 / n)

    def _move_values(self, state: CountState, deadline: float | None = None) -> Mapping[int, float]:
        key = (tuple(state.hands), state.deck, tuple(state.points), state.turns_left, state.second)
        if key not in self._values:
            # The move's deadline bounds each position too: a position the table does not hold (a wrong assignment
            # can make one) is solved on demand, which took minutes with no deadline (deal noise:404 through
            # harsh:0.2 read with a measured model); past it the strategy answers from what it has.
            self._values[key] = dict(self.strategy.analyse(state, deadline, all_values=True).move_values)
        return self._values[key]


def _state(
    reading: OpponentDecision, types: Mapping[int, int], rules: CountRules, tracker: Tracker
) -> CountState | None:
    """The opponent's position in one assignment, as a count-level state with us as player 0 and it to move;
    None when the assignment leaves the deck short of a type."""
    n = rules.n_types
    mine, theirs, deck = [0] * n, [0] * n, [tracker.rules.cards_per_type] * n
    for card in reading.my_ids:
        mine[types[card]] += 1
    for card in reading.opp_ids:
        theirs[types[card]] += 1
    for card in reading.out:
        deck[types[card]] -= 1
    if min(deck) < 0 or max(mine) > 15 or max(theirs) > 15:
        return None
    turns_taken = tracker.rules.max_turns - reading.turns_left
    return CountState(
        rules,
        (pack(mine), pack(theirs)),
        pack(deck),
        points=reading.points,
        turns_left=reading.turns_left,
        mover=1,
        second=second_mover(turns_taken, 1),
    )


def _count_move(reading: OpponentDecision, types: Mapping[int, int], rules: CountRules) -> int:
    if reading.kind is SeenKind.TAKE:
        return rules.take_ids[types[reading.cards[0]]]
    if reading.kind is SeenKind.GIVE:
        return rules.give_ids[types[reading.cards[0]]]
    if reading.kind is SeenKind.REFUSED:
        return rules.waste_id
    code = sum(rules.unit[types[card]] for card in reading.cards)
    return rules.lay_by_code.get(code, rules.waste_id)
