"""Every Result code of the protocol, reached over HTTP, and the matchmaking rules."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from server_testkit import ArenaBot

from rummy import CountState
from server import house_seats
from server.accounts import Accounts, BotStatus
from server.house_agents import HOUSE_BOTS
from server.storage.records import connect


def _set_bot(db_path, name: str, **changes: Any) -> None:
    db = connect(db_path)
    try:
        Accounts(db).set_bot(name, **changes)
    finally:
        db.close()


def _other_id(state: dict[str, Any]) -> int:
    return state["OppHand"][0][0]


async def _matched_pair(client: httpx.AsyncClient, server, bots, style: int = 1):
    alice = ArenaBot(client, server.prod, "alice", bots["alice"])
    bob = ArenaBot(client, server.prod, "bob", bots["bob"])
    waiting = await alice.offer(style)
    assert waiting["Result"] == "WAITING_FOR_GAME" and waiting["PlayerKey"]
    matched = await bob.offer(style)
    assert matched["Result"] == "SUCCESS"
    first = await alice.poll(waiting["PlayerKey"])
    assert first["Result"] == "SUCCESS"
    seats = {
        "alice": (alice, waiting["PlayerKey"], first["GameState"]),
        "bob": (bob, matched["PlayerKey"], matched["GameState"]),
    }
    mover = next(name for name, seat in seats.items() if seat[2]["IsMover"])
    other = "bob" if mover == "alice" else "alice"
    return seats[mover], seats[other]


def test_every_result_code_is_reachable(start_server, bots, tmp_path):
    server = start_server()
    db_path = tmp_path / "records.sqlite3"
    seen: set[str] = set()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            styles = await alice.call("GetListOfGameStyles", GameTypeId=None)
            assert styles["Result"] == "SUCCESS" and styles["Balance"] == 1000
            infos = {style["GameStyleId"]: style["GameTypeSpecificInfo"] for style in styles["GameStyles"]}
            assert infos[1] == {"Rounds": 1, "MoveTimeMs": 5000}
            assert infos[2] == {"Rounds": 5, "MoveTimeMs": 5000}
            assert infos[3] == {"Rounds": 1, "MoveTimeMs": 500}
            # The styles for people (the /play page): two minutes a move, and a day a move ("no limit").
            assert infos[5] == {"Rounds": 1, "MoveTimeMs": 120_000}
            assert infos[6] == {"Rounds": 3, "MoveTimeMs": 120_000}
            assert infos[7] == {"Rounds": 1, "MoveTimeMs": 86_400_000}
            assert infos[8] == {"Rounds": 7, "MoveTimeMs": 5000}  # the arena's 7-round style
            seen.add(styles["Result"])

            wrong = ArenaBot(client, server.prod, "alice", "not-the-password")
            refused = await wrong.call("GetListOfGameStyles", GameTypeId=None)
            assert refused["Result"] == "INVALID_LOGIN_OR_PASSWORD"
            unknown_opponent = await alice.offer(1, OpponentId="nobody")
            assert unknown_opponent == {
                "Result": "INVALID_LOGIN_OR_PASSWORD",
                "ErrorMessage": "Check of OpponentId failed",
            }
            seen.add(refused["Result"])

            eve = ArenaBot(client, server.prod, "eve", bots["eve"])
            _set_bot(db_path, "eve", status=BotStatus.SUSPENDED)
            seen.add((await eve.offer(1))["Result"])
            _set_bot(db_path, "eve", status=BotStatus.INACTIVE)
            seen.add((await eve.call("GetListOfGameStyles", GameTypeId=15))["Result"])
            _set_bot(db_path, "eve", status=BotStatus.ACTIVE, balance=5)
            seen.add((await eve.offer(4))["Result"])  # the staked style needs 10

            waiting = await alice.offer(1)
            key = waiting["PlayerKey"]
            seen.add(waiting["Result"])
            long_poll = asyncio.create_task(alice.poll(key, 1500))
            await asyncio.sleep(0.2)
            busy = await alice.poll(key, 0)
            seen.add(busy["Result"])
            assert (await long_poll)["Result"] == "WAITING_FOR_GAME"
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            seen.add((await bob.poll(key))["Result"])  # alice's key in bob's hands
            assert (await alice.call("CancelGameOffer", PlayerKey=key))["Result"] == "SUCCESS"

            (mover, mover_key, state), (other, other_key, _) = await _matched_pair(client, server, bots)
            seen.add((await other.move(other_key, {"Give": 1}))["Result"])
            invalid = await mover.move(mover_key, {"Lay": [state["MyHand"][0][0]]})
            assert "Lay needs 3 to 5 ids" in invalid["ErrorMessage"]
            seen.add(invalid["Result"])
            seen.add((await mover.call("CancelGameOffer", PlayerKey=mover_key))["Result"])
        return None

    asyncio.run(main())
    expected = {
        "SUCCESS",
        "INVALID_LOGIN_OR_PASSWORD",
        "BOT_IS_SUSPENDED",
        "BOT_IS_INACTIVE",
        "INSUFFICIENT_BALANCE",
        "WAITING_FOR_GAME",
        "CALL_ALREADY_IN_PROCESS",
        "INVALID_PLAYER_KEY",
        "NOT_YOUR_MOVE",
        "INVALID_MOVE",
        "GAME_ALREADY_STARTED",
    }
    assert seen == expected  # GAME_HAS_ENDED: test_the_end_is_told_once_then_game_has_ended


def test_the_end_is_told_once_then_game_has_ended(start_server, bots):
    server = start_server(move_time_ms=400)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            (mover, mover_key, _), (other, other_key, _) = await _matched_pair(client, server, bots)
            # The mover never moves: the server's own timer ends the match.
            told = await other.poll(other_key, 5000)
            assert told["Result"] == "SUCCESS" and told["GameState"]["GameStatus"] == "WON_BY_TIMEOUT"
            again = await other.poll(other_key, 0)
            assert again["Result"] == "GAME_HAS_ENDED" and again["GameState"]["GameStatus"] == "WON_BY_TIMEOUT"
            # A move after the end is not played, and says so as the arena does (never SUCCESS).
            late = await mover.move(mover_key, {"Give": 1})
            assert late["Result"] == "GAME_HAS_ENDED" and late["GameState"]["GameStatus"] == "LOST_BY_TIMEOUT"
            assert "not played" in late["ErrorMessage"]
            later = await mover.move(mover_key, {"Give": 1})
            assert later["Result"] == "GAME_HAS_ENDED"
            cancel = await mover.call("CancelGameOffer", PlayerKey=mover_key)
            assert cancel["Result"] == "GAME_HAS_ENDED"
            game = httpx.get(f"{server.base}/games/{told['GameState']['GameId']}").json()
            assert game["EndReason"] == "timeout" and game["Status"] == "FINISHED"
            assert [move["Result"] for move in game["Moves"]] == ["GAME_HAS_ENDED", "GAME_HAS_ENDED"]
            assert not any(move["Applied"] for move in game["Moves"])

    asyncio.run(main())


def test_invalid_moves_change_nothing_and_the_mover_may_retry(start_server, bots):
    server = start_server()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            (mover, key, state), _ = await _matched_pair(client, server, bots)
            mine = [card[0] for card in state["MyHand"]]
            bad_moves = [
                ({"Lay": mine[:2]}, "Lay needs"),
                ({"Lay": [mine[0], mine[0], mine[1]]}, "repeats"),
                ({"Take": mine[0]}, "not in the opponent's hand"),
                ({"Give": _other_id(state)}, "not in the mover's hand"),
                ({"Give": "12"}, "integer card id"),
                ({"Give": True}, "integer card id"),
                ({"Pass": 1}, "unknown move"),
                ({"Take": 1, "Give": 2}, "exactly one key"),
                ([1, 2, 3], "JSON object"),
                (None, "JSON object"),
                ("{not json", "not valid JSON"),
            ]
            for move, reason in bad_moves:
                refused = await mover.move(key, move)
                assert refused["Result"] == "INVALID_MOVE", move
                assert reason in refused["ErrorMessage"], (move, refused["ErrorMessage"])
                assert refused["GameState"]["MyHand"] == state["MyHand"]
                assert refused["GameState"]["IsMover"] is True
            accepted = await mover.move(key, f'{{"Give": {mine[0]}}}')  # a Move sent as a JSON string
            assert accepted["Result"] == "SUCCESS" and accepted["GameState"]["IsMover"] is False

    asyncio.run(main())


def test_matchmaking_honours_opponent_id_same_bot_same_user_and_cancel(start_server, bots):
    server = start_server()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            named = {name: ArenaBot(client, server.prod, name, password) for name, password in bots.items()}
            # carol waits for alice only: bob's offer is not paired with her.
            carol_offer = await named["carol"].offer(1, OpponentId="alice")
            bob_offer = await named["bob"].offer(1)
            assert bob_offer["Result"] == "WAITING_FOR_GAME"
            # alice comes: first come first served would give her carol (older), and carol asked for her.
            alice_game = await named["alice"].offer(1)
            assert alice_game["Result"] == "SUCCESS" and alice_game["GameState"]["OpponentId"] == "carol"
            carol_game = await named["carol"].poll(carol_offer["PlayerKey"], 0)
            assert carol_game["GameState"]["OpponentId"] == "alice"
            # dave is carol's team mate: with DontPlayAgainstSameUser he skips nobody else here, pairs with bob.
            dave_game = await named["dave"].offer(1, DontPlayAgainstSameUser=True)
            assert dave_game["GameState"]["OpponentId"] == "bob"

            # Same user: carol and dave never meet when either asks.
            carol2 = await named["carol"].offer(3, DontPlayAgainstSameUser=True)
            dave2 = await named["dave"].offer(3)
            assert (carol2["Result"], dave2["Result"]) == ("WAITING_FOR_GAME", "WAITING_FOR_GAME")
            # Same bot: eve's two offers pair only without the flag.
            eve1 = await named["eve"].offer(2, DontPlayAgainstSameBot=True)
            eve2 = await named["eve"].offer(2)
            assert eve2["Result"] == "WAITING_FOR_GAME"
            # Cancelled offers are never paired; first come first served among the rest.
            assert (await named["eve"].call("CancelGameOffer", PlayerKey=eve1["PlayerKey"]))["Result"] == "SUCCESS"
            cancelled_poll = await named["eve"].poll(eve1["PlayerKey"], 0)
            assert cancelled_poll["Result"] == "INVALID_PLAYER_KEY"
            bob2 = await named["bob"].offer(2)
            assert bob2["Result"] == "SUCCESS" and bob2["GameState"]["OpponentId"] == "eve"
            alice3 = await named["alice"].offer(3)
            assert alice3["GameState"]["OpponentId"] == "carol"  # carol offered style 3 before dave

    asyncio.run(main())


def test_house_bot_opponent_matches_at_once(start_server, bots):
    server = start_server()
    body = {
        "BotId": "alice",
        "BotPassword": bots["alice"],
        "MaximumWaitTime": 0,
        "GameStyleId": 1,
        "DontPlayAgainstSameUser": True,
        "DontPlayAgainstSameBot": True,
        "OpponentId": "housebot-practise",
    }
    answer = server.call("OfferGame", body).json()
    assert list(answer) == ["Result", "PlayerKey", "GameState"]
    assert answer["Result"] == "SUCCESS" and answer["GameState"]["OpponentId"] == "housebot-practise"


class _Sluggish:
    """A strategy that thinks for 4 s, longer than the test's 3 s move time."""

    name = "sluggish"

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        time.sleep(4)
        return state.legal_moves()[0]


def test_a_slow_house_bot_still_moves_before_its_deadline(start_server, bots, monkeypatch):
    # The referee does not wait for a house bot's thinking past its deadline minus a margin: a safe
    # move goes out instead, and while the thread is still busy the next turns get safe moves too.
    monkeypatch.setitem(HOUSE_BOTS, "housebot-sluggish", _Sluggish)
    # The safe move goes out HOUSE_SAFETY_S before the deadline; 0.1 s left a starved server too little to
    # send it in time. 0.6 s is the most a 3 s move allows (move time / 5); the 4 s thinking still overruns.
    monkeypatch.setattr(house_seats, "HOUSE_SAFETY_S", 0.6)
    server = start_server(move_time_ms=3000)  # time enough for alice on a busy machine

    async def main() -> dict:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            played = await alice.play(3, random.Random(1), OpponentId="housebot-sluggish")
            return played.final

    final = asyncio.run(main())
    assert final["GameStatus"] in ("WON", "LOST"), final  # nobody lost on time; one round is never drawn
    record = httpx.get(f"{server.base}/games/{final['GameId']}").json()
    assert record["EndReason"] == "completed"
