"""The review of a `play` replay file alone (its lines), for a match that is not in the records at hand.

The file holds the gamestates one player received and the labels its recognizer gave the cards in view
(with each of its moves, and for the gamestates it did not move on); `rummy.replay_steps.replay_lines`
works out the opponent's moves from how the hands changed. Each decision of either side is graded from
the position its mover faced, rebuilt from those gamestates: both hands with the file's labels, the
points, the turns left, and the deck's make-up (for each of the round's 4 landmarks, 10 minus the cards
of it seen so far in the round). The grading is the records review's
(`strategies.coaching.game_review.grade_decision`), so the same position gets the same values.

What a file cannot show is said in the review's notes: the labels are the recognizer's, not checked
against the referee; a decision whose position names a card the file never labelled, or whose effect
the file does not show (an opponent's move that ended a round), is left out and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

from rummy import DEFAULT_RULES
from rummy.rebuild import ReplayError
from rummy.replay_lines import labels_by_round
from rummy.replay_steps import replay_lines
from strategies.coaching.coach import position_of
from strategies.coaching.game_review import GameReview, RecordedDecision, ReviewError, grade_decisions
from strategies.coaching.grading import Grader
from strategies.position import PositionError

SWAPPED = (("MyHand", "OppHand"), ("MyPoints", "OppPoints"), ("MyScore", "OppScore"))


# What a file without labels needs, where no recognizer can be named (the viewer).
NO_LABELS = (
    "the file holds no labels of its cards (a bot file's recording: its bot labelled the cards itself, "
    "and the recording could not see how)"
)


def review_lines(
    lines: list[dict[str, Any]],
    name: str,
    grader: Grader,
    *,
    progress: Callable[[int, int], None] | None = None,
    extra_labels: Mapping[int, Mapping[int, str]] | None = None,
    no_labels_hint: str = "",
) -> GameReview:
    """Grade every decision of a replay file's lines (`rummy.replay_lines.parse_replay`) that its gamestates
    and labels let us rebuild; `name` is the file's name, for the notes and error messages. `extra_labels`
    ({RemainingRounds: {card id: landmark}}, e.g. from a recognizer the user names) label the cards the file
    does not; `no_labels_hint` is added to the refusal of a file with no labels at all."""
    try:
        replay = replay_lines(lines, name)
        labels = labels_by_round(lines)
    except (ReplayError, KeyError, TypeError, ValueError) as error:
        raise ReviewError(f"{name}: not a readable replay file: {error}") from None
    unlabelled_file = not any(labels.values())
    for round_key, names in (extra_labels or {}).items():
        labels[round_key] = {**names, **labels.get(round_key, {})}  # the file's own labels first
    if not any(line.get("type") == "end" for line in lines):
        raise ReviewError(f"{name}: the file has no end line; a review needs the finished match")
    decisions, skipped = _decisions(replay, labels)
    if not decisions:
        if unlabelled_file and not extra_labels:
            raise ReviewError(f"{name}: no decision can be rebuilt: {NO_LABELS}{no_labels_hint}")
        raise ReviewError(f"{name}: no decision can be rebuilt from the file ({_reasons(skipped) or 'no moves'})")
    graded = grade_decisions(decisions, grader, progress)
    header = next(line for line in lines if line.get("type") == "header")
    notes = [
        f"Rebuilt from the replay file {PurePath(name).name} alone: the landmarks are the ones its bot's recognizer "
        "gave (recorded with the gamestates it received), not checked against the referee's cards, and the "
        "opponent's moves are worked out from how the hands changed."
    ]
    if skipped:
        notes.append(f"{len(skipped)} decision(s) could not be graded from the file: {_reasons(skipped)}.")
    game_id = header.get("game_id")
    return GameReview(
        game_id if isinstance(game_id, int) else None,
        f"{replay.title}: {replay.players[0]} v {replay.players[1]}",
        replay.players,
        grader.objective,
        grader.describe(),
        graded,
        (),
        tuple(notes),
    )


def _reasons(skipped: list[str]) -> str:
    """The skipped decisions' reasons, each once with the steps it applies to: one line however many."""
    steps: dict[str, list[str]] = {}
    for entry in skipped:
        step, _, reason = entry.partition(": ")
        steps.setdefault(reason, []).append(step.removeprefix("step "))
    return "; ".join(
        f"{reason} (step {numbers[0]})"
        if len(numbers) == 1
        else f"{reason} ({len(numbers)} steps: {', '.join(numbers)})"
        for reason, numbers in steps.items()
    )


def _round_key(gamestate: Mapping[str, Any]) -> int:
    # Rounds not yet finished, the current one included: it counts down, one value per round.
    return int(gamestate.get("RemainingRounds", 0))


def _hand_ids(gamestate: Mapping[str, Any]) -> list[int]:
    return [int(card[0]) for key in ("MyHand", "OppHand") for card in gamestate.get(key) or []]


def _decisions(replay: Any, labels: dict[int, dict[int, str]]) -> tuple[list[RecordedDecision], list[str]]:
    decisions: list[RecordedDecision] = []
    skipped: list[str] = []
    seen: dict[int, set[int]] = {}  # per round, every card that was in a hand up to now
    before: Mapping[str, Any] | None = None
    for step in replay.steps:
        after = step.views[0]
        if step.mover is not None and step.move is not None:
            why = _why_not(step, before)
            if why is None:
                assert before is not None
                found = _decision(step, before, labels, seen, replay.players)
                if isinstance(found, str):
                    skipped.append(f"step {step.number}: {found}")
                else:
                    decisions.append(found)
            else:
                skipped.append(f"step {step.number}: {why}")
        if after is not None:
            seen.setdefault(_round_key(after), set()).update(_hand_ids(after))
            before = after
    return decisions, skipped


def _why_not(step: Any, before: Mapping[str, Any] | None) -> str | None:
    if before is None or before.get("GameStatus") != "RUNNING":
        return "no gamestate before the move"
    if bool(before.get("IsMover")) != (step.mover == 0):
        return "the gamestate before the move is not the mover's turn"
    return None


def _decision(
    step: Any,
    before: Mapping[str, Any],
    labels: dict[int, dict[int, str]],
    seen: dict[int, set[int]],
    players: tuple[str, str],
) -> RecordedDecision | str:
    round_key = _round_key(before)
    names = labels.get(round_key, {})
    so_far = seen.get(round_key, set()) | set(_hand_ids(before))
    unlabelled = sorted(card_id for card_id in so_far if card_id not in names)
    if unlabelled:
        return f"card {unlabelled[0]} was never labelled by the recognizer"
    kinds = sorted(set(names.values()))
    if len(kinds) != DEFAULT_RULES.types_per_round:
        return f"the labels name {len(kinds)} landmarks in the round, not {DEFAULT_RULES.types_per_round}"
    shown = Counter(names[card_id] for card_id in so_far)
    deck = {kind: DEFAULT_RULES.cards_per_type - shown[kind] for kind in kinds}
    view = dict(before) if step.mover == 0 else _opponents_view(before)
    try:
        position = position_of(view, {card_id: names[card_id] for card_id in _hand_ids(before)}, deck)
    except PositionError as error:
        return str(error)
    return RecordedDecision(step.number, step.round_index, step.mover, players[step.mover], position, step.move)


def _opponents_view(gamestate: Mapping[str, Any]) -> dict[str, Any]:
    """The opponent's gamestate at the same moment: the same fields seen from the other seat."""
    view = dict(gamestate)
    for mine, theirs in SWAPPED:
        view[mine], view[theirs] = gamestate.get(theirs), gamestate.get(mine)
    view["IsMover"] = True
    return view
