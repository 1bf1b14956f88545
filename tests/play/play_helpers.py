"""Shared by the play tests: a seat driven over /play/api, a simple player, and the review check."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import httpx

from rummy import DEFAULT_RULES


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


# Grading a whole match takes seconds of CPU (more the first time a process loads the compiled kernel).
REVIEW_TIMEOUT_S = 300


def own_review(client: httpx.Client, token: str) -> dict[str, Any]:
    """The /play page's review of the person's moves, after the match."""
    answer = client.get(f"/play/api/games/{token}/review", timeout=REVIEW_TIMEOUT_S)
    assert answer.status_code == 200, answer.text
    review: dict[str, Any] = answer.json()
    return review


def check_review_is_the_records_review(review: dict[str, Any], client: httpx.Client) -> None:
    """The play page's review (and `play-human`'s, which shows the same) is the person's part of the review
    engine's: every decision, grade and total equal to the viewer's (and so `rummy-vision review`'s)."""
    assert review["Moves"], "the review lists no moves"
    objective = review["Objective"]
    answer = client.get(f"/viewer/api/games/{review['GameId']}/review?objective={objective}", timeout=REVIEW_TIMEOUT_S)
    assert answer.status_code == 200, answer.text
    full = answer.json()
    seat = full["Players"].index(review["Player"])
    decisions = {d["Step"]: d for d in full["Decisions"] if d["Seat"] == seat}
    assert [entry["Step"] for entry in review["Moves"]] == sorted(decisions)
    for entry in review["Moves"]:
        same = decisions[entry["Step"]]
        assert (entry["PlayedValue"], entry["BestValue"], entry["Lost"]) == (
            same["PlayedValue"],
            same["BestValue"],
            same["loss"],
        )
        assert entry["Move"] == same["Move"] and entry["Best"] == same["Best"] and entry["Exact"] == same["Exact"]
    assert review["Totals"] == full["Totals"][seat] and review["Summary"] == full["Totals"][seat]["Summary"]
    assert review["BestMoves"] == full["Totals"][seat]["BestMoves"]
    shown = 0.0005 if objective == "win" else 0.05
    losing = sorted((e for e in review["Moves"] if e["Lost"] >= shown), key=lambda e: (-e["Lost"], e["Step"]))
    assert [entry["Step"] for entry in review["Worst"]] == [entry["Step"] for entry in losing[:3]]
    assert all(entry["Viewer"].endswith(f"/step/{entry['Step']}") for entry in review["Worst"])
