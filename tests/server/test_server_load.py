"""Load: 50 matches at once between random HTTP bots all complete, every move recorded exactly once."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter

import httpx
import pytest
from server_testkit import ArenaBot, register_bots

MATCHES = 50


@pytest.mark.slow
def test_fifty_matches_at_once_complete_without_error_answers(start_server, tmp_path):
    db_path = tmp_path / "records.sqlite3"
    names = [f"loadbot-{index:03d}" for index in range(2 * MATCHES)]
    passwords = register_bots(db_path, {name: name for name in names})
    server = start_server()

    async def main() -> list[ArenaBot]:
        # One client per bot, as separate bot processes would have: a single httpx pool shared by 100
        # long-polling bots costs the client so much CPU that the bots themselves miss deadlines.
        clients = [httpx.AsyncClient(timeout=60) for _ in names]
        try:
            players = [
                ArenaBot(client, server.prod, name, passwords[name])
                for client, name in zip(clients, names, strict=True)
            ]
            results = await asyncio.gather(
                *(player.play(1, random.Random(index)) for index, player in enumerate(players))
            )
        finally:
            await asyncio.gather(*(client.aclose() for client in clients))
        for player, played in zip(players, results, strict=True):
            player.played = played  # type: ignore[attr-defined]
        return players

    players = asyncio.run(main())
    answers = [answer["Result"] for player in players for answer in player.answers]
    assert set(answers) <= {"SUCCESS", "WAITING_FOR_GAME"}, Counter(answers)
    moves_by_game: Counter[int] = Counter()
    for player in players:
        final = player.played.final  # type: ignore[attr-defined]
        assert final["GameStatus"] in {"WON", "LOST"}  # one round: never drawn
        moves_by_game[final["GameId"]] += player.played.moves  # type: ignore[attr-defined]
    assert len(moves_by_game) == MATCHES

    db = sqlite3.connect(db_path)
    try:
        recorded = dict(db.execute("SELECT game_id, COUNT(*) FROM moves WHERE applied=1 GROUP BY game_id"))
        refused = db.execute("SELECT COUNT(*) FROM moves WHERE applied=0").fetchone()[0]
        statuses = Counter(row[0] for row in db.execute("SELECT status FROM matches"))
    finally:
        db.close()
    assert recorded == dict(moves_by_game)
    assert refused == 0
    assert statuses == {"FINISHED": MATCHES}
