"""A house bot that cannot choose a move is withdrawn with its reason (the /play opponents list, new offers)
and the match it was playing says so to the person; the server logs the failure once, not once a move."""

from __future__ import annotations

import logging

import pytest
from play_helpers import ApiSeat

from server import house_agents
from strategies.baselines import GreedyStrategy


class _Broken(GreedyStrategy):
    def choose(self, state, deadline=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("this table holds layers up to 7; this one needs layer 19")


def test_a_house_bot_that_cannot_move_is_withdrawn_and_said_so(
    start_play_server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(house_agents.HOUSE_BOTS, "housebot-greedy", _Broken)
    server = start_play_server(seed=3)
    seat = ApiSeat(server.client, "housebot-greedy")
    with caplog.at_level(logging.ERROR, logger="server.house_seats"):
        while seat.state["Running"]:
            seat.wait_for_turn()
            if seat.state["Running"]:
                seat.move("give", mine=[seat.state["MyHand"][0]["Id"]])
    note = seat.state["OpponentNote"]
    assert note and "housebot-greedy could not choose a move" in note and "layer 19" in note
    failures = [record for record in caplog.records if "could not choose a move" in record.getMessage()]
    assert len(failures) == 1  # once, not once a move
    options = server.client.get("/play/api/options").json()
    greedy = next(opponent for opponent in options["Opponents"] if opponent["Name"] == "housebot-greedy")
    assert greedy["Available"] is False and "layer 19" in greedy["Note"]
    refused = server.client.post(
        "/play/api/games", json={"Opponent": "housebot-greedy", "GameStyleId": 5, "Coach": {"Strategy": "heuristic"}}
    )
    assert refused.status_code >= 400 and "withdrawn" in refused.text
