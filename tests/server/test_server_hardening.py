"""The referee under abuse: oversized and odd requests, money across aborts and restarts, the lobby,
login floods, the oracle, and shutdown. Each test names the problem it guards against."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from server_testkit import FAST_HASH, ArenaBot

from server.accounts import Accounts
from server.logins import PER_ADDRESS, PER_BOT, FailureThrottle
from server.storage.records import Records

STAKED = 4  # style 4: stake 10, prize 19
ROOT = Path(__file__).resolve().parents[2]


def creds(bots: dict[str, str], name: str) -> dict[str, str]:
    return {"BotId": name, "BotPassword": bots[name]}


def balance(server, name: str) -> int:
    return server.app.state.accounts.get(name).balance


# --- request limits ---------------------------------------------------------------------------------


def test_a_huge_body_is_refused_with_413_and_never_echoed(start_server, bots):
    server = start_server()
    big = b'{"BotId": "' + b"x" * 200_000 + b'"}'
    response = server.call("GetListOfGameStyles", big)
    assert response.status_code == 413
    assert len(response.content) < 500 and "limit is 64 KB" in response.json()["ErrorMessage"]

    # Without a Content-Length (chunked), the read stops at the limit too.
    def chunks():
        yield b'{"BotId": "'
        for _ in range(100):
            yield b"y" * 10_000

    response = httpx.post(server.prod + "GM-GetListOfGameStyles", content=chunks(), timeout=15)
    assert response.status_code == 413


def test_error_messages_quote_at_most_an_excerpt(start_server, bots):
    server = start_server()
    long_id = "z" * 50_000
    response = server.call("OfferGame", {**creds(bots, "alice"), "GameStyleId": long_id, "MaximumWaitTime": 0})
    assert response.status_code == 400 and len(response.content) < 600
    assert "GameStyleId" in response.json()["ErrorMessage"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"BotId": "a", "BotPassword": "b", "GameTypeId": NaN}',
        b'{"BotId": "a", "BotPassword": "b", "GameTypeId": Infinity}',
        b'{"BotId": "a", "BotPassword": "b", "GameTypeId": 1e999}',
        b"[" * 30_000 + b"]" * 30_000,  # within the size limit, far beyond Python's recursion limit
        b'{"BotId": "a", "BotPassword": "b", "x": ' + b"[" * 40 + b"]" * 40 + b"}",
    ],
    ids=["NaN", "Infinity", "overflowing float", "deep nesting", "nesting over the limit"],
)
def test_numbers_json_lacks_and_deep_nesting_are_a_400(start_server, bots, body):
    server = start_server()
    response = server.call("GetListOfGameStyles", body)
    assert response.status_code == 400, response.text
    assert "not valid JSON" in response.json()["ErrorMessage"]


@pytest.mark.parametrize("field", ["BotId", "BotPassword", "OpponentId"])
def test_a_lone_surrogate_in_a_text_field_is_a_400(start_server, bots, field):
    server = start_server()
    body = {**creds(bots, "alice"), "GameStyleId": 1, "MaximumWaitTime": 0, "OpponentId": "bob", field: "\ud800"}
    response = server.call("OfferGame", json.dumps(body))  # json.dumps escapes it as \\ud800
    assert response.status_code == 400, response.text
    assert f"{field}: not valid Unicode" in response.json()["ErrorMessage"]


@pytest.mark.parametrize("path", ["/games/9223372036854775808", "/games/-1", "/viewer/api/games/1e20/live"])
def test_game_ids_no_match_can_have_are_a_404_or_400(start_server, path):
    server = start_server()
    response = httpx.get(server.base + path)
    assert response.status_code in (400, 404), response.text


def test_nan_in_a_move_is_refused_and_an_old_record_holding_nan_reads_back(start_server, bots, tmp_path):
    server = start_server(move_time_ms=5000)

    async def main() -> int:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            answer = await alice.offer(1, OpponentId="housebot-practise", wait=5000)
            key = answer["PlayerKey"]
            while not answer["GameState"]["IsMover"]:
                answer = await alice.poll(key, 5000)
            raw = b'{"BotId": "alice", "BotPassword": "%s", "PlayerKey": "%s", "Move": {"Take": NaN}}'
            response = await client.post(
                server.prod + "GM-MakeMove", content=raw % (bots["alice"].encode(), key.encode())
            )
            assert response.status_code == 400 and "NaN is not a JSON number" in response.json()["ErrorMessage"]
            as_string = await alice.move(key, '{"Take": Infinity}')  # a Move as a JSON string: same rule
            assert as_string["Result"] == "INVALID_MOVE" and "Infinity" in as_string["ErrorMessage"]
            return int(answer["GameState"]["GameId"])

    game_id = asyncio.run(main())
    server.stop()
    # A record written by an older server that stored NaN verbatim.
    records = Records(tmp_path / "records.sqlite3")
    with records.db:
        records.db.execute("UPDATE moves SET move='{\"Take\": NaN}' WHERE game_id=?", (game_id,))
    records.close()
    again = start_server()
    response = httpx.get(f"{again.base}/games/{game_id}")
    assert response.status_code == 200
    assert {"Take": "NaN"} in [move["Move"] for move in response.json()["Moves"]]


def test_refused_moves_are_stored_short_and_at_most_ten_per_turn(start_server, bots):
    server = start_server(move_time_ms=5000)

    async def main() -> int:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            answer = await alice.offer(1, OpponentId="housebot-practise", wait=5000)
            key = answer["PlayerKey"]
            while not answer["GameState"]["IsMover"]:
                answer = await alice.poll(key, 5000)
            for _ in range(15):
                refused = await alice.move(key, {"Lay": "q" * 20_000})
                assert refused["Result"] == "INVALID_MOVE" and len(refused["ErrorMessage"]) < 400
            return int(answer["GameState"]["GameId"])

    game_id = asyncio.run(main())
    record = httpx.get(f"{server.base}/games/{game_id}").json()  # the match is still running: summary only
    assert record["Redacted"]
    rows = server.app.state.records.db.execute("SELECT move FROM moves WHERE game_id=? AND applied=0", (game_id,))
    stored = [row["move"] for row in rows]
    assert len(stored) == 10
    assert all(len(text) < 700 and json.loads(text)["Chars"] > 20_000 for text in stored)


# --- money -------------------------------------------------------------------------------------------


def test_stakes_are_held_at_the_offer_so_no_balance_goes_negative(start_server, bots):
    server = start_server()
    server.app.state.accounts.set_bot("eve", balance=25)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            eve = ArenaBot(client, server.prod, "eve", bots["eve"])
            first = await eve.offer(STAKED, DontPlayAgainstSameBot=True)
            second = await eve.offer(STAKED, DontPlayAgainstSameBot=True)
            assert first["Result"] == second["Result"] == "WAITING_FOR_GAME"
            assert balance(server, "eve") == 5  # two stakes of 10 held
            third = await eve.offer(STAKED, DontPlayAgainstSameBot=True)
            assert third["Result"] == "INSUFFICIENT_BALANCE" and "held" in third["ErrorMessage"]
            cancel = await eve.call("CancelGameOffer", PlayerKey=first["PlayerKey"])
            assert cancel["Result"] == "SUCCESS" and balance(server, "eve") == 15

    asyncio.run(main())
    server.stop()  # the waiting offer is gone with the server: its stake goes back
    assert Accounts(Records(server.settings.db_path).db).get("eve").balance == 25


def test_after_a_kill_the_restarted_server_refunds_aborted_matches_and_waiting_offers(start_server, bots, tmp_path):
    db = tmp_path / "records.sqlite3"
    port = _free_port()
    command = [sys.executable, "-m", "server", "serve", "--port", str(port), "--db", str(db), "--log-level", "warning"]
    killed = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    prod = f"http://127.0.0.1:{port}/prod/"

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice, bob, eve = (ArenaBot(client, prod, name, bots[name]) for name in ("alice", "bob", "eve"))
            deadline = time.monotonic() + 30
            while True:
                try:
                    await alice.call("GetListOfGameStyles")
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "serve did not come up"
                    await asyncio.sleep(0.2)
            assert (await alice.offer(STAKED))["Result"] == "WAITING_FOR_GAME"
            assert (await bob.offer(STAKED, wait=5000))["Result"] == "SUCCESS"  # a match with 2 x 10 staked
            assert (await eve.offer(STAKED, DontPlayAgainstSameBot=True))["Result"] == "WAITING_FOR_GAME"

    try:
        asyncio.run(main())
    finally:
        killed.send_signal(signal.SIGKILL)  # no shutdown code runs
        killed.wait(timeout=20)
    accounts = Accounts(Records(db).db)
    assert [accounts.get(name).balance for name in ("alice", "bob", "eve")] == [990, 990, 990]
    again = start_server()
    assert httpx.get(f"{again.base}/games").json()["Games"][0]["Status"] == "ABORTED"
    assert [balance(again, name) for name in ("alice", "bob", "eve")] == [1000, 1000, 1000]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_match_aborted_by_a_clean_stop_refunds_both_stakes(start_server, bots):
    server = start_server(move_time_ms=60_000)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            await alice.offer(STAKED)
            assert (await bob.offer(STAKED, wait=5000))["Result"] == "SUCCESS"

    asyncio.run(main())
    assert balance(server, "alice") == balance(server, "bob") == 990
    server.stop()
    accounts = Accounts(Records(server.settings.db_path).db)
    assert accounts.get("alice").balance == accounts.get("bob").balance == 1000


# --- the lobby -----------------------------------------------------------------------------------------


def test_an_offer_whose_owner_stops_polling_expires_and_is_never_matched(start_server, bots):
    server = start_server(offer_idle_expiry_s=0.5)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            crashed = await alice.offer(STAKED)  # and alice never calls again
            assert balance(server, "alice") == 990
            waited = time.monotonic() + 60  # generous: on a busy machine the sweep may come late
            while balance(server, "alice") != 1000 and time.monotonic() < waited:
                await asyncio.sleep(0.2)
            assert balance(server, "alice") == 1000  # expired: the stake is back
            fresh = await bob.offer(STAKED, wait=300)
            assert fresh["Result"] == "WAITING_FOR_GAME"  # not paired with the crashed offer
            gone = await alice.poll(crashed["PlayerKey"])
            assert gone["Result"] == "INVALID_PLAYER_KEY" and "expired" in gone["ErrorMessage"]

    asyncio.run(main())


def test_a_bot_may_hold_only_a_few_waiting_offers(start_server, bots):
    server = start_server(max_offers_per_bot=3)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            answers = [await alice.offer(1, DontPlayAgainstSameBot=True) for _ in range(4)]
            assert [answer["Result"] for answer in answers[:3]] == ["WAITING_FOR_GAME"] * 3
            assert "already has 3 offers waiting" in answers[3]["ErrorMessage"]
            assert len(server.app.state.referee.lobby) == 3

    asyncio.run(main())


def test_a_dropped_long_poll_frees_its_seat_at_once(start_server, bots):
    server = start_server()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            key = (await alice.offer(1))["PlayerKey"]
            # A long poll whose client goes away after 0.2 s of its 5 s wait (only the read times out: a
            # starved machine must not turn the connect or the write into the timeout instead).
            sent = time.monotonic()
            with pytest.raises(httpx.ReadTimeout):
                await client.post(
                    server.prod + "GM-PollForGameState",
                    json={**creds(bots, "alice"), "PlayerKey": key, "MaximumWaitTime": 5000},
                    timeout=httpx.Timeout(30, read=0.2),
                )
            # The server notices the drop when it gets to it, which a loaded machine may delay: ask again
            # while the seat is still held, until 4.5 s after the poll was sent. The poll began on the server
            # after that, so its own 5 s cannot have ended: a SUCCESS means the drop freed the seat.
            while True:
                cancel = await alice.call("CancelGameOffer", PlayerKey=key)
                if cancel["Result"] != "CALL_ALREADY_IN_PROCESS" or time.monotonic() > sent + 4.5:
                    break
                await asyncio.sleep(0.05)
            assert cancel["Result"] == "SUCCESS", cancel  # not CALL_ALREADY_IN_PROCESS

    asyncio.run(main())


# --- logins ---------------------------------------------------------------------------------------------


def test_failed_logins_are_throttled_per_bot_and_per_address():
    now = [0.0]
    throttle = FailureThrottle(clock=lambda: now[0])
    for _ in range(int(PER_BOT.capacity)):
        assert throttle.wait_s("alice", "10.0.0.1") == 0
        throttle.failed("alice", "10.0.0.1")
    assert throttle.wait_s("alice", "10.0.0.1") > 0  # the BotId is throttled from the failing address
    assert throttle.wait_s("alice", "10.0.5.2") == 0  # not from elsewhere: a guesser cannot lock alice out
    assert throttle.wait_s("bob", "10.0.0.1") == 0  # another bot from that address is not, yet
    for index in range(int(PER_ADDRESS.capacity)):
        throttle.failed(f"guess-{index}", "10.0.0.9")
    assert throttle.wait_s("carol", "10.0.0.9") > 0  # the address is throttled for every BotId
    now[0] += 1 / PER_BOT.refill_per_s
    assert throttle.wait_s("alice", "10.0.0.1") == 0  # the bucket refills


def test_a_login_flood_is_refused_fast_and_a_bot_that_logged_in_still_plays(start_server, bots):
    server = start_server()
    good = server.call("GetListOfGameStyles", creds(bots, "alice")).json()
    assert good["Result"] == "SUCCESS"
    answers = [
        server.call("GetListOfGameStyles", {"BotId": "alice", "BotPassword": f"guess-{n}"}).json() for n in range(12)
    ]
    assert all(answer["Result"] == "INVALID_LOGIN_OR_PASSWORD" for answer in answers)
    assert any("too many failed logins" in answer["ErrorMessage"] for answer in answers)
    # The real password was verified before: its cached success needs no hashing and is not throttled.
    assert server.call("GetListOfGameStyles", creds(bots, "alice")).json()["Result"] == "SUCCESS"


def test_unknown_and_known_bot_ids_cost_the_same_hashing(start_server, bots, monkeypatch):
    import server.accounts as accounts_module

    server = start_server()
    costs: list[int] = []
    real = accounts_module.hash_password

    def counting(password: str, salt: bytes, iterations: int) -> bytes:
        costs.append(iterations)
        return real(password, salt, iterations)

    monkeypatch.setattr(accounts_module, "hash_password", counting)
    server.call("GetListOfGameStyles", {"BotId": "alice", "BotPassword": "wrong"})
    server.call("GetListOfGameStyles", {"BotId": "nobody-by-this-name", "BotPassword": "wrong"})
    assert costs == [FAST_HASH, FAST_HASH]  # the test bots' iteration count, for both


def test_password_checks_run_off_the_pool_house_bots_think_in(start_server, bots, monkeypatch):
    import server.accounts as accounts_module

    server = start_server()
    threads: list[str] = []
    real = accounts_module.hash_password

    def recording(password: str, salt: bytes, iterations: int) -> bytes:
        threads.append(threading.current_thread().name)
        return real(password, salt, iterations)

    monkeypatch.setattr(accounts_module, "hash_password", recording)
    server.call("GetListOfGameStyles", {"BotId": "bob", "BotPassword": "wrong"})
    assert threads and all(name.startswith("password-check") for name in threads)


# --- the oracle and shutdown ------------------------------------------------------------------------------


def test_the_oracle_tells_nothing_about_the_deck(start_server, bots):
    server = start_server(oracle=True)

    async def main() -> dict[str, object]:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            return (await alice.offer(1, OpponentId="housebot-practise", wait=5000))["GameState"]

    state = asyncio.run(main())
    labels = httpx.get(f"{server.base}/oracle/labels/{state['GameId']}").json()
    live = server.app.state.referee.live[state["GameId"]]
    deck_ids = {card.id for card in live.match.current.deck}
    assert [int(card_id) for card_id in labels] == sorted(int(card_id) for card_id in labels)
    assert not deck_ids & {int(card_id) for card_id in labels}


def test_shutdown_wakes_long_polls_and_ends_matches_aborted_not_on_time(start_server, bots):
    server = start_server(move_time_ms=10_000)
    polls: list[float] = []

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            key = (await alice.offer(1))["PlayerKey"]
            await bob.offer(1, wait=5000)  # matched: someone is to move, and nobody will
            started = time.monotonic()
            stopper = threading.Timer(0.3, server.stop)
            stopper.start()
            # alice's long poll: answered when the server begins to stop, not after its full 5 s.
            # The answer may be cut off by the closing server; what matters is when and how the match ended.
            with contextlib.suppress(httpx.HTTPError, AssertionError):
                await alice.poll(key, 5000)
            polls.append(time.monotonic() - started)
            stopper.join()

    asyncio.run(main())
    game = Records(server.settings.db_path).list_matches()[0]
    assert game["Status"] == "ABORTED" and game["EndReason"] == "aborted"  # the 10 s deadline did not fire
    assert polls[0] < 4.5  # woken by the shutdown, not after the poll's 5 s
