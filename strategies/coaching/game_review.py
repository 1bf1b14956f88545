"""The review of a recorded match: every decision of either player graded against the engine.

The match is rebuilt from its record (seed and moves, as `rummy.rebuild` does); before each applied move
the mover's position is what a careful player knows (both hands with their landmarks, the deck's
make-up, the points), and a `Grader` values every legal move there. One thing a careful player cannot
know: when the round's first mover lays a set on its first move, the second mover never saw those cards.
The set's points say whether they were all one landmark or all different, not which; for that player's
decisions the review values each move as its expectation over the deck make-ups the set leaves possible
(`unseen_alternatives`), weighted by how likely the deal makes each. A decision's loss is the best
move's value less the played move's (never below 0), on the objective's scale. The review says for each
decision whether its values are exact and where they come from, and in its notes when any are estimates.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rummy import DEFAULT_RULES, Lay, MalformedMove, Match, parse_move, render_gamestate
from rummy.belief import EXPECTED, UnsureCards, chances_text
from strategies.agent import describe_count_move
from strategies.coaching.coach import position_of, value_kind
from strategies.coaching.grading import HOW_TO_GET_EXACT, Grade, Grader
from strategies.position import Position, PositionError
from strategies.search import Objective

WORST = 5
# A loss below this is the best move (values are rounded in the search's last digits).
EPSILON = 1e-6
# The smallest loss every review shows as more than nothing (0.1% of P(win), 0.1 point of margin): a smaller
# one is a best move, so no "better move" is ever listed with a loss of 0.0.
SHOWN_LOSS = {Objective.WIN: 0.0005, Objective.MARGIN: 0.05}
# Lichess's thresholds on the winning chances (2 P(win) - 1) a move gives away, 0.1, 0.2 and 0.3: in P(win),
# an inaccuracy loses at least 5 points, a mistake 10 and a blunder 15.
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
THRESHOLDS_TEXT = "P(win) lost: inaccuracy 5-10%, mistake 10-15%, blunder 15% or more, as lichess grades"


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy of one move, 0-100, from the win percentage it gave away (x points):
    103.1668 e^(-0.04354 x) - 3.1669, so 100 for a best move."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669))


class ReviewError(ValueError):
    """The record cannot be reviewed; the message says why."""


@dataclass(frozen=True)
class GradedDecision:
    step: int  # the match's applied-move number (the viewer's step)
    round_index: int
    turn: int  # the round's turn, 1-based
    seat: int
    player: str
    turns_left: int
    played: Mapping[str, Any]
    played_label: str
    played_value: float
    best: Mapping[str, Any]
    best_label: str
    best_value: float
    loss: float
    exact: bool
    source: str
    choices: int  # legal moves
    expected: bool = False  # valued as an expectation over the deck make-ups the mover could not tell apart
    # When `expected`: what the belief those values are expected over holds of the cards it is unsure of.
    belief: tuple[str, ...] = ()
    # When the player itself chose on an uncertain belief (a recognizer that may err; recorded by its bot with
    # its suggestions): what it believed of the cards it was unsure of, e.g. "card 7: giralda 0.62 / ...".
    believed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "Step": self.step,
            "Round": self.round_index,
            "Turn": self.turn,
            "Seat": self.seat,
            "Player": self.player,
            "TurnsLeft": self.turns_left,
            "Move": self.played,
            "Played": self.played_label,
            "PlayedValue": round(self.played_value, 6),
            "BestMove": self.best,
            "Best": self.best_label,
            "BestValue": round(self.best_value, 6),
            "loss": round(self.loss, 6),
            "Exact": self.exact,
            "Source": self.source,
            "Choices": self.choices,
            "Expected": self.expected,
            "Belief": list(self.belief),
            "PlayerBelief": list(self.believed),
        }


@dataclass(frozen=True)
class PlayerTotals:
    player: str
    seat: int
    decisions: int
    best_moves: int
    total_loss: float
    exact: int
    objective: Objective = Objective.WIN
    accuracy: float | None = None  # win: the mean of the decisions' lichess accuracies
    grades: tuple[int, int, int] = (0, 0, 0)  # win: inaccuracies, mistakes, blunders

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0

    def summary(self) -> str:
        """The player's figures in one sentence, the same wherever a review is shown. A P(win) loss is per
        decision: a sum of them is no probability (it can pass 100%), so none is shown."""
        best = f"{self.best_moves} of {self.decisions} decisions were the best"
        if self.objective is Objective.MARGIN:
            return (
                f"{best}; {self.mean_loss:.1f} points of margin lost a decision on average "
                f"({self.total_loss:.1f} in all)"
            )
        inaccuracies, mistakes, blunders = self.grades
        accuracy = "-" if self.accuracy is None else f"{self.accuracy:.0f}%"
        return (
            f"{best}; accuracy {accuracy}; {self.mean_loss:.1%} P(win) lost a decision on average; "
            f"{inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders ({THRESHOLDS_TEXT})"
        )

    def to_json(self) -> dict[str, Any]:
        win = self.objective is Objective.WIN
        return {
            "Player": self.player,
            "Seat": self.seat,
            "Decisions": self.decisions,
            "BestMoves": self.best_moves,
            "TotalLoss": round(self.total_loss, 6),
            "MeanLoss": round(self.mean_loss, 6),
            "ExactDecisions": self.exact,
            "Accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "Inaccuracies": self.grades[0] if win else None,
            "Mistakes": self.grades[1] if win else None,
            "Blunders": self.grades[2] if win else None,
            "Summary": self.summary(),
        }


@dataclass(frozen=True)
class GameReview:
    game_id: int | None
    title: str
    players: tuple[str, str]
    objective: Objective
    grader: str  # where the values come from, in words
    decisions: tuple[GradedDecision, ...]
    results: tuple[Mapping[str, Any], ...]  # each round's {"Round", "Points", "Winner"}
    source_notes: tuple[str, ...] = ()  # what the values rest on, when it is not the referee's records

    @property
    def all_exact(self) -> bool:
        return all(decision.exact for decision in self.decisions)

    @property
    def notes(self) -> list[str]:
        estimates = sum(1 for decision in self.decisions if not decision.exact)
        expected = sum(1 for decision in self.decisions if decision.expected)
        unseen = (
            [
                f"{expected} decisions are graded by what their player could know: it never saw the set its "
                "opponent opened the round with, so each move's value is its expectation over the deck "
                f"make-ups that set leaves possible, weighted by how likely the deal makes each ({EXPECTED}; "
                "each such decision says what the belief holds of those cards)."
            ]
            if expected
            else []
        )
        believed = sum(1 for decision in self.decisions if decision.believed)
        if believed:
            unseen.append(
                f"{believed} decisions were chosen by a player not sure of its cards' landmarks (its recognizer "
                f"may err): its own values were {EXPECTED}. The review grades them with the true landmarks "
                "and shows what the player believed of the cards it was unsure of."
            )
        if not estimates:
            exact = f"Every value is exact ({expected} of them {EXPECTED})." if expected else "Every value is exact."
            return [exact, *unseen, *self.source_notes]
        return [
            f"{estimates} of {len(self.decisions)} decisions are graded with estimates, not exact values "
            f"(marked 'estimate'); their losses may be wrong. To get exact values: {HOW_TO_GET_EXACT}.",
            *unseen,
            *self.source_notes,
        ]

    @property
    def worst(self) -> tuple[GradedDecision, ...]:
        shown = SHOWN_LOSS[self.objective]
        losing = [decision for decision in self.decisions if decision.loss >= shown]
        return tuple(sorted(losing, key=lambda decision: (-decision.loss, decision.step))[:WORST])

    def totals(self) -> tuple[PlayerTotals, PlayerTotals]:
        shown = SHOWN_LOSS[self.objective]
        win = self.objective is Objective.WIN

        def of(seat: int) -> PlayerTotals:
            mine = [decision for decision in self.decisions if decision.seat == seat]
            losses = [decision.loss for decision in mine]
            accuracy = sum(move_accuracy(loss) for loss in losses) / len(losses) if win and losses else None
            grades = (
                sum(1 for loss in losses if INACCURACY <= loss < MISTAKE),
                sum(1 for loss in losses if MISTAKE <= loss < BLUNDER),
                sum(1 for loss in losses if loss >= BLUNDER),
            )
            return PlayerTotals(
                self.players[seat],
                seat,
                len(mine),
                sum(1 for loss in losses if loss < shown),
                sum(losses),
                sum(1 for decision in mine if decision.exact),
                self.objective,
                accuracy,
                grades,
            )

        return of(0), of(1)

    def chart(self) -> list[dict[str, Any]]:
        """Seat 0's value before each decision (the mover's best value, seen from seat 0), by round."""
        points = []
        for decision in self.decisions:
            value = decision.best_value if decision.seat == 0 else self._other_side(decision.best_value)
            points.append(
                {
                    "Step": decision.step,
                    "Round": decision.round_index,
                    "Turn": decision.turn,
                    "Value": round(value, 6),
                    "Exact": decision.exact,
                }
            )
        return points

    def _other_side(self, value: float) -> float:
        return 1 - value if self.objective is Objective.WIN else -value

    def to_json(self) -> dict[str, Any]:
        return {
            "GameId": self.game_id,
            "Title": self.title,
            "Players": list(self.players),
            "Objective": self.objective.value,
            "Grader": self.grader,
            "AllExact": self.all_exact,
            "Notes": self.notes,
            "Totals": [totals.to_json() for totals in self.totals()],
            "Thresholds": THRESHOLDS_TEXT if self.objective is Objective.WIN else None,
            "Worst": [decision.to_json() for decision in self.worst],
            "Chart": self.chart(),
            "Results": list(self.results),
            "Decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True)
class RecordedDecision:
    """An applied move of a record with the position its mover faced."""

    step: int
    round_index: int
    seat: int
    player: str
    position: Position
    played: Mapping[str, Any]
    # When the mover cannot know the deck's make-up (a set laid before its first view): the positions it
    # may be in, with their probabilities; empty when `position` is all it can be.
    alternatives: tuple[tuple[Position, float], ...] = ()
    belief: tuple[str, ...] = ()  # with `alternatives`: what the belief holds of the unseen cards, in words
    believed: tuple[str, ...] = ()  # what the player itself believed, when it chose on an uncertain belief


def unseen_alternatives(pool: Mapping[str, int], laid_kinds: Sequence[str]) -> list[tuple[dict[str, int], float]]:
    """The deck make-ups a player may face when a set it never saw was laid, with their probabilities.

    `pool` is what the player has not seen, by landmark: the deck plus the unseen set (`laid_kinds`).
    The set's points tell only its kind: k cards of one landmark, or k different ones. Every make-up of
    that kind which the pool allows is weighted by how likely the deal makes it: k specific cards all of
    landmark t has probability proportional to pool_t (pool_t - 1) ... (pool_t - k + 1), and k different
    landmarks S proportional to prod_{t in S} pool_t (the same order-counting for every S).
    """
    size = len(laid_kinds)
    names = sorted(pool)
    same = len(set(laid_kinds)) == 1
    options: list[tuple[tuple[str, ...], float]] = []
    if same:
        options = [((name,) * size, float(math.perm(pool[name], size))) for name in names]
    else:
        options = [(combo, float(math.prod(pool[name] for name in combo))) for combo in combinations(names, size)]
    total = sum(weight for _kinds, weight in options)
    found = []
    for kinds, weight in options:
        if weight > 0:
            deck = Counter(pool)
            deck.subtract(Counter(kinds))
            found.append(({name: deck[name] for name in names}, weight / total))
    return found


def unseen_belief(pool: Mapping[str, int], laid_kinds: Sequence[str]) -> UnsureCards:
    """What the deck make-ups of `unseen_alternatives` say of each card of the set laid unseen: for one
    landmark, the chance it was each; for different ones, the chance a given card of it was each."""
    size = len(laid_kinds)
    chances: dict[str, float] = {}
    for deck, weight in unseen_alternatives(pool, laid_kinds):
        for name in deck:
            chances[name] = chances.get(name, 0.0) + weight * (pool[name] - deck[name]) / size
    cards = tuple(range(-1, -size - 1, -1))
    return UnsureCards(cards, chances_text(chances.items()), unseen=True)


def player_belief(move: Mapping[str, Any]) -> tuple[str, ...]:
    """What a player recorded that it believed when it chose this move on an uncertain belief (its
    suggestions' "Beliefs", see strategies.agent); empty when it chose on certain labels."""
    suggestions = move.get("Suggestions")
    if not isinstance(suggestions, list) or not any(
        isinstance(item, Mapping) and item.get("Expected") for item in suggestions
    ):
        return ()
    for item in suggestions:
        beliefs = item.get("Beliefs") if isinstance(item, Mapping) else None
        if isinstance(beliefs, list):
            return tuple(
                f"{entry.get('What')}: {entry.get('Belief')}" for entry in beliefs if isinstance(entry, Mapping)
            )
    return ()


def recorded_decisions(record: Mapping[str, Any]) -> list[RecordedDecision]:
    """Every applied move of a match record with the mover's position before it."""
    try:
        seed, rounds, game_id = str(record["Seed"]), int(record["NumberOfRounds"]), int(record["GameId"])
        players = (str(record["Players"][0]), str(record["Players"][1]))
        moves = [move for move in record["Moves"] if move.get("Applied")]
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ReviewError(f"not a match record: missing or bad field {error}") from None
    match = Match(seed=seed, rounds=rounds)
    recorded_kinds = [tuple(round_["Landmarks"]) for round_ in record.get("Rounds", [])]
    if recorded_kinds and recorded_kinds[0] != match.current.deal.kinds:
        raise ReviewError(f"match {game_id}: its seed does not deal the recorded cards")
    found = []
    unseen: tuple[int, list[str]] | None = None  # (the seat that never saw them, the kinds of a set laid unseen)
    for step, move in enumerate(moves, start=1):
        seat = int(move["Seat"])
        played = match.current
        first_move = played.turns_taken == 0
        if first_move:
            unseen = None
        gamestate = render_gamestate(match, seat, game_id=game_id, opponent_id=players[1 - seat])
        labels = {card.id: card.kind for card in [*played.hands[0], *played.hands[1]]}
        deck = Counter(card.kind for card in played.deck)
        alternatives: tuple[tuple[Position, float], ...] = ()
        belief: tuple[str, ...] = ()
        try:
            position = position_of(gamestate, labels, deck)
            if unseen is not None and unseen[0] == seat:
                pool = Counter({kind: deck.get(kind, 0) for kind in played.deal.kinds})
                pool.update(unseen[1])
                possible = unseen_alternatives(pool, unseen[1])
                if len(possible) > 1:  # one make-up possible (a set of every landmark): the values are exact
                    alternatives = tuple(
                        (position_of(gamestate, labels, counts), weight) for counts, weight in possible
                    )
                    belief = (unseen_belief(pool, unseen[1]).line(),)
        except PositionError as error:
            raise ReviewError(f"match {game_id}, step {step}: {error}") from None
        where = (step, match.round_index, seat, players[seat], position, move["Move"])
        found.append(RecordedDecision(*where, alternatives, belief, player_belief(move)))
        try:
            raw = parse_move(move["Move"])
            kinds = [labels[card_id] for card_id in raw.ids] if isinstance(raw, Lay) else []
            outcome = match.apply(seat, raw)
        except (MalformedMove, ValueError, KeyError) as error:
            raise ReviewError(f"match {game_id}, step {step}: the recorded move does not replay: {error}") from None
        if first_move and outcome.points > 0:
            unseen = (1 - seat, kinds)
    return found


def grade_decision(decision: RecordedDecision, grader: Grader) -> GradedDecision:
    position = decision.position
    rules = position.state.rules
    grade = expected_grade(decision, grader)
    played_id = position.move_id(decision.played)
    best_id = grade.best
    played_value, best_value = grade.values[played_id], grade.values[best_id]
    return GradedDecision(
        step=decision.step,
        round_index=decision.round_index,
        turn=DEFAULT_RULES.max_turns - position.state.turns_left + 1,
        seat=decision.seat,
        player=decision.player,
        turns_left=position.state.turns_left,
        played=decision.played,
        played_label=describe_count_move(rules.moves[played_id], position.types),
        played_value=played_value,
        best=position.card_move(best_id).to_json(),
        best_label=describe_count_move(rules.moves[best_id], position.types),
        best_value=best_value,
        loss=max(0.0, best_value - played_value),
        exact=grade.exact,
        source=grade.source.value,
        choices=len(grade.values),
        expected=bool(decision.alternatives),
        belief=decision.belief if decision.alternatives else (),
        believed=decision.believed,
    )


def expected_grade(decision: RecordedDecision, grader: Grader) -> Grade:
    """The decision's grade: of its position, or the expectation over the positions its mover may be in."""
    if not decision.alternatives:
        return grader.grade(decision.position)
    frame = decision.position
    grades = [(grader.grade(position), weight) for position, weight in decision.alternatives]
    # A make-up with no card left of some landmark orders the landmarks otherwise (that landmark leaves the
    # position's types), so the same id may be another move there: each make-up's values are carried to the
    # decision's own ids by the cards each move moves.
    carried = [
        ({frame.move_id(position.card_move(move).to_json()): value for move, value in grade.values.items()}, weight)
        for (grade, weight), (position, _weight) in zip(grades, decision.alternatives, strict=True)
    ]
    moves = set.intersection(*(set(values) for values, _weight in carried))
    values = {move: sum(weight * found[move] for found, weight in carried) for move in moves}
    first = grades[0][0]
    return Grade(
        values,
        first.objective,
        all(grade.exact for grade, _weight in grades),
        first.source,
        min(grade.depth for grade, _weight in grades),
    )


def review_record(
    record: Mapping[str, Any],
    grader: Grader,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Grade every decision of a finished match record (`Records.match_record`)."""
    if record.get("Status") == "RUNNING":
        raise ReviewError(f"match {record.get('GameId')} is still running; a review needs the finished match")
    graded = grade_decisions(recorded_decisions(record), grader, progress)
    results = tuple(
        {"Round": round_["RoundIndex"], "Points": round_["Points"], "Winner": round_["Winner"]}
        for round_ in record.get("Rounds", [])
    )
    players = (str(record["Players"][0]), str(record["Players"][1]))
    return GameReview(
        int(record["GameId"]),
        f"match {record['GameId']}: {players[0]} v {players[1]}",
        players,
        grader.objective,
        grader.describe(),
        graded,
        results,
    )


def grade_decisions(
    decisions: list[RecordedDecision], grader: Grader, progress: Callable[[int, int], None] | None = None
) -> tuple[GradedDecision, ...]:
    graded = []
    for done, decision in enumerate(decisions):
        graded.append(grade_decision(decision, grader))
        if progress is not None:
            progress(done + 1, len(decisions))
    return tuple(graded)


PERSON_WORST = 3


def seat_review(data: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """One player's part of a review (`GameReview.to_json()`), as the play page and `play-human` show it
    after a game: the same decisions, grades and totals as `review` and the viewer give that player."""
    objective = Objective(data["Objective"])
    mine = [decision for decision in data["Decisions"] if decision["Seat"] == seat]
    moves = [
        {
            "Step": decision["Step"],
            "Round": decision["Round"],
            "Turn": decision["Turn"],
            "Played": decision["Played"],
            "PlayedValue": decision["PlayedValue"],
            "Best": decision["Best"],
            "BestValue": decision["BestValue"],
            "Lost": decision["loss"],
            "Exact": decision["Exact"],
            "Source": decision["Source"],
            "Move": decision["Move"],
            "BestMove": decision["BestMove"],
        }
        for decision in mine
    ]
    losing = [move for move in moves if move["Lost"] >= SHOWN_LOSS[objective]]
    worst = sorted(losing, key=lambda move: (-move["Lost"], move["Step"]))[:PERSON_WORST]
    totals = data["Totals"][seat]
    exact = all(move["Exact"] for move in moves)
    return {
        "Strategy": data["Grader"],
        "Objective": objective.value,
        "Player": totals["Player"],
        "Moves": moves,
        "Worst": worst,
        "Totals": totals,
        "Summary": totals["Summary"],
        "BestMoves": totals["BestMoves"],
        "MeanLost": totals["MeanLoss"],
        "Accuracy": totals["Accuracy"],
        "Exact": exact,
        **value_kind(exact),
    }
