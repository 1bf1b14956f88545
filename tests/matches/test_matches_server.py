"""`match --server`: two contenders play over the protocol through a real referee on loopback."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bot.cli import app
from rummy.records import Records
from server.embedded import EmbeddedServer
from server.settings import Settings

FAST_STYLE = 3  # one round, 500 ms per move


def test_match_over_the_protocol_matches_the_server_records(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        arguments = ["match", "greedy", "random", "--server", server.prod, "--db", str(db), "--rounds", "3"]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(FAST_STYLE), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["rounds"] == 3
    records = Records(db)
    try:
        finished = [match for match in records.list_matches() if match["Status"] == "FINISHED"]
    finally:
        records.close()
    assert len(finished) == 3
    wins: dict[str, int] = {}
    for match in finished:
        winner_seat = match["GameStatus"].index("WON") if "WON" in match["GameStatus"] else None
        assert winner_seat is not None, match
        player = match["Players"][winner_seat].rsplit("-", 1)[-1]
        wins[player] = wins.get(player, 0) + 1
    for player in summary["players"]:
        assert player["wins"] == wins.get(player["name"], 0)
        assert player["faults"] == 0 and player["ms_per_move"] > 0


def test_server_mode_refuses_duplicate_deals(tmp_path):
    arguments = ["match", "greedy", "random", "--server", "http://127.0.0.1:9/prod/", "--duplicate"]
    result = CliRunner().invoke(app, [*arguments, "--db", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "duplicate deals need --in-process" in result.output
