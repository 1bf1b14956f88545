"""What the records say about a running match that its players have seen: the moves played (with the
cards they named and their landmarks), each round's result, and the deck's make-up by landmark.

Only cards that were in a hand are ever looked up here, so nothing reveals the deck's order.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rummy import DEFAULT_RULES, RulesConfig
from rummy.moves import named_card_ids
from server.storage.records import Records


@dataclass(frozen=True)
class PlayedMove:
    step: int  # 1-based count of applied moves in the match: the viewer's step of this move
    round_index: int
    seat: int
    player: str
    move: dict[str, Any]
    cards: tuple[dict[str, Any], ...]  # {"Id", "Url", "Landmark"} of the cards the move names
    points: int

    @property
    def kind(self) -> str:
        key = next(iter(self.move), "")
        if key == "Lay":
            return "lay" if self.points else "waste"
        return key.lower()


class Ledger:
    def __init__(self, records: Records, game_id: int, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.records = records
        self.game_id = game_id
        self.rules = rules

    def moves(self) -> list[PlayedMove]:
        rows = self.records.db.execute(
            "SELECT round_index, seat, bot, move FROM moves WHERE game_id=? AND applied=1 ORDER BY move_seq",
            (self.game_id,),
        ).fetchall()
        played = []
        for step, row in enumerate(rows, start=1):
            move = json.loads(row["move"])
            cards = self._cards(int(row["round_index"]), named_card_ids(move))
            points = 0
            if isinstance(move, dict) and "Lay" in move and cards:
                kinds = Counter(card["Landmark"] for card in cards)
                points = self.rules.set_points(tuple(kinds.values()))
            played.append(
                PlayedMove(step, int(row["round_index"]), int(row["seat"]), str(row["bot"]), move, cards, points)
            )
        return played

    def rounds(self) -> list[dict[str, Any]]:
        rows = self.records.db.execute(
            "SELECT round_index, points0, points1, winner FROM rounds WHERE game_id=? ORDER BY round_index",
            (self.game_id,),
        ).fetchall()
        return [
            {"Round": row["round_index"], "Points": [row["points0"], row["points1"]], "Winner": row["winner"]}
            for row in rows
        ]

    def deck_counts(self, round_index: int, in_hands: list[str]) -> dict[str, int]:
        """Cards of each of the round's landmarks not in a hand and not laid: what a careful player knows."""
        row = self.records.db.execute(
            "SELECT kinds FROM rounds WHERE game_id=? AND round_index=?", (self.game_id, round_index)
        ).fetchone()
        kinds: list[str] = json.loads(row["kinds"]) if row is not None else []
        laid = Counter(
            card["Landmark"]
            for move in self.moves()
            if move.round_index == round_index and move.kind == "lay"
            for card in move.cards
        )
        held = Counter(in_hands)
        return {kind: self.rules.cards_per_type - held[kind] - laid[kind] for kind in kinds}

    def _cards(self, round_index: int, ids: list[int]) -> tuple[dict[str, Any], ...]:
        if not ids:
            return ()
        marks = ",".join("?" * len(ids))
        rows = self.records.db.execute(
            f"SELECT card_id, url, landmark FROM deal_cards WHERE game_id=? AND round_index=? AND card_id IN ({marks})",
            (self.game_id, round_index, *ids),
        ).fetchall()
        found = {row["card_id"]: {"Id": row["card_id"], "Url": row["url"], "Landmark": row["landmark"]} for row in rows}
        return tuple(found[card_id] for card_id in ids if card_id in found)
