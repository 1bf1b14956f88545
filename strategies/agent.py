"""A strategy as an arena bot: `calculate_move(gamestate)` through a recognizer, the tracker's belief and the strategy.

The recognizer labels the cards; the tracker turns labels and everything the referee shows into a belief
over the cards' landmarks (rummy.belief). When that belief is certain (true labels, nothing unseen) the
strategy plays its count-level move as always; when it is not, the move is chosen on the belief
(strategies.belief_play): valued as an expectation over the assignments, or voted by them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummy import DEFAULT_RULES, CardLabel, CountMove, Lay, Move, Recognizer, RulesConfig, Take, Tracker
from rummy.belief import EXPECTED, TRUE_LABELS, Belief, error_model_of, unsure_cards
from rummy.labels import answers_within
from strategies.base import Strategy
from strategies.belief_play import BeliefDecision, decide
from strategies.opponent_model import OpponentModel

# Part of the time to the deadline a strategy may think; the rest covers labelling and the network.
THINKING_SHARE = 0.6
# Second opinions a move at the most (FIRST+SECOND recognizers): each asks about the card worth most to know.
ASKS_PER_MOVE = 2
# What a draw of an unsure belief may cost at the most, in seconds of thinking time: a move draws as many as fit,
# halving from the strategy's own number (never below MIN_DRAWS). perfect's 1,024 draws through harsh:0.2 took 187 ms
# a move (p95 364 ms) on this machine (measurements/noise-cost-perfect-1000-draws.json): at 0.25 ms a draw, a 300 ms
# move (180 ms to think) draws 512, a 5 s one all 1,024. Cut by the deadline, not by the time taken, so that a
# move time and a seed still replay the same moves on any machine.
DRAW_COST_S = 0.25e-3
MIN_DRAWS = 128
# Part of the time to the deadline labelling may take (a recognizer that waits on a rate limit or a
# 429 stops there, leaving the card unknown for this move); thinking then shares what is left.
LABELLING_SHARE = 0.5


class ArenaAgent:
    """Keeps the labels and the tracker of one match; call `calculate_move` with each gamestate."""

    def __init__(self, strategy: Strategy, recognizer: Recognizer, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.strategy = strategy
        self.recognizer = recognizer
        self.rules = rules
        self.error_model = error_model_of(recognizer)
        self.tracker = Tracker(rules, self.error_model)
        samples = getattr(strategy, "samples", None)  # perfect:samples=N: the draws of a sampled belief
        if samples:
            self.tracker.samples = int(samples)
        # Reads the opponent's moves as evidence about the cards, where the strategy asks for it.
        self.opponent = OpponentModel(strategy) if getattr(strategy, "read_opponent", False) else None
        # perfect:read_draws=N: the belief is drawn N times for the reading, then resampled to the draws valued.
        read_draws = getattr(strategy, "read_draws", None)
        if self.opponent is not None and read_draws and int(read_draws) > self.tracker.samples:
            self.tracker.keep, self.tracker.samples = self.tracker.samples, int(read_draws)
        self.most_draws = self.tracker.samples
        self.last_labels: dict[int, CardLabel] = {}
        # The best moves of the last decision with their values, for records and the viewer:
        # [{"Move": arena move, "Label": readable, "Value": number, "Exact": bool}], best first; empty for
        # strategies without values. "Exact" False: an estimate (a pruned search's bound, mapped margins, or an
        # expectation over a sampled belief); "Expected" True: the value is an expectation over the belief.
        self.last_suggestions: list[dict[str, Any]] = []
        self.last_decision: BeliefDecision | None = None  # the last move decided on an uncertain belief
        self.belief_decisions = 0  # moves decided on an uncertain belief this match
        # Every card seen, by URL (ids are 0..39 again in each round; a URL names one card of the match):
        # None where its last label named a landmark, else why it named none (a blind run shows here).
        self.unknown_why: dict[str, str | None] = {}
        self.asked = 0  # second opinions asked this match (FIRST+SECOND recognizers)
        # Moves this match decided on a belief whose evidence contradicted itself, and the first note saying how:
        # a recognizer wrong where its error model says it cannot be, which `match` and `play` then say.
        self.contradicted = 0
        self.contradiction = ""
        # A measuring aid, never set in play (`measure noise-cost --reveal`): the true landmark of some cards of
        # the gamestate, by id, which then enter the belief as certain, to show which misread cards cost.
        self.reveal: Callable[[Mapping[str, Any]], Mapping[int, str]] | None = None

    def observe(self, gamestate: dict[str, Any]) -> None:
        """Label the cards and feed the tracker (also useful for gamestates where we do not move).

        Every card is labelled again at each turn: recognizers cache by URL, so this costs no API
        call, and a recognizer that corrects labels with what the round has shown since can revise
        an earlier answer.
        """
        cards = [(card[0], card[1]) for card in gamestate["MyHand"] + gamestate["OppHand"]]
        catalog = gamestate["AllCardTypes"]
        self.last_labels = answers_within(self.recognizer, cards, catalog, self.labelling_budget(gamestate))
        self.tracker.observe(gamestate, self.last_labels, self.error_model)
        if self.reveal is not None:
            for card_id, landmark in self.reveal(gamestate).items():
                if not any(model is TRUE_LABELS for _label, model in self.tracker.opinions.get(card_id, ())):
                    self.tracker.add_opinion(card_id, CardLabel(landmark, 1.0, "revealed for measuring"), TRUE_LABELS)
        for card_id, url in cards:
            label = self.last_labels[card_id]
            if label.landmark is not None:
                self.unknown_why[url] = None
            elif self.unknown_why.get(url, "") is not None:  # a card named before stays known, as in the tracker
                self.unknown_why[url] = label.reason or "no reason given"

    def cards_unknown(self) -> tuple[int, int]:
        """(cards whose last label named no landmark, cards seen) this match."""
        return sum(1 for why in self.unknown_why.values() if why is not None), len(self.unknown_why)

    def unknown_reasons(self) -> dict[str, int]:
        """Why the cards counted unknown by `cards_unknown` were so: each reason with its count of cards."""
        return dict(Counter(why for why in self.unknown_why.values() if why is not None))

    def calculate_move(self, gamestate: dict[str, Any]) -> dict[str, Any]:
        self.observe(gamestate)
        deadline = self._deadline(gamestate)
        if not self.tracker.keep:
            self.tracker.samples = draws_within(
                self.most_draws, None if deadline is None else deadline - time.monotonic()
            )
        move: Move
        if self.tracker.belief().certain:
            self.last_decision = None
            state = self.tracker.count_state()
            move_id = self.strategy.choose(state, deadline)
            confidence = {card_id: label.confidence for card_id, label in self.last_labels.items()}
            self.last_suggestions = self._suggestions(state.rules.moves, confidence)
            move = self.tracker.card_move(move_id, confidence)
        else:
            asking = self._second_opinion() is not None
            decision = decide(self.strategy, self.tracker, deadline, self.opponent, asking)
            asked = 0
            while asked < ASKS_PER_MOVE and self._ask_again(decision, gamestate, deadline):
                asked += 1
                decision = decide(self.strategy, self.tracker, deadline, self.opponent, asking)
                if self.tracker.belief().certain:
                    break
            self.asked += asked
            self.last_decision = decision
            self.belief_decisions += 1
            self.last_suggestions = self._belief_suggestions(decision)
            if asked and self.last_suggestions:
                self.last_suggestions[0]["Asked"] = asked  # second opinions this move (API calls)
            move = decision.move
        said = self.tracker.belief().contradiction
        if said:
            self.contradicted += 1
            self.contradiction = self.contradiction or said
        self.tracker.played(move)
        return move.to_json()

    def _second_opinion(self) -> tuple[Any, Any, Any] | None:
        """(ask, can_ask, its error model) of a recognizer that can be asked again (recognizers.second_opinion),
        or None: only with one is it worth working out which cards to ask about."""
        ask = getattr(self.recognizer, "ask", None)
        can_ask = getattr(self.recognizer, "can_ask", None)
        model = getattr(self.recognizer, "second_error_model", None)
        return (ask, can_ask, model) if callable(ask) and callable(can_ask) and model is not None else None

    def _ask_again(self, decision: BeliefDecision, gamestate: dict[str, Any], deadline: float | None) -> bool:
        """Ask the second recognizer about the card whose landmark the decision hangs on most; True when
        its answer reached the tracker."""
        second = self._second_opinion()
        if second is None or not decision.worth_asking:
            return False
        ask, can_ask, model = second
        if deadline is not None and time.monotonic() >= deadline:
            return False
        names = self.tracker.types_in_use()
        if any(name not in gamestate["AllCardTypes"] for name in names):
            names = tuple(gamestate["AllCardTypes"])  # the round's landmarks are not all named yet: no hint
        urls = {card[0]: card[1] for card in gamestate["MyHand"] + gamestate["OppHand"]}
        round_key = self.tracker.rounds_seen
        for card_id, _gain in decision.worth_asking:
            if card_id not in urls:
                continue
            budget = None if deadline is None else max(0.0, LABELLING_SHARE * (deadline - time.monotonic()))
            label = ask((card_id, urls[card_id]), names, round_key, budget_s=budget)
            if label is not None:
                self.tracker.add_opinion(card_id, label, model)
                return True
            if not can_ask(round_key):
                return False
        return False

    @property
    def belief(self) -> Belief:
        return self.tracker.belief()

    def _belief_suggestions(self, decision: BeliefDecision, top: int = 3) -> list[dict[str, Any]]:
        shown = getattr(self.strategy, "shown_value", None)
        belief = self.tracker.belief()
        # Assignments that all make the same count-level position (an unseen set of every landmark) give one
        # value, not an expectation: only several are said to be.
        expected = decision.states > 1 or decision.weight_valued < 1.0 - 1e-9

        def scaled(value: float) -> float:
            return shown(value) if callable(shown) else value

        suggestions = [
            {
                "Move": ranked.move.to_json(),
                "Label": describe_card_move(ranked.move, belief) + (f" ({EXPECTED})" if expected else ""),
                "Value": round(scaled(ranked.value), 4),
                "Exact": decision.exact,
                "Expected": expected,
                "SetChance": round(ranked.sure, 4),  # for a Lay: its probability of being a set
                # perfect:doubt: what the doubt term added to rank the move (Value stays the expectation)
                **({"Doubt": round(scaled(ranked.score) - scaled(ranked.value), 4)} if ranked.doubt else {}),
            }
            for ranked in decision.ranked[:top]
        ]
        if suggestions and expected:
            # What the move was decided on, once per move (records and the viewer show it beside the values).
            mine, theirs = self.tracker.hand_ids()
            unseen = [laid.cards for laid in self.tracker.sets if laid.cards and laid.cards[0] < 0]
            unsure = unsure_cards(belief, mine + theirs, unseen)
            suggestions[0]["Beliefs"] = [item.to_json() for item in unsure]
        return suggestions

    def _suggestions(self, moves: Sequence[CountMove], confidence: dict[int, float]) -> list[dict[str, Any]]:
        ranked = getattr(self.strategy, "suggestions", None)
        if not callable(ranked):
            return []
        names = self.tracker.types_in_use()
        # A searcher's inexact values are bounds from its pruned search; perfect's are mapped estimates.
        inexact = " (estimate)" if getattr(self.strategy, "name", "") == "perfect" else " (value at most)"
        return [
            {
                "Move": self.tracker.card_move(move_id, confidence).to_json(),
                "Label": describe_count_move(moves[move_id], names) + ("" if exact else inexact),
                "Value": round(value, 4),
                "Exact": exact,
            }
            for move_id, value, exact in ranked()
        ]

    @staticmethod
    def labelling_budget(gamestate: dict[str, Any]) -> float | None:
        """Seconds the recognizer may take for this gamestate (None: no deadline given)."""
        response_deadline_ms = gamestate.get("ResponseDeadline") or 0
        if response_deadline_ms <= 0:
            return None
        return LABELLING_SHARE * max(0.0, response_deadline_ms / 1000 - time.time())

    @staticmethod
    def _deadline(gamestate: dict[str, Any]) -> float | None:
        response_deadline_ms = gamestate.get("ResponseDeadline") or 0
        if response_deadline_ms <= 0:
            return None
        left_s = max(0.0, response_deadline_ms / 1000 - time.time())
        return time.monotonic() + THINKING_SHARE * left_s


def describe_card_move(move: Move, belief: Belief) -> str:
    """A card move with each card's landmark as the belief holds it ("Lay giralda 0.62 / koutoubia ..., big ben")."""
    if isinstance(move, Lay):
        return "Lay " + ", ".join(belief.describe(card) for card in move.ids)
    return f"{'Take' if isinstance(move, Take) else 'Give'} {belief.describe(move.id)}"


def describe_count_move(move: CountMove, names: Sequence[str]) -> str:
    """A count-level move in landmark names, e.g. "Lay 3 big ben" or "Take giralda"."""
    if move.kind == "lay":
        return "Lay " + " + ".join(f"{count} {names[t]}" for t, count in enumerate(move.counts) if count)
    if move.kind == "waste":
        return "Waste a turn (a Lay that is no set)"
    return f"{move.kind.title()} {names[move.type]}"


def draws_within(most: int, thinking_s: float | None) -> int:
    """The draws of an unsure belief a move can afford with `thinking_s` to think (None: no deadline, all of them):
    `most` halved until they fit at DRAW_COST_S a draw, never below MIN_DRAWS (nor above `most`)."""
    draws = most
    if thinking_s is not None:
        while draws > MIN_DRAWS and draws * DRAW_COST_S > thinking_s:
            draws //= 2
    return max(min(most, MIN_DRAWS), draws)
