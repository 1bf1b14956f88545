"""The bot client checks every GameState it receives against the protocol's gamestate (rummy.messages): a
malformed one ends the call with one line naming the field, is not retried, and never reaches a bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, ProtocolError

URL = "http://arena.test/prod/GM-PollForGameState"
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "positions" / "from_games.jsonl"


def a_gamestate() -> dict:
    return json.loads(FIXTURE.read_text().splitlines()[0])["GameState"]


def test_a_real_gamestate_is_handed_on_unchanged(httpx_mock) -> None:
    state = {**a_gamestate(), "SomethingNew": 1}  # a key the protocol may add later stays
    httpx_mock.add_response(url=URL, json={"Result": "SUCCESS", "GameState": state})
    with ArenaClient("http://arena.test/prod/", Credentials("me", "pw"), sleep=lambda _s: None) as client:
        answer = client.poll("key", 0)
    assert answer.game_state == state


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"MyHand": [[1, "/a.png"], [2]]}, "GameState.MyHand[1] must be a [card id, URL] pair, not [2]"),
        ({"IsMover": "yes"}, 'GameState.IsMover must be true or false, not "yes"'),
        ({"RemainingRounds": None}, "GameState.RemainingRounds must be a whole number from 0 to 100, not null"),
    ],
)
def test_a_malformed_gamestate_ends_the_call_naming_the_field(httpx_mock, change: dict, said: str) -> None:
    httpx_mock.add_response(url=URL, json={"Result": "SUCCESS", "GameState": {**a_gamestate(), **change}})
    waits: list[float] = []
    client = ArenaClient("http://arena.test/prod/", Credentials("me", "pw"), sleep=waits.append)
    with client, pytest.raises(ProtocolError) as raised:
        client.poll("key", 0)
    assert str(raised.value) == f"GM-PollForGameState: the answer's GameState is not the protocol's: {said}"
    assert waits == []  # not retried: the server would send the same again
