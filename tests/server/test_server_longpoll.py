"""Long polls answer early on news and on time otherwise; deadlines are the server's own."""

from __future__ import annotations

import asyncio
import time

import httpx
from server_testkit import ArenaBot, paired


def test_poll_returns_early_when_a_match_is_found(start_server, bots):
    server = start_server()

    async def main() -> float:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            key = (await alice.offer(1))["PlayerKey"]
            started = time.monotonic()
            poll = asyncio.create_task(alice.poll(key, 5000))
            await asyncio.sleep(0.3)
            await bob.offer(1)
            answer = await poll
            assert answer["Result"] == "SUCCESS" and answer["GameState"]["OpponentId"] == "bob"
            return time.monotonic() - started

    assert asyncio.run(main()) < 4.5  # before the 5 s the poll allowed (the most a poll may ask), on any load


def test_offer_game_itself_waits_for_an_opponent(start_server, bots):
    server = start_server()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            offer = asyncio.create_task(alice.offer(1, wait=5000))
            await asyncio.sleep(0.3)
            bob_answer = await bob.offer(1)
            alice_answer = await offer
            assert alice_answer["Result"] == bob_answer["Result"] == "SUCCESS"
            assert alice_answer["GameState"]["GameId"] == bob_answer["GameState"]["GameId"]
            assert alice_answer["GameState"]["IsMover"] != bob_answer["GameState"]["IsMover"]

    asyncio.run(main())


def test_poll_waits_its_time_without_news_and_returns_on_the_opponents_move(start_server, bots):
    server = start_server()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            mover, waiter = await paired(alice, bob, 1)
            # Nothing new for the waiter: the poll takes its whole time and shows the same state.
            started = time.monotonic()
            quiet = await waiter[0].poll(waiter[1], 600)
            took = time.monotonic() - started
            assert took >= 0.55  # it waited (an upper bound would only measure the machine)
            assert quiet["Result"] == "SUCCESS" and quiet["GameState"]["IsMover"] is False
            # A zero wait answers at once (generous: well below the 5 s a poll may wait).
            started = time.monotonic()
            await waiter[0].poll(waiter[1], 0)
            assert time.monotonic() - started < 4.5
            # The opponent's move is news: the poll answers early with the waiter's turn.
            started = time.monotonic()
            poll = asyncio.create_task(waiter[0].poll(waiter[1], 5000))
            await asyncio.sleep(0.3)
            await mover[0].move(mover[1], {"Give": mover[2]["MyHand"][0][0]})
            turn = await poll
            assert time.monotonic() - started < 4.5  # before the poll's 5 s
            assert turn["GameState"]["IsMover"] is True and len(turn["GameState"]["MyHand"]) == 11

    asyncio.run(main())


def test_a_silent_player_loses_by_timeout_and_the_opponents_poll_says_so(start_server, bots):
    server = start_server()  # style 3: 500 ms per move

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            before = time.time() * 1000
            silent, waiter = await paired(alice, bob, 3)
            after = time.time() * 1000
            deadline = silent[2]["ResponseDeadline"]
            assert before + 500 - 2 <= deadline <= after + 500 + 2  # 500 ms from the pairing, on the server's clock
            assert waiter[2]["ResponseDeadline"] == deadline
            started = time.monotonic()
            told = await waiter[0].poll(waiter[1], 5000)
            assert time.monotonic() - started < 4.5  # the timeout ended the poll, not its 5 s
            assert told["Result"] == "SUCCESS" and told["GameState"]["GameStatus"] == "WON_BY_TIMEOUT"
            loser = await silent[0].poll(silent[1], 0)
            assert loser["Result"] == "SUCCESS" and loser["GameState"]["GameStatus"] == "LOST_BY_TIMEOUT"
            assert loser["GameState"]["IsMover"] is False and loser["GameState"]["RemainingRounds"] == 0

    asyncio.run(main())


def test_a_slow_mover_times_out_in_the_middle_of_a_match(start_server, bots):
    # 3 s moves, not the style's 500 ms: the pairing round trips and the first move must land in time on a
    # loaded machine; the second mover then sleeps past its deadline whatever the machine's speed.
    server = start_server(move_time_ms=3000)

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            first, second = await paired(alice, bob, 3)
            moved = await first[0].move(first[1], {"Give": first[2]["MyHand"][0][0]})
            assert moved["Result"] == "SUCCESS"
            turn = await second[0].poll(second[1], 5000)
            assert turn["GameState"]["IsMover"] is True
            await asyncio.sleep(3.5)  # past the 3 s deadline, which started before the poll answered
            late = await second[0].move(second[1], {"Give": turn["GameState"]["MyHand"][0][0]})
            assert late["GameState"]["GameStatus"] == "LOST_BY_TIMEOUT"
            winner = await first[0].poll(first[1], 0)
            assert winner["GameState"]["GameStatus"] == "WON_BY_TIMEOUT"

    asyncio.run(main())
