"""Shared by the play tests: a seat driven over /play/api, a simple player, and the review check."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import httpx

from rummy import DEFAULT_RULES
from strategies.analyze import analyse
from strategies.position import parse_position


def valid_set(hand: list[dict[str, Any]]) -> list[int] | None:
    """Ids of the highest-scoring set in a hand (by the landmarks the server shows), or None."""
    best: tuple[int, list[int]] | None = None
    for size in (5, 4, 3):
        for combo in itertools.combinations(hand, size):
            points = DEFAULT_RULES.set_points(tuple(Counter(card["Landmark"] for card in combo).values()))
            if points and (best is None or points > best[0]):
                best = (points, [card["Id"] for card in combo])
    return None if best is None else best[1]


def no_set(hand: list[dict[str, Any]]) -> list[int] | None:
    for combo in itertools.combinations(hand, 3):
        if not DEFAULT_RULES.set_points(tuple(Counter(card["Landmark"] for card in combo).values())):
            return [card["Id"] for card in combo]
    return None


class ApiSeat:
    def __init__(
        self,
        client: httpx.Client,
        opponent: str,
        style: int = 5,
        coach: str = "heuristic",
        objective: str = "margin",
        name: str | None = None,
    ) -> None:
        self.client = client
        body: dict[str, Any] = {
            "Opponent": opponent,
            "GameStyleId": style,
            "Coach": {"Strategy": coach, "Objective": objective},
        }
        if name is not None:
            body["Name"] = name
        answer = client.post("/play/api/games", json=body)
        assert answer.status_code == 200, answer.text
        self.state: dict[str, Any] = answer.json()
        self.token = self.state["Session"]

    def refresh(self, wait_ms: int = 5000) -> dict[str, Any]:
        answer = self.client.get(
            f"/play/api/games/{self.token}", params={"since": self.state["Version"], "wait": wait_ms}
        )
        assert answer.status_code == 200, answer.text
        self.state = answer.json()
        return self.state

    def wait_for_turn(self) -> None:
        while self.state["Running"] and not self.state["IsMover"]:
            self.refresh()

    def move(self, action: str, mine: list[int] = (), theirs: list[int] = (), confirm: bool = False) -> dict[str, Any]:  # type: ignore[assignment]
        body = {"Action": action, "Mine": list(mine), "Theirs": list(theirs), "ConfirmPass": confirm}
        answer = self.client.post(f"/play/api/games/{self.token}/move", json=body)
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        self.state = result["State"]
        return result


def check_review_against_strategy(review: dict[str, Any], strategy: str, objective: str = "margin") -> None:
    """Every review number equals what `strategy` itself says about the recorded position."""
    assert review["Moves"], "the review lists no moves"
    for entry in review["Moves"]:
        position = parse_position(entry["Position"])
        analysis = analyse(position, strategy, objective)
        values = {position.move_id(ranked.move): ranked.value for ranked in analysis.moves}
        best_value = max(value for value in values.values() if value is not None)
        played_value = values[position.move_id(entry["Move"])]
        assert entry["BestValue"] == round(best_value, 4), entry
        assert entry["PlayedValue"] == round(played_value, 4), entry
        assert abs(entry["Lost"] - round(best_value - played_value, 4)) < 1e-3, entry
        assert values[position.move_id(entry["BestMove"])] == best_value
    assert abs(review["TotalLost"] - sum(entry["Lost"] for entry in review["Moves"])) < 1e-3
    losing = sorted((entry for entry in review["Moves"] if entry["Lost"] > 0), key=lambda e: (-e["Lost"], e["Step"]))
    assert [entry["Step"] for entry in review["Worst"]] == [entry["Step"] for entry in losing[:3]]
    assert all(entry["Viewer"].endswith(f"/step/{entry['Step']}") for entry in review["Worst"])
