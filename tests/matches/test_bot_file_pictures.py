"""A user's bot file that looks at its pictures plays the same moves in process as over a server."""

from __future__ import annotations

from pathlib import Path

from bot.matches.local_match import Contender, play_round
from bot.matches.server_admin import ServerAdmin
from bot.matches.server_match import play_over_server
from server.embedded import EmbeddedServer
from server.settings import Settings

PICTURE_BOT = str(Path(__file__).parents[2] / "fixtures" / "bots" / "picture_matcher.py")
MOVE_TIME_MS = 60_000  # the bot fetches and draws its pictures on a busy machine: time is no part of this test


def test_a_picture_bot_plays_the_same_moves_in_process_and_over_a_server(tmp_path):
    contenders = (Contender(PICTURE_BOT), Contender("greedy"))
    db = tmp_path / "records.sqlite3"
    settings = Settings(db_path=db, oracle=True, seed=5, move_time_ms=MOVE_TIME_MS)
    with EmbeddedServer(settings) as server, ServerAdmin.find(server.prod, records=db) as admin:
        over_server = play_over_server(server.prod, contenders, 2, admin=admin)
    assert len(over_server) == 2
    for served, seat_of_bot in over_server:
        seats = contenders if seat_of_bot == 0 else (contenders[1], contenders[0])
        in_process = play_round(served.deal_seed, seats, move_time_ms=MOVE_TIME_MS)
        assert not any(move.fault for move in in_process.moves), [m.fault for m in in_process.moves if m.fault]
        assert not any(move.fault for move in served.moves)
        assert [(m.seat, m.move) for m in in_process.moves] == [(m.seat, m.move) for m in served.moves]
        assert in_process.points == served.points
