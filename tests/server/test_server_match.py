"""Complete matches between HTTP clients, the oracle and house bots."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

import httpx
from server_testkit import ArenaBot, LiveServer

from rummy import CardLabel
from server import house_agents, house_seats
from strategies.agent import ArenaAgent
from strategies.registry import get_strategy
from strategies.search import SearchResult
from strategies.search_strategies import SearchStrategy


async def _two_bots_play(server: LiveServer, bots: dict[str, str], style: int) -> tuple[Any, Any]:
    async with httpx.AsyncClient(timeout=30) as client:
        alice = ArenaBot(client, server.prod, "alice", bots["alice"])
        bob = ArenaBot(client, server.prod, "bob", bots["bob"])
        return tuple(await asyncio.gather(alice.play(style, random.Random(1)), bob.play(style, random.Random(2))))  # type: ignore[return-value]


def test_two_http_clients_play_a_five_round_match_to_the_end(start_server, bots):
    server = start_server()
    first, second = asyncio.run(_two_bots_play(server, bots, style=2))
    # Five rounds, each won by someone: the match cannot be drawn.
    assert {first.final["GameStatus"], second.final["GameStatus"]} == {"WON", "LOST"}
    assert {first.final["MyScore"], first.final["OppScore"]} in ({3, 2}, {4, 1}, {5, 0})
    assert first.final["GameId"] == second.final["GameId"]
    assert first.final["MyScore"] + first.final["OppScore"] == 5
    assert first.final["RemainingRounds"] == 0
    assert first.final["OpponentId"] == "bob" and second.final["OpponentId"] == "alice"
    record = httpx.get(f"{server.base}/games/{first.final['GameId']}").json()
    assert record["Status"] == "FINISHED" and record["EndReason"] == "completed"
    assert len(record["Rounds"]) == 5
    applied = [move for move in record["Moves"] if move["Applied"]]
    assert len(applied) == first.moves + second.moves
    # Every round's deal is recorded with its deck order and labels.
    for played in record["Rounds"]:
        cards = played["Hands"][0] + played["Hands"][1] + played["Deck"]
        assert len(cards) == 40 and len(played["Deck"]) == 20
        assert {card["Landmark"] for card in cards} == set(played["Landmarks"])


class OracleRecognizer:
    """Labels cards with the server's oracle, as local bot-vs-bot matches do."""

    name = "oracle"

    def __init__(self, base: str, game_id: int) -> None:
        self.url = f"{base}/oracle/labels/{game_id}"

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        labels = httpx.get(self.url).json()
        return {card_id: CardLabel(labels[str(card_id)], 1.0) for card_id, _url in cards}


async def _agent_plays(bot: ArenaBot, strategy: str, **offer: Any) -> dict[str, Any]:
    answer = await bot.offer(1, wait=5000, **offer)
    key = answer["PlayerKey"]
    while answer["Result"] == "WAITING_FOR_GAME":
        answer = await bot.poll(key, 5000)
    state = answer["GameState"]
    base = state["MyHand"][0][1].split("/cards/")[0]
    agent = ArenaAgent(get_strategy(strategy), OracleRecognizer(base, state["GameId"]))
    while state["GameStatus"] == "RUNNING":
        if state["IsMover"]:
            move = await asyncio.to_thread(agent.calculate_move, state)
            answer = await bot.move(key, move)
        else:
            answer = await bot.poll(key, 5000)
        assert answer["Result"] == "SUCCESS", answer
        state = answer["GameState"]
    return state


def test_strategies_with_oracle_labels_play_over_http(start_server, bots):
    server = start_server(oracle=True)

    async def main() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=30) as client:
            alice = ArenaBot(client, server.prod, "alice", bots["alice"])
            bob = ArenaBot(client, server.prod, "bob", bots["bob"])
            return await asyncio.gather(_agent_plays(alice, "greedy"), _agent_plays(bob, "random"))

    finals = asyncio.run(main())
    # One round always has a winner (ties go to the second mover): never DRAWN.
    assert sorted(state["GameStatus"] for state in finals) == ["LOST", "WON"]
    assert finals[0]["GameId"] == finals[1]["GameId"]


