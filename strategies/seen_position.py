"""An analysis position seen through a recognizer, as a bot in the arena would see it.

A position file gives every hand card's true landmark and the deck's make-up. With a recognizer
(`analyze --recognizer harsh:0.1`, or `--strategy expectimax@harsh:0.1`), the hand cards are labelled
again from their pictures' true names by that recognizer (the position's labels stand in for the
referee's: the recognizer's oracle), and the mover decides on the belief those labels give, exactly as
`ArenaAgent` does in a match (strategies.belief_play). The cards already laid are taken as known by
landmark: a careful player saw them laid, and the position's DeckCounts with its true labels say which
they were. So with true labels (`oracle`) the belief is certain and the analysis is the position's own;
with a recognizer that errs, values are expected over the belief, and the hand cards it is unsure of
are shown with their chances ("giralda 0.62 / koutoubia mosque 0.31").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummy import RulesConfig, Tracker
from rummy.belief import Belief, ErrorModel, error_model_of, infer
from rummy.labels import Recognizer, answers_within
from strategies.position import Position


class PositionTracker(Tracker):
    """A tracker fed one position: the hand cards by their labels, the laid cards by their known landmarks."""

    def __init__(self, rules: RulesConfig, error_model: ErrorModel, names: Sequence[str], laid: Sequence[int]) -> None:
        super().__init__(rules, error_model)
        self.names = tuple(names)
        self.laid_types = tuple(laid)  # the type index of each card laid so far

    def types_in_use(self) -> tuple[str, ...]:
        return self.names  # the position names the round's landmarks (its labels and its deck)

    def belief(self) -> Belief:
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        if self._belief is None:
            n = len(self.names)
            laid = {-(index + 1): t for index, t in enumerate(self.laid_types)}
            evidence: dict[int, Sequence[float] | None] = dict(self._label_evidence(self.names))
            evidence.update({card: tuple(1.0 if u == t else 0.0 for u in range(n)) for card, t in laid.items()})
            self._belief = infer([*self.labels, *laid], evidence, [], self.names, self.rules, samples=self.samples)
        return self._belief


def position_truth(raw: Mapping[str, Any]) -> dict[str, str]:
    """The position's own labels by card URL: what an `oracle` (and a simulated recognizer's truth) reads."""
    gamestate, labels = raw["GameState"], raw["CardLabels"]
    return {str(card[1]): labels[str(card[0])] for key in ("MyHand", "OppHand") for card in gamestate[key]}


def seen_tracker(
    position: Position, raw: Mapping[str, Any], recognizer: Recognizer, samples: int | None = None
) -> Tracker:
    """The tracker of the position's mover seeing its cards through `recognizer` (built by the caller, with
    `position_truth` as its source: strategies/ names no recognizer); `samples`: the draws of a sampled belief, as
    the strategy that decides on it draws them (None: the tracker's own number)."""
    gamestate = raw["GameState"]
    cards = [(int(card[0]), str(card[1])) for key in ("MyHand", "OppHand") for card in gamestate[key]]
    catalog = list(gamestate.get("AllCardTypes") or position.rules.catalog)
    seen = answers_within(recognizer, cards, catalog, None)
    tracker = PositionTracker(position.rules, error_model_of(recognizer), position.types, _laid_types(position))
    if samples:
        tracker.samples = int(samples)
    # A position is one view, not a round followed from its start: the tracker reads it as a first view.
    tracker.observe({"MyScore": 0, "OppScore": 0, **gamestate}, seen)
    return tracker


def _laid_types(position: Position) -> list[int]:
    """The type index of every card laid so far: each type's cards neither in a hand nor in the deck."""
    per_type = position.rules.cards_per_type
    held = [0] * len(position.types)
    for _card, t in (*position.my_cards, *position.opp_cards):
        held[t] += 1
    deck = position.state.deck_counts()
    return [t for t in range(len(position.types)) for _ in range(per_type - held[t] - deck[t])]
