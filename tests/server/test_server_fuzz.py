"""Fuzzing the referee over HTTP: no input to the five calls or the GET routes gets a 500, and the
server still answers afterwards. Bodies mix well-formed requests (real credentials, a real PlayerKey)
with odd values: deep nesting, NaN, lone surrogates, huge integers, wrong types, raw bytes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_testkit import ArenaBot

CALLS = ("GetListOfGameStyles", "OfferGame", "PollForGameState", "MakeMove", "CancelGameOffer")
FIELDS = (
    "BotId",
    "BotPassword",
    "PlayerKey",
    "Move",
    "GameStyleId",
    "GameTypeId",
    "MaximumWaitTime",
    "OpponentId",
    "DontPlayAgainstSameUser",
    "DontPlayAgainstSameBot",
)
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

odd_text = st.text(st.characters(codec=None, categories=["Cs", "Lu", "Nd", "Po", "Zs", "Co"]), max_size=12)
numbers = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=12), odd_text)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
nesting = st.integers(1, 20_000).map(lambda depth: "[" * depth + "]" * depth)


def encode(value: Any) -> bytes:
    try:
        return json.dumps(value, allow_nan=True).encode()
    except ValueError:  # an int too long for str(): send its JSON by hand
        return b'{"Move": {"Take": ' + b"9" * 5000 + b"}}"


@st.composite
def bodies(draw: Any, credentials: dict[str, str], player_key: str) -> bytes:
    kind = draw(st.sampled_from(["fields", "fields", "fields", "any", "raw", "nested", "move string"]))
    if kind == "raw":
        return bytes(draw(st.binary(max_size=300)))
    if kind == "nested":
        return draw(nesting).encode()
    body: dict[str, Any] = {}
    if draw(st.booleans()):
        body.update(credentials)
    if draw(st.booleans()):
        body["PlayerKey"] = player_key
    if kind == "any":
        return encode(draw(json_values))
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=6)):
        body[field] = draw(json_values)
    if kind == "move string":
        body["Move"] = draw(
            nesting.map(lambda text: '{"Lay": ' + text + "}") | json_values.map(encode).map(bytes.decode)
        )
    wait = body.get("MaximumWaitTime")
    if isinstance(wait, int) and not isinstance(wait, bool) and 0 < wait <= 5000:
        body["MaximumWaitTime"] = 0  # a valid long poll would only make the fuzzing slow
    return encode(body)


path_values = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["9223372036854775808", "1e20", "NaN", "-0", "1.5", "", "%00", "..", "x.png"]),
    st.text(max_size=20),
    odd_text,
)


def routes_of(routes: Any) -> Iterator[Any]:
    """Every route, those of the routers the app includes too (FastAPI lists an included router as one entry
    and keeps its routes on the router it was given)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from routes_of(included.routes)
        else:
            yield route


def test_no_input_gets_a_500_and_the_server_keeps_answering(start_server, bots):
    server = start_server(move_time_ms=60_000, oracle=True)
    credentials = {"BotId": "alice", "BotPassword": bots["alice"]}

    async def start_match() -> str:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            answer = await alice.offer(1, OpponentId="housebot-practise", wait=5000)
            return str(answer["PlayerKey"])

    player_key = asyncio.run(start_match())
    get_routes = sorted(
        route.path
        for route in routes_of(server.app.routes)
        if "GET" in getattr(route, "methods", ()) and not route.path.startswith(("/docs", "/redoc", "/openapi"))
    )
    assert {"/games/{game_id}", "/viewer/api/games/{game_id}/steps", "/admin"} <= set(get_routes)
    client = httpx.Client(timeout=30)

    @FUZZ
    @given(call=st.sampled_from(CALLS), body=bodies(credentials, player_key))
    def post_calls(call: str, body: bytes) -> None:
        response = client.post(server.prod + f"GM-{call}", content=body)
        assert response.status_code < 500, (call, body[:200], response.text[:300])
        assert len(response.content) < 20_000  # never an echo of the input

    @FUZZ
    @given(route=st.sampled_from(get_routes), value=path_values)
    def get_routes_with_odd_parameters(route: str, value: str) -> None:
        path = route
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            path = path[:start] + quote(value, safe="", errors="surrogatepass") + path[end + 1 :]
        response = client.get(server.base + path)
        assert response.status_code < 500, (path, response.text[:300])

    try:
        post_calls()
        get_routes_with_odd_parameters()
        still = client.post(server.prod + "GM-GetListOfGameStyles", json=credentials)
        assert still.status_code == 200 and still.json()["Result"] == "SUCCESS"
    finally:
        client.close()
