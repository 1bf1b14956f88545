"""What a bot knows and what it believes about the cards it cannot read for sure.

A bot feeds `observe` every gamestate it receives with the labels it has for the cards (from a
recognizer), and `played` with each move it sends. The tracker keeps what is certain apart from what
it believes:

- **certain** (`Tracker` attributes): every card id seen this round, which were laid and with what
  points, which of our Lays the referee refused, how many cards were laid before we ever saw them
  (the opponent's first Lay when it moves first) and the points that Lay scored;
- **believed** (`belief()`, a `rummy.belief.Belief`): a probability for each card's landmark, from the
  labels under the recognizer's error model, the deal's 4 x 10 cards and those sets.

`count_state()` and `card_move()` use the belief's most likely assignment (the one guess older callers
expect); `belief_states()` gives every assignment as a count-level state with its probability, which is
what strategies decide on (strategies.belief_play).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummy.belief import (
    DEFAULT_SAMPLES,
    TRUE_LABELS,
    Assignment,
    Belief,
    Constraint,
    ErrorModel,
    SetKind,
    infer,
    ranked_candidates,
    resample,
    set_kind,
)
from rummy.config import DEFAULT_RULES, PointsShown, RulesConfig
from rummy.countstate import CountState, card_move, count_rules, pack, second_mover
from rummy.labels import CardLabel
from rummy.moves import Give, Lay, Move, Take
from rummy.opponent_moves import OpponentDecision, read_opponent_move

PLACEHOLDER = "unseen type {}"


def is_placeholder(name: str) -> bool:
    """Whether one of the round's names stands for a landmark that no label has named yet (types_in_use)."""
    return name.startswith(PLACEHOLDER.format(""))


# A name becomes one of the round's types when the labels give it at least this much weight (one sure
# label does; a runner-up mention alone does not).
TYPE_EVIDENCE = 0.5


@dataclass(frozen=True)
class LaidSet:
    """A Lay the referee judged, as the gamestates show it."""

    cards: tuple[int, ...]  # negative ids: cards laid before we ever saw them
    points: int | None  # 0: refused (no set); None: not known (several Lays between two of our views)
    mine: bool
    # Ours, laid when the belief held them no set in every assignment: a deliberate pass, not a set tried.
    meant_as_pass: bool = False


@dataclass(frozen=True)
class BeliefState:
    """One assignment of the belief as the count-level state search works on, with its probability."""

    state: CountState
    weight: float
    types: Mapping[int, int]  # card id -> type index, for the cards in both hands


