"""Shared by the review tests: a recorded one-round match, and each decision's position rebuilt from the
viewer's steps alone (not from the review's own rebuilding of the record)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from rummy import DEFAULT_RULES
from rummy.rebuild import replay_record
from server.storage.records import Records


def recorded_round(db: Path, seed: str, players: tuple[str, str] = ("greedy", "random")) -> dict[str, Any]:
    """The match record of one round `players` play on the deal `seed`, stored in `db`; all 20 turns."""
    result = play_round(seed, (Contender(players[0]), Contender(players[1])))
    assert len(result.moves) == DEFAULT_RULES.max_turns
    path, game_ids = store_rounds(db, [(result, 0)], players)
    records = Records(path)
    try:
        found = records.match_record(game_ids[-1])
    finally:
        records.close()
    assert found is not None
    return found


def positions_from_steps(record: dict[str, Any]) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Each decision as (step, position, move played), the position as `analyze` reads it, rebuilt the way a
    person would from the viewer's steps: the mover's gamestate, every hand card's landmark, and the deck
    as the round's cards not in a hand or laid."""
    replay = replay_record(record)
    landmarks = [round_["Landmarks"] for round_ in record["Rounds"]]
    laid: Counter[str] = Counter()
    found = []
    for before, step in zip(replay.steps, replay.steps[1:], strict=False):
        if step.mover is None or step.move is None:
            continue
        if before.round_index != step.round_index:
            laid = Counter()
        view = before.views[step.mover]
        assert view is not None
        hands = [card_id for card_id, _url in view["MyHand"]] + [card_id for card_id, _url in view["OppHand"]]
        held = Counter(before.labels[card_id] for card_id in hands)
        deck = {kind: DEFAULT_RULES.cards_per_type - held[kind] - laid[kind] for kind in landmarks[step.round_index]}
        labels = {str(card_id): before.labels[card_id] for card_id in hands}
        position = {"GameState": dict(view), "CardLabels": labels, "DeckCounts": deck}
        found.append((step.number, position, dict(step.move)))
        if "Lay" in step.move and step.note.startswith("+"):
            laid.update(before.labels[card_id] for card_id in step.move["Lay"])
    return found


def deck_of(position: Any) -> dict[str, int]:
    """A review position's deck as analyze's DeckCounts (landmark -> cards)."""
    return {name: count for name, count in zip(position.types, position.state.deck_counts()) if count}


def with_alternatives(record: dict[str, Any], step: int, raw: dict[str, Any]) -> list[tuple[dict[str, Any], float]]:
    """The positions analyze must answer for a step, with the weights the review gives them: the step's own
    position, or, where its mover never saw the set the round opened with, one per deck make-up."""
    from strategies.coaching.game_review import recorded_decisions

    alternatives = next(d.alternatives for d in recorded_decisions(record) if d.step == step)
    if not alternatives:
        return [(raw, 1.0)]
    return [({**raw, "DeckCounts": deck_of(position)}, weight) for position, weight in alternatives]
