"""`match --server`: two contenders play over the protocol through a real referee on loopback."""

from __future__ import annotations

import json

import httpx
from typer.testing import CliRunner

from bot.cli import app
from rummy.records import Records
from server.embedded import EmbeddedServer
from server.settings import Settings

# One round, 5 s per move: the players answer in milliseconds, so this costs no time, while 500 ms
# moves let a loaded machine (label look-ups over HTTP, a busy CPU) turn into a fallback now and then.
ROUND_STYLE = 1


def test_match_over_the_protocol_matches_the_server_records(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        arguments = ["match", "greedy", "random", "--server", server.prod, "--db", str(db), "--rounds", "3"]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE), "--json"])
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
    # The viewer groups the three server matches under one match run, each with its own start time.
    from rummy.records import connect
    from rummy.runs import list_runs, run_detail

    connection = connect(db)
    try:
        (run,) = list_runs(connection)
        detail = run_detail(connection, run["RunId"])
    finally:
        connection.close()
    assert detail is not None and run["Kind"] == "match" and run["Games"] == 3
    assert sorted(game["GameId"] for game in detail["Games"]) == sorted(match["GameId"] for match in finished)
    assert summary["records"]["game_ids"] == [game["GameId"] for game in detail["Games"]]


def test_server_mode_refuses_duplicate_deals(tmp_path):
    arguments = ["match", "greedy", "random", "--server", "http://127.0.0.1:9/prod/", "--duplicate"]
    result = CliRunner().invoke(app, [*arguments, "--db", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "duplicate deals need --in-process" in result.output


def test_no_record_over_the_server_leaves_no_matches_no_viewer_entries_and_no_accounts(tmp_path):
    from server.accounts import Accounts

    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        before = {bot.name for bot in Accounts(server.app.state.records.db).all()}
        arguments = ["match", "greedy", "random", "--server", server.prod, "--db", str(db), "--rounds", "2"]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE), "--no-record", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.strip().splitlines()[-1])["rounds"] == 2
        entries = httpx.get(server.base + "/viewer/api/entries").json()["Entries"]
        after = {bot.name for bot in Accounts(server.app.state.records.db).all()}
    assert entries == []
    assert after == before
    records = Records(db)
    try:
        assert records.list_matches() == []
    finally:
        records.close()


def test_a_recorded_run_over_the_server_keeps_its_matches_but_not_its_throwaway_accounts(tmp_path):
    from server.accounts import Accounts

    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        before = {bot.name for bot in Accounts(server.app.state.records.db).all()}
        arguments = ["match", "greedy", "random", "--server", server.prod, "--db", str(db), "--rounds", "2"]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE)])
        assert result.exit_code == 0, result.output
        after = {bot.name for bot in Accounts(server.app.state.records.db).all()}
        entries = httpx.get(server.base + "/viewer/api/entries").json()["Entries"]
    assert after == before
    assert [entry["Games"] for entry in entries] == [2]