class Tracker:
    def __init__(self, rules: RulesConfig = DEFAULT_RULES, error_model: ErrorModel = TRUE_LABELS) -> None:
        self.rules = rules
        self.error_model = error_model
        self.rounds_seen = 0
        self.samples = DEFAULT_SAMPLES  # draws of a sampled belief
        # Draws a decision values (0: all `samples`): fewer than drawn when the opponent's moves are read on more
        # draws than are valued (strategies.belief_play.decide resamples the weighed belief to these).
        self.keep = 0
        self._reset()

    def _reset(self) -> None:
        self.labels: dict[int, str | None] = {}  # every card seen this round: its last landmark named
        self.card_labels: dict[int, CardLabel] = {}  # ... and the label itself, with confidence and runners-up
        self.laid: set[int] = set()
        self.unseen_laid = 0  # cards laid before this bot ever saw them
        self.sets: list[LaidSet] = []  # every Lay judged since our first view, ours refused included
        self._score_sum = -1
        self._remaining_moves = -1
        self._last: dict[str, Any] | None = None
        self._pending: tuple[int, ...] | None = None  # our last Lay, to read its outcome
        self._pending_pass = False  # whether that Lay was meant as a pass
        self._played: Move | None = None  # our last move, to read the opponent's that followed
        # The opponent's moves since our first view, each as its readings (see rummy.opponent_moves).
        self.opponent_moves: list[tuple[OpponentDecision, ...]] = []
        self._belief: Belief | None = None
        # Second opinions on single cards (another recognizer asked where it pays), each read by its own
        # recognizer's error model: independent evidence, multiplied into the card's labels' evidence.
        self.opinions: dict[int, list[tuple[CardLabel, ErrorModel]]] = {}

    # --- feeding ------------------------------------------------------------------------------

    def observe(
        self,
        gamestate: Mapping[str, Any],
        labels: Mapping[int, str | CardLabel | None],
        error_model: ErrorModel | None = None,
    ) -> None:
        if error_model is not None:
            self.error_model = error_model
        score_sum = gamestate["MyScore"] + gamestate["OppScore"]
        running = gamestate["GameStatus"] == "RUNNING"
        in_hands = [card[0] for card in gamestate["MyHand"]] + [card[0] for card in gamestate["OppHand"]]
        new_round = self._last is None or (
            running and (score_sum > self._score_sum or gamestate["RemainingMoves"] > self._remaining_moves)
        )
        if new_round:
            self._reset()
            self.rounds_seen += 1
        else:
            assert self._last is not None
            laid_before = self.laid | set(range(-1, -self.unseen_laid - 1, -1))
            self._read_sets(self._last, gamestate)
            if self._played is not None:
                readings = read_opponent_move(self._last, gamestate, self._played, laid_before, self._set_points)
                if readings:
                    self.opponent_moves.append(readings)
        self._score_sum = score_sum
        self._remaining_moves = gamestate["RemainingMoves"]
        now = set(in_hands)
        # Cards never return to a hand once laid, so a card seen before and in no hand now was laid.
        self.laid = set(self.labels) - now
        for card_id in in_hands:
            given = labels.get(card_id)
            label = given if isinstance(given, CardLabel) else CardLabel(given, 1.0 if given else 0.0)
            if label.landmark is not None or card_id not in self.labels:
                self.labels[card_id] = label.landmark
                self.card_labels[card_id] = label
        unseen = self.rules.total_cards - len(now) - gamestate["CardsInDeck"] - len(self.laid)
        if unseen > self.unseen_laid:
            # Before our first view only the opponent's first move can have laid cards: its points are that
            # set's. Cards that vanish unseen later (a tracker not fed every view) have no points of their own.
            points = self._set_points(gamestate, "OppPoints", "OppHand") if new_round else None
            self._unseen_set(unseen - self.unseen_laid, points)
        self.unseen_laid = unseen
        self._last = dict(gamestate)
        self._pending = None
        self._played = None
        self._belief = None

    def add_opinion(self, card_id: int, label: CardLabel, error_model: ErrorModel) -> None:
        """Another recognizer's answer about one card of this round (see strategies.agent: asking again)."""
        if card_id not in self.labels:
            raise ValueError(f"card {card_id} is not in view this round")
        self.opinions.setdefault(card_id, []).append((label, error_model))
        self._belief = None

    def _round_model(self, names: Sequence[str]) -> ErrorModel:
        """Our recognizer's model for this round's answers, given how many named no landmark of the round."""
        if any(is_placeholder(name) for name in names):
            return self.error_model  # a landmark not yet named: an answer outside the named ones may be right
        answered = [label.landmark for label in self.card_labels.values() if label.landmark is not None]
        return self.error_model.within_round(sum(name not in names for name in answered), len(answered))

    def _label_evidence(self, names: Sequence[str]) -> dict[int, tuple[float, ...] | None]:
        """Each labelled card's evidence over `names`: its label read by this round's model, times its second
        opinions, each read by its own recognizer's model."""
        model = self._round_model(names)
        found = {}
        for card in self.labels:
            combined = model.evidence(self.card_labels.get(card), names)
            for label, opinion_model in self.opinions.get(card, ()):
                more = opinion_model.evidence(label, names)
                if more is not None:
                    combined = more if combined is None else tuple(a * b for a, b in zip(combined, more))
            found[card] = combined
        return found

    def played(self, move: Move | Mapping[str, Any]) -> None:
        """The move we send for the last gamestate observed: its outcome shows in the next one."""
        sent = _move_of(move) if isinstance(move, Mapping) else move
        self._played = sent
        self._pending = tuple(sent.ids) if isinstance(sent, Lay) else None
        self._pending_pass = self._pending is not None and self._surely_no_set(self._pending)

    def _surely_no_set(self, cards: Sequence[int]) -> bool:
        """Whether these cards are no set in every assignment of the belief: a Lay of them is a pass."""
        belief = self.belief()
        if any(card not in belief.most_likely.types for card in cards):
            return False  # not all in view: no Lay we could judge
        return belief.set_chance(cards, count_rules(self.rules)) == 0.0

    def _set_points(self, gamestate: Mapping[str, Any], points: str, hand: str) -> int:
        shown = int(gamestate[points])
        if self.rules.points_shown == PointsShown.NET:
            return shown + self.rules.hand_penalty * len(gamestate[hand])
        return shown

    def _read_sets(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Which Lays happened between two of our views, from the cards that left both hands and the points."""
        ids_before = {card[0] for card in before["MyHand"]} | {card[0] for card in before["OppHand"]}
        ids_after = {card[0] for card in after["MyHand"]} | {card[0] for card in after["OppHand"]}
        gone = ids_before - ids_after
        mine = self._pending
        # A tracker fed both seats' views (a referee, a review) sees "my" hand change sides: read the
        # earlier view from the later one's seat.
        kept = {card[0] for card in before["MyHand"]}
        if len(kept & {card[0] for card in after["OppHand"]}) > len(kept & {card[0] for card in after["MyHand"]}):
            mine = None
            before = {**before, "MyHand": before["OppHand"], "OppHand": before["MyHand"]}
            before.update(MyPoints=before["OppPoints"], OppPoints=before["MyPoints"])
        my_gain = self._set_points(after, "MyPoints", "MyHand") - self._set_points(before, "MyPoints", "MyHand")
        opp_gain = self._set_points(after, "OppPoints", "OppHand") - self._set_points(before, "OppPoints", "OppHand")
        if mine is not None and set(mine) <= ids_before:
            if my_gain > 0 and set(mine) <= gone:
                self.sets.append(LaidSet(mine, my_gain, True))
                gone -= set(mine)
            elif my_gain == 0:
                self.sets.append(LaidSet(mine, 0, True, meant_as_pass=self._pending_pass))
        elif my_gain > 0 and opp_gain == 0:
            self.sets.append(LaidSet(tuple(sorted(gone)), my_gain, True))
            gone = set()
        if gone and opp_gain > 0:
            self.sets.append(LaidSet(tuple(sorted(gone)), opp_gain, False))

    def _unseen_set(self, count: int, points: int | None) -> None:
        first = -(self.unseen_laid + 1)
        self.sets.append(LaidSet(tuple(range(first, first - count, -1)), points, False))

    # --- what is known and believed -----------------------------------------------------------

    def constraints(self) -> list[Constraint]:
        """What the judged sets say about their cards' types."""
        found = []
        for laid in self.sets:
            if laid.points is None:
                continue
            if laid.points == 0:
                found.append(Constraint(laid.cards, SetKind.NO_SET))
                continue
            kind = set_kind(laid.points, len(laid.cards), self.rules)
            if kind is not None:  # else points of several Lays at once: nothing sure to say
                found.append(Constraint(laid.cards, kind))
        return found

    def refused(self) -> list[frozenset[int]]:
        """Our Lays the referee refused this round that were tried as sets, as sets of card ids. A Lay meant as
        a pass (no set in any assignment when it was laid) is left out: laying it again is a pass again."""
        return [
            frozenset(laid.cards) for laid in self.sets if laid.mine and laid.points == 0 and not laid.meant_as_pass
        ]

    def types_in_use(self) -> tuple[str, ...]:
        """The round's types: the names the labels support most, in name order, then placeholders."""
        model = self.error_model
        weight: dict[str, float] = {}
        for label in self.card_labels.values():
            if label.landmark is None:
                continue
            runners_up = [name for name, _score in ranked_candidates(label) if name != label.landmark]
            names = [label.landmark, *runners_up[:1]]
            shares = model.evidence(label, names) or ()
            total = sum(shares) or 1.0
            for name, share in zip(names, shares):
                weight[name] = weight.get(name, 0.0) + share / total
        ranked = sorted(weight, key=lambda name: (-weight[name], name))
        known = sorted(name for name in ranked[: self.rules.types_per_round] if weight[name] >= TYPE_EVIDENCE)
        missing = self.rules.types_per_round - len(known)
        return tuple(known) + tuple(PLACEHOLDER.format(index + 1) for index in range(missing))

    def belief(self) -> Belief:
        """The probability of each card's type, given everything observed (cached until the next gamestate)."""
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        if self._belief is None:
            names = self.types_in_use()
            virtual = [card for laid in self.sets for card in laid.cards if card < 0]
            cards = [*self.labels, *virtual]
            evidence = self._label_evidence(names)
            # Seeded by what is in view, so the same gamestate gets the same samples in any process.
            seed = zlib.crc32(repr((sorted(self.labels), self._remaining_moves)).encode())
            self._belief = infer(
                cards, evidence, self.constraints(), names, self.rules, samples=self.samples, seed=seed
            )
        return self._belief

    def adopt(self, weighted: Sequence[tuple[Mapping[int, int], float]], how: str, keep: int = 0) -> None:
        """Replace the belief, until the next gamestate, by these assignments (every card the belief covers, with
        unnormalised weights) that a strategy weighed with evidence the belief cannot read itself; `how` is
        added to its method. The result is never called exact. With `keep`, a sampled belief of more draws is
        resampled to `keep` equally weighted draws (rummy.belief.resample)."""
        belief = self.belief()
        total = sum(weight for _types, weight in weighted)
        if not total > 0:
            raise ValueError("the assignments adopted have no weight")
        draws = belief.draws
        if keep and belief.draws > keep:
            weighted, draws = resample(weighted, keep), keep
            how = f"{how}; resampled to {keep} draws"
        n, per_type = len(belief.names), self.rules.cards_per_type
        assignments = []
        for types, weight in sorted(weighted, key=lambda item: -item[1]):
            if weight <= 0:
                continue
            deck = [per_type] * n
            for t in types.values():
                deck[t] -= 1
            assignments.append(Assignment(dict(types), tuple(deck), weight / total))
        marginals = {card: [0.0] * n for card in belief.marginals}
        for assignment in assignments:
            for card, t in assignment.types.items():
                marginals[card][t] += assignment.weight
        self._belief = replace(
            belief,
            assignments=tuple(assignments),
            exact=False,
            method=f"{belief.method}; {how}",
            marginals={card: tuple(row) for card, row in marginals.items()},
            draws=draws,
        )

    def thin(self, keep: int) -> None:
        """Resample a sampled belief of more than `keep` draws to `keep` (no change otherwise): a belief drawn
        large to be weighed by the opponent's moves, when that reading did not happen, is valued on as many
        assignments as one drawn that size."""
        belief = self.belief()
        if belief.draws > keep:
            self.adopt([(a.types, a.weight) for a in belief.assignments], "not weighed", keep)

    def card_types(self) -> dict[int, int]:
        """Type index of every card seen this round, in the most likely assignment."""
        return {card: t for card, t in self.belief().most_likely.types.items() if card >= 0}

    def deck_counts(self) -> dict[str, int]:
        """The deck's composition by type in the most likely assignment (exact when the belief is certain)."""
        belief = self.belief()
        return dict(zip(belief.names, belief.most_likely.deck))

    def count_state(self) -> CountState:
        """The last gamestate at count level in the most likely assignment, me as player 0."""
        return self._state_of(self.belief().most_likely)

    def hand_ids(self) -> tuple[list[int], list[int]]:
        """The card ids of my hand and the opponent's in the last gamestate."""
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        return [card[0] for card in self._last["MyHand"]], [card[0] for card in self._last["OppHand"]]

    def belief_states(self) -> list[BeliefState]:
        """Every assignment of the belief as a count-level state, most likely first; weights sum to 1.

        Assignments that differ only in cards outside both hands and the deck's make-up (laid cards of
        the same counts) are merged.
        """
        mine, theirs = self.hand_ids()
        in_hands = mine + theirs
        merged: dict[tuple[Any, ...], list[Any]] = {}
        for assignment in self.belief().assignments:
            key = (tuple(assignment.types[card] for card in in_hands), assignment.deck)
            if key in merged:
                merged[key][1] += assignment.weight
            else:
                merged[key] = [assignment, assignment.weight]
        found = [
            BeliefState(self._state_of(assignment), weight, {card: assignment.types[card] for card in in_hands})
            for assignment, weight in merged.values()
        ]
        return sorted(found, key=lambda item: -item.weight)

    def _state_of(self, assignment: Assignment) -> CountState:
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        state = self._last
        n = self.rules.types_per_round
        mine, theirs = [0] * n, [0] * n
        for card_id, _url in state["MyHand"]:
            mine[assignment.types[card_id]] += 1
        for card_id, _url in state["OppHand"]:
            theirs[assignment.types[card_id]] += 1
        turns_taken = self.rules.max_turns - state["RemainingMoves"]
        mover = 0 if state["IsMover"] else 1
        return CountState(
            count_rules(self.rules),
            (pack(mine), pack(theirs)),
            pack(assignment.deck),
            points=(self._set_points(state, "MyPoints", "MyHand"), self._set_points(state, "OppPoints", "OppHand")),
            turns_left=state["RemainingMoves"],
            mover=mover,
            second=second_mover(turns_taken, mover),
        )

    def card_move(self, move_id: int, confidence: Mapping[int, float] | None = None) -> Move:
        """A card-level move for the count-level move `move_id` of the last gamestate's mover (me), in the most
        likely assignment.

        Where a type has several cards, the most trusted are laid and the least trusted given away: by
        `confidence` when given, else by the belief's probability that each card is of its type.
        """
        if self._last is None:
            raise RuntimeError("observe a gamestate first")
        belief = self.belief()
        types = belief.most_likely.types
        trust = (
            confidence if confidence is not None else {card: belief.probability(card, t) for card, t in types.items()}
        )
        my_cards = [(card[0], types[card[0]]) for card in self._last["MyHand"]]
        opp_cards = [(card[0], types[card[0]]) for card in self._last["OppHand"]]
        return card_move(count_rules(self.rules), move_id, my_cards, opp_cards, trust)


def _move_of(sent: Mapping[str, Any]) -> Move | None:
    """A move as sent to the referee ({"Lay": [...]}, {"Take": id}, {"Give": id}); None if it is none of them."""
    if isinstance(sent.get("Lay"), list):
        return Lay(tuple(int(card_id) for card_id in sent["Lay"]))
    if isinstance(sent.get("Take"), int):
        return Take(sent["Take"])
    if isinstance(sent.get("Give"), int):
        return Give(sent["Give"])
    return None
