"""`match --server`: two contenders play over the protocol through a real referee on loopback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.matches.server_match import match_record
from server.accounts import Accounts
from server.embedded import EmbeddedServer
from server.settings import Settings
from server.storage.records import Records, connect
from server.storage.runs import list_runs

# One round, 5 s per move: the players answer in milliseconds, so this costs no time, while 500 ms
# moves let a loaded machine (label look-ups over HTTP, a busy CPU) turn into a fallback now and then.
ROUND_STYLE = 1


def test_match_over_the_protocol_matches_the_server_records(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        arguments = ["match", "greedy", "random", "--server", server.prod, "--rounds", "3", "--db", str(db)]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE), "--json"])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout.strip().splitlines()[-1])
        # The client read the rounds through the records API, as anyone may.
        first = summary["records"]["game_ids"][0]
        with httpx.Client(timeout=15) as http:
            record = match_record(http, server.prod, first)
            assert record["GameId"] == first and record["Status"] == "FINISHED" and record["Moves"]
            with pytest.raises(RuntimeError, match=f"no finished record of match 999 at {server.base}/games/999"):
                match_record(http, server.prod, 999)
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
    from server.storage.runs import run_detail

    connection = connect(db)
    try:
        (run,) = list_runs(connection)
        detail = run_detail(connection, run["RunId"])
    finally:
        connection.close()
    assert detail is not None and run["Kind"] == "match" and run["Games"] == 3
    assert sorted(game["GameId"] for game in detail["Games"]) == sorted(match["GameId"] for match in finished)
    assert summary["records"]["game_ids"] == [game["GameId"] for game in detail["Games"]]
    # Recorded rounds keep the accounts that played them.
    assert sorted(bot.rsplit("-", 1)[-1] for bot in _bot_names(db)) == ["greedy", "random"]


def _bot_names(db: Path) -> list[str]:
    connection = connect(db)
    try:
        return [bot.name for bot in Accounts(connection).all()]
    finally:
        connection.close()


def _serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    """`rummy-vision serve` in its own process on a free port; its protocol base."""
    command = [str(Path(sys.executable).with_name("rummy-vision")), "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen([*command, "--oracle"], stderr=subprocess.PIPE, text=True, env={**os.environ})
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    said = []
    while time.monotonic() < deadline and (line := process.stderr.readline()):
        said.append(line)
        if found := re.search(r"referee on (http://127\.0\.0\.1:\d+/prod/)", line):
            return process, found.group(1)
    process.kill()
    raise AssertionError(f"serve did not start: {''.join(said)}")


def test_match_against_a_served_referee_without_recording_leaves_no_accounts_and_no_run(tmp_path):
    db = tmp_path / "records.sqlite3"
    process, prod = _serve(db)
    try:
        token = (tmp_path / "records.sqlite3.admin-token").read_text()
        arguments = ["match", "greedy", "random", "--server", prod, "--rounds", "1", "--no-record", "--json"]
        arguments += ["--db", str(db)]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.strip().splitlines()[-1])["rounds"] == 1
        # The accounts were made, used and removed; the server forgot the rounds it recorded.
        assert _bot_names(db) == []
        records = Records(db)
        try:
            assert records.list_matches() == [] and list_runs(records.db) == []
        finally:
            records.close()
    finally:
        process.terminate()
        _out, said = process.communicate(timeout=30)
    assert token not in said


def test_match_over_a_server_whose_token_it_cannot_read_says_how_to_bring_accounts(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db)) as server:
        (tmp_path / "records.sqlite3.admin-token").unlink()  # as seen from a machine that is not the server's
        arguments = ["match", "greedy", "random", "--server", server.prod, "--rounds", "1", "--db", str(db)]
        result = CliRunner().invoke(app, arguments, env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert "cannot read the admin token" in result.output and "rummy-vision bots add" in result.output
    assert _bot_names(db) == []


def test_server_mode_refuses_duplicate_deals(tmp_path):
    arguments = ["match", "greedy", "random", "--server", "http://127.0.0.1:9/prod/", "--duplicate"]
    result = CliRunner().invoke(app, [*arguments, "--db", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "duplicate deals need --in-process" in result.output


def test_match_plays_as_the_accounts_it_is_given_where_it_may_not_make_any(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        connection = connect(db)
        try:
            passwords = [Accounts(connection).add_bot(name, iterations=1000) for name in ("first", "second")]
        finally:
            connection.close()
        (tmp_path / "records.sqlite3.admin-token").unlink()  # as seen from a machine that is not the server's
        accounts = tmp_path / "accounts.toml"
        accounts.write_text(
            f'[a]\nbot_id = "first"\npassword = "{passwords[0]}"\n[b]\nbot_id = "second"\npassword = "{passwords[1]}"\n'
        )
        arguments = ["match", "greedy", "random", "--server", server.prod, "--rounds", "1", "--accounts", str(accounts)]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE)], env={"COLUMNS": "300"})
        assert result.exit_code == 0, result.output
        assert "grouping them into one run needs the server's admin token" in result.output
        broken = tmp_path / "broken.toml"
        broken.write_text(f'[a]\nbot_id = "first"\npassword = "{passwords[0]}"\n')
        refused = CliRunner().invoke(app, [*arguments[:-1], str(broken)], env={"COLUMNS": "300"})
    assert refused.exit_code == 2 and "needs a table [b] with bot_id and password" in refused.output
    assert not any(password in refused.output + result.output for password in passwords)
    assert _bot_names(db) == ["first", "second"]
    records = Records(db)
    try:
        (played,) = records.list_matches()
        assert sorted(played["Players"]) == ["first", "second"]
        assert list_runs(records.db) == []
    finally:
        records.close()


def test_server_mode_takes_the_admin_token_beside_the_records_file_it_is_given_only(tmp_path):
    arguments = ["match", "greedy", "random", "--server", "http://127.0.0.1:9/prod/", "--db", str(tmp_path / "x")]
    result = CliRunner().invoke(app, arguments, env={"COLUMNS": "200"})
    assert result.exit_code == 2 and f"cannot read the admin token {tmp_path / 'x'}.admin-token" in result.output


def test_match_over_a_server_without_an_admin_api_says_how_to_bring_accounts(tmp_path):
    # A referee's protocol base that has no /admin beside it, as on the arena.
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db)) as server:
        arguments = ["match", "greedy", "random", "--server", f"{server.base}/viewer/static/prod/", "--rounds", "1"]
        arguments += ["--db", str(db)]
        result = CliRunner().invoke(app, arguments, env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert "has no admin API" in result.output and "--accounts FILE" in result.output


def test_no_record_over_the_server_leaves_no_matches_no_viewer_entries_and_no_accounts(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db, oracle=True)) as server:
        before = _bot_names(db)
        arguments = ["match", "greedy", "random", "--server", server.prod, "--rounds", "2", "--db", str(db)]
        result = CliRunner().invoke(app, [*arguments, "--game-style", str(ROUND_STYLE), "--no-record", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.strip().splitlines()[-1])["rounds"] == 2
        entries = httpx.get(server.base + "/viewer/api/entries").json()["Entries"]
        after = _bot_names(db)
    assert entries == []
    assert after == before
    records = Records(db)
    try:
        assert records.list_matches() == []
    finally:
        records.close()
