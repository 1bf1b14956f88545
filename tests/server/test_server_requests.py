"""Malformed requests of every kind get a JSON answer naming the field and the problem, never a 500."""

from __future__ import annotations

import httpx
import pytest


@pytest.fixture
def server(start_server):
    return start_server()


def _good(bots, **fields):
    return {"BotId": "alice", "BotPassword": bots["alice"], **fields}


class Good:
    """Alice's good credentials plus these fields."""

    def __init__(self, fields):
        self.fields = fields

    def __repr__(self):
        return f"Good({self.fields})"


CASES = [
    # (call, body, Result, words the ErrorMessage must contain)
    ("GetListOfGameStyles", b"", "INVALID_LOGIN_OR_PASSWORD", ["empty"]),
    ("GetListOfGameStyles", b"{BotId: alice", "INVALID_LOGIN_OR_PASSWORD", ["not valid JSON"]),
    ("GetListOfGameStyles", b"\xff\xfe", "INVALID_LOGIN_OR_PASSWORD", ["not valid JSON"]),
    ("GetListOfGameStyles", b"[1, 2]", "INVALID_LOGIN_OR_PASSWORD", ["JSON object", "list"]),
    ("GetListOfGameStyles", b"null", "INVALID_LOGIN_OR_PASSWORD", ["JSON object", "null"]),
    ("GetListOfGameStyles", {"BotPassword": "x"}, "INVALID_LOGIN_OR_PASSWORD", ["BotId", "missing"]),
    ("GetListOfGameStyles", {"BotId": 7, "BotPassword": "x"}, "INVALID_LOGIN_OR_PASSWORD", ["BotId", "string"]),
    ("GetListOfGameStyles", Good({"GameTypeId": "abc"}), "INVALID_LOGIN_OR_PASSWORD", ["GameTypeId", "integer"]),
    ("OfferGame", Good({"GameStyleId": 1}), "INVALID_LOGIN_OR_PASSWORD", ["MaximumWaitTime", "missing"]),
    (
        "OfferGame",
        Good({"GameStyleId": 1, "MaximumWaitTime": 6000}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["MaximumWaitTime", "5000"],
    ),
    (
        "OfferGame",
        Good({"GameStyleId": 1, "MaximumWaitTime": -1}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["MaximumWaitTime", "0"],
    ),
    (
        "OfferGame",
        Good({"GameStyleId": 1, "MaximumWaitTime": True}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["MaximumWaitTime", "integer"],
    ),
    (
        "OfferGame",
        Good({"GameStyleId": "1", "MaximumWaitTime": 0}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["GameStyleId", "integer"],
    ),
    (
        "OfferGame",
        Good({"GameStyleId": 1, "MaximumWaitTime": 0, "DontPlayAgainstSameBot": "no"}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["DontPlayAgainstSameBot", "boolean"],
    ),
    (
        "OfferGame",
        Good({"GameStyleId": 1, "MaximumWaitTime": 0, "OpponentId": 5}),
        "INVALID_LOGIN_OR_PASSWORD",
        ["OpponentId", "string"],
    ),
    ("PollForGameState", Good({"MaximumWaitTime": 0}), "INVALID_PLAYER_KEY", ["PlayerKey", "missing"]),
    ("PollForGameState", Good({"MaximumWaitTime": 0, "PlayerKey": 12}), "INVALID_PLAYER_KEY", ["PlayerKey", "string"]),
    ("MakeMove", Good({"PlayerKey": "k"}), "INVALID_MOVE", ["Move", "missing"]),
    ("CancelGameOffer", Good({}), "INVALID_PLAYER_KEY", ["PlayerKey", "missing"]),
]


def _body(spec, bots):
    return _good(bots, **spec.fields) if isinstance(spec, Good) else spec


@pytest.mark.parametrize(("call", "spec", "result", "words"), CASES)
def test_malformed_request_gets_a_reason_and_400(server, bots, call, spec, result, words):
    response = server.call(call, _body(spec, bots))
    assert response.status_code == 400
    answer = response.json()
    assert list(answer)[0] == "Result" and answer["Result"] == result
    for word in words:
        assert word in answer["ErrorMessage"], answer["ErrorMessage"]


def test_any_content_type_is_read_as_json_and_extra_fields_are_ignored(server, bots):
    body = b'{"BotId": "alice", "BotPassword": "%s", "GameTypeId": 15, "Extra": 1}' % bots["alice"].encode()
    response = server.call("GetListOfGameStyles", body, headers={"Content-Type": "text/plain"})
    assert response.status_code == 200 and response.json()["Result"] == "SUCCESS"


def test_unknown_style_and_foreign_game_type_are_answered(server, bots):
    offer = server.call("OfferGame", _good(bots, GameStyleId=99, MaximumWaitTime=0)).json()
    assert offer["Result"] == "INVALID_LOGIN_OR_PASSWORD" and "GameStyleId 99" in offer["ErrorMessage"]
    styles = server.call("GetListOfGameStyles", _good(bots, GameTypeId=3)).json()
    assert styles["Result"] == "SUCCESS" and styles["GameStyles"] == []


def test_other_routes_answer_bad_parameters_with_json(server):
    response = httpx.get(f"{server.base}/games/not-a-number")
    assert response.status_code == 400 and "game_id" in response.json()["ErrorMessage"]
    assert httpx.get(f"{server.base}/games/12345").status_code == 404
    assert httpx.get(f"{server.base}/cards/unknown.png").status_code == 404
    assert httpx.get(f"{server.base}/prod/GM-MakeMove").status_code == 405
    assert httpx.get(f"{server.base}/docs").status_code == 200
    schema = httpx.get(f"{server.base}/openapi.json").json()
    assert "/prod/GM-OfferGame" in schema["paths"]