def test_the_quick_house_bots_play_whole_matches(start_server, bots):
    # The expert has its own test below, at the style's full move time: squeezed into 1 s moves on a
    # loaded machine it could miss a deadline, which is not what this test is about. The quick ones, and
    # alice and bob, get minute-long moves too: 1 s moves could run out on a starved machine.
    server = start_server(move_time_ms=60_000)

    async def main() -> list[Any]:
        async with httpx.AsyncClient(timeout=30) as client:
            players = [
                ArenaBot(client, server.prod, name, bots[name]).play(1, random.Random(index), OpponentId=house)
                for index, (name, house) in enumerate([("alice", "housebot-practise"), ("bob", "housebot-greedy")])
            ]
            return await asyncio.gather(*players)

    results = asyncio.run(main())
    for played, house in zip(results, ["housebot-practise", "housebot-greedy"], strict=True):
        assert played.final["OpponentId"] == house
        assert played.final["GameStatus"] in {"WON", "LOST"}  # one round: never drawn
    games = httpx.get(f"{server.base}/games").json()["Games"]
    assert {game["EndReason"] for game in games} == {"completed"}


def test_the_expert_house_bot_plays_searched_moves_not_fallbacks(start_server, bots, monkeypatch):
    # The expert could lose every decision to its safe fallback (a Give of its first card) and still
    # finish matches; this checks that each of its moves is the searcher's answer, searched at least
    # one turn deep, and that the referee never sent a fallback for it. Under a time budget the depth
    # reached depends on the machine: a fresh-clone run beside CPU burners once got a depth-0 answer
    # with the 5 s style (the deadline was spent before the search began). So the expert's searcher
    # runs under a node budget (no exact solve: its kernel warm-up would block the server's loop), and
    # the moves get a minute each, which no loaded machine spends before the search starts.
    decisions: list[tuple[dict[str, Any], SearchResult | None, int]] = []
    fallbacks: list[dict[str, Any]] = []
    monkeypatch.setitem(
        house_agents.HOUSE_BOTS,
        "housebot-expert",
        lambda: get_strategy(house_agents.expert_strategy_name(), nodes=20_000, exact_solve=False),
    )

    def recording_agent(name: str, landmark_of_url: Any) -> ArenaAgent:
        agent = house_agents.house_agent(name, landmark_of_url)
        plain = agent.calculate_move

        def calculate_move(gamestate: dict[str, Any]) -> dict[str, Any]:
            move = plain(gamestate)
            strategy = agent.strategy
            assert isinstance(strategy, SearchStrategy)
            decisions.append((move, strategy.last, len(agent.tracker.count_state().legal_moves())))
            return move

        agent.calculate_move = calculate_move  # type: ignore[method-assign]
        return agent

    def counted_fallback(gamestate: dict[str, Any]) -> dict[str, Any]:
        fallbacks.append(gamestate)
        return house_agents.fallback_move(gamestate)

    monkeypatch.setattr(house_seats, "house_agent", recording_agent)
    monkeypatch.setattr(house_seats, "fallback_move", counted_fallback)
    server = start_server(move_time_ms=60_000)

    async def main() -> Any:
        async with httpx.AsyncClient(timeout=30) as client:
            eve = ArenaBot(client, server.prod, "eve", bots["eve"])
            return await eve.play(1, random.Random(5), OpponentId="housebot-expert")

    final = asyncio.run(main()).final
    assert final["GameStatus"] in {"WON", "LOST"}
    assert fallbacks == []
    assert decisions, "the expert never moved"
    for _move, result, legal in decisions:
        if legal > 1:  # with one legal move there is nothing to search
            assert result is not None and result.depth >= 1
    record = httpx.get(f"{server.base}/games/{final['GameId']}").json()
    expert_moves = [move["Move"] for move in record["Moves"] if move["Applied"] and move["Bot"] == "housebot-expert"]
    assert expert_moves == [move for move, _result, _legal in decisions]
