"""Hardening III, the referee's side: a referee that trusts no header, bodies and files with bounds, and
files other users cannot read. Each test reproduces an attack of the probe behind issue 41 and failed on
the code before the fix."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import stat
import threading
import time
from pathlib import Path

import httpx
import pytest

from server.play.hall import MAX_RUNNING_PER_NETWORK

NEW_GAME = {"Opponent": "housebot-practise", "GameStyleId": 7, "Coach": {"Strategy": "heuristic"}}


# --- item 2: X-Forwarded-For ---------------------------------------------------------------------------


def test_a_local_caller_cannot_claim_other_addresses_to_pass_the_per_network_cap(start_server):
    server = start_server()
    with httpx.Client(base_url=server.base, timeout=60) as client:
        answers = [
            client.post("/play/api/games", json=NEW_GAME, headers={"X-Forwarded-For": f"10.{n}.0.1"})
            for n in range(MAX_RUNNING_PER_NETWORK + 2)
        ]
    assert [answer.status_code for answer in answers] == [200] * MAX_RUNNING_PER_NETWORK + [400, 400]
    assert "from your address" in answers[-1].json()["ErrorMessage"]


def test_forwarded_addresses_are_believed_from_the_proxies_named_only(start_server):
    server = start_server(forwarded_allow_ips="127.0.0.1")
    with httpx.Client(base_url=server.base, timeout=60) as client:
        answers = [
            client.post("/play/api/games", json=NEW_GAME, headers={"X-Forwarded-For": f"10.{n}.0.1"})
            for n in range(MAX_RUNNING_PER_NETWORK + 1)
        ]
    assert {answer.status_code for answer in answers} == {200}  # behind a named proxy, each network its own cap


# --- item 6: DNS rebinding -------------------------------------------------------------------------------


def test_a_page_of_another_site_rebound_to_loopback_is_refused(start_server):
    server = start_server()
    port = server.base.rsplit(":", 1)[1]
    with httpx.Client(base_url=server.base, timeout=30) as client:
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        assert client.post("/play/api/games", json=NEW_GAME, headers=evil).status_code == 400
        assert client.get("/play/api/options", headers={"Host": "evil.example"}).status_code == 400
        assert client.get("/admin", headers={"Host": "evil.example"}).status_code == 400
        for name in ("127.0.0.1", "localhost", "LOCALHOST"):
            assert client.get("/play/api/options", headers={"Host": f"{name}:{port}"}).status_code == 200
    with httpx.Client(base_url=server.base, timeout=30) as client:
        named = start_server(db_path=Path(server.settings.db_path).with_name("b.sqlite3"), host_names=("arena.lan",))
        assert client.get(named.base + "/play/api/options", headers={"Host": "arena.lan"}).status_code == 200
        assert client.get(named.base + "/play/api/options", headers={"Host": "evil.example"}).status_code == 400


# --- item 12: files other local users could read or plant ---------------------------------------------


def test_records_and_their_sidecar_files_are_private_in_a_private_folder(tmp_path):
    from server.admin import create_token
    from server.records_lock import RecordsLock
    from server.storage.records import Records

    old_umask = os.umask(0o022)  # the usual one: files 0644, folders 0755
    try:
        db = tmp_path / "data" / "rummy-vision" / "records.sqlite3"
        records = Records(db)
        records.db.execute("CREATE TABLE IF NOT EXISTS probe(x)")  # a write: the WAL files exist now
        with RecordsLock(db, 8080):
            create_token(db)
            made = [db, *db.parent.glob("records.sqlite3*")]
            assert len(made) >= 4  # records, -wal/-shm, .lock, .admin-token
            modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in made}
        records.close()
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert set(modes.values()) == {0o600}, modes


def test_an_older_records_file_readable_by_others_is_made_private(tmp_path):
    from server.storage.records import Records

    db = tmp_path / "records.sqlite3"
    Records(db).close()
    db.chmod(0o644)
    Records(db).close()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_the_token_file_is_never_written_through_a_link_planted_before_the_referee_starts(tmp_path):
    from rummy.private_files import NotPrivate
    from server.admin import create_token

    db = tmp_path / "records.sqlite3"
    planted = tmp_path / "planted-by-someone"
    planted.write_text("")
    planted.chmod(0o666)
    Path(f"{db}.admin-token").symlink_to(planted)
    with pytest.raises(NotPrivate):
        create_token(db)
    assert planted.read_text() == ""


# --- item 10: 500s and tracebacks ---------------------------------------------------------------------------

HUGE_IDS = [2**63, 2**64, -(2**63) - 1]
ID_ROUTES = [
    "/viewer/api/files/{}/steps",
    "/viewer/api/files/{}/review",
    "/viewer/review/file/{}",
    "/viewer/api/games/{}/review",
    "/viewer/review/{}",
    "/viewer/api/games/{}/steps",
    "/viewer/api/games/{}/live",
    "/viewer/api/runs/{}",
    "/games/{}",
]


def test_ids_past_64_bits_are_a_400_or_404_on_every_route_never_a_500(start_server):
    server = start_server(oracle=True)
    token = Path(f"{server.settings.db_path}.admin-token").read_text()
    with httpx.Client(base_url=server.base, timeout=60) as client:
        statuses = {
            route.format(number): client.get(route.format(number)).status_code
            for route in [*ID_ROUTES, "/oracle/labels/{}"]
            for number in HUGE_IDS
        }
        for number in HUGE_IDS:
            removed = client.delete(f"/viewer/api/files/{number}", headers={"Authorization": f"Bearer {token}"})
            statuses[f"DELETE {number}"] = removed.status_code
    assert {path: status for path, status in statuses.items() if status not in (400, 404)} == {}


def _deep_file() -> bytes:
    header = {"type": "header", "version": 1, "game_id": 1, "bot_id": "a", "opponent_id": "b"}
    return (json.dumps(header) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n").encode()


def test_a_deeply_nested_line_in_an_uploaded_file_is_a_400(start_server):
    server = start_server()
    token = Path(f"{server.settings.db_path}.admin-token").read_text()
    answer = httpx.post(
        server.base + "/viewer/api/files",
        params={"name": "deep.jsonl"},
        content=_deep_file(),
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert answer.status_code == 400 and "nested" in answer.json()["ErrorMessage"]


@pytest.mark.parametrize("command", ["check-recording", "replay", "review"])
def test_the_commands_that_read_replay_files_refuse_a_deeply_nested_line_in_one_line(tmp_path, command):
    from typer.testing import CliRunner

    from bot.cli import app

    path = tmp_path / "deep.jsonl"
    path.write_bytes(_deep_file())
    result = CliRunner().invoke(
        app, [command, str(path), "--db", str(tmp_path / "r.sqlite3")][: 2 if command == "check-recording" else 4]
    )
    assert result.exit_code in (1, 2), result.output
    assert not isinstance(result.exception, RecursionError) and "Traceback" not in result.output
    assert "nested more than" in result.output


def test_the_in_process_card_host_refuses_captions_and_unknown_files_without_a_500():
    from bot.matches.card_host import CardHost
    from rummy import Match

    host = CardHost()
    card = Match(seed="41").current.hands[0][0]
    with host.showing([card]) as base, httpx.Client(timeout=30) as client:
        plain = client.get(f"{base}{card.url}")
        captioned = client.get(f"{base}{card.url}", params={"caption": 1})
        file_card = client.get(f"{base}/cards/file1-1-1-xx.png", params={"caption": 1})
    assert plain.status_code == 200
    assert captioned.status_code == 403  # a bot must not read its card's name off the picture
    assert file_card.status_code == 404


# --- item 4: stalled and truncated bodies ---------------------------------------------------------------------


def _partial_body(port: int, path: str) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    connection.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n".encode()
        + b'{"BotId": "alice", '
    )
    return connection


def test_a_request_whose_body_stalls_is_closed_and_real_calls_are_served(start_server, bots, monkeypatch):
    from server.connections import GuardedH11Protocol

    monkeypatch.setattr(GuardedH11Protocol, "body_timeout_s", 1.0, raising=False)  # 60 s in service
    server = start_server()
    port = int(server.base.rsplit(":", 1)[1])
    stalled = [_partial_body(port, path) for path in ("/prod/GM-GetListOfGameStyles", "/play/api/games") * 10]
    answer = server.call("GetListOfGameStyles", {"BotId": "alice", "BotPassword": bots["alice"]})
    assert answer.json()["Result"] == "SUCCESS"
    for connection in stalled:
        assert connection.recv(1000) == b""  # closed by the server (a socket timeout here fails the test)
        connection.close()


def test_a_truncated_body_logs_no_traceback(start_server, bots, caplog):
    server = start_server()
    port = int(server.base.rsplit(":", 1)[1])
    with caplog.at_level(logging.WARNING):
        for path in ("/prod/GM-GetListOfGameStyles", "/play/api/games", "/viewer/api/files"):
            _partial_body(port, path).close()  # the client gives up mid-body
        answer = server.call("GetListOfGameStyles", {"BotId": "alice", "BotPassword": bots["alice"]})
        assert answer.json()["Result"] == "SUCCESS"
        deadline = time.monotonic() + 5  # long enough for the handlers to see the disconnects
        while time.monotonic() < deadline and not [r for r in caplog.records if r.levelno >= logging.ERROR]:
            time.sleep(0.1)
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []


def test_running_out_of_file_descriptors_logs_one_line_a_minute_not_one_per_accept():
    from server.connections import QuietAcceptErrors

    now = [0.0]
    quiet = QuietAcceptErrors(clock=lambda: now[0])
    passed = 0
    for step in range(10_000):
        now[0] = step * 0.004  # 10,000 failed accepts in 40 s
        record = logging.LogRecord(
            "asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource", (), None
        )
        passed += quiet.filter(record)
    assert passed == 1
    other = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "something else", (), None)
    assert quiet.filter(other)


# --- item 5: counts in an uploaded replay file ----------------------------------------------------------------


def _upload(server, lines: list[dict]) -> httpx.Response:
    token = Path(f"{server.settings.db_path}.admin-token").read_text()
    return httpx.post(
        server.base + "/viewer/api/files",
        params={"name": "counts.jsonl"},
        content="".join(json.dumps(line) + "\n" for line in lines).encode(),
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )


def _file(**state: object) -> list[dict]:
    gamestate = {
        "MyHand": [[1, "/cards/a.png"]],
        "OppHand": [],
        "RemainingRounds": 1,
        "GameStatus": "IN_PROGRESS",
        "IsMover": True,
        **state,
    }
    header = {"type": "header", "version": 1, "game_id": 5, "bot_id": "a", "opponent_id": "b"}
    return [header, {"type": "gamestate", "gamestate": gamestate}]


@pytest.mark.parametrize(
    "state",
    [{"RemainingRounds": 10**6}, {"CardsInDeck": 10**9}, {"MyScore": -(10**12)}, {"MyHand": [[2**60, "/cards/a.png"]]}],
    ids=["rounds", "deck", "score", "card id"],
)
def test_every_count_in_an_uploaded_replay_file_is_bounded(start_server, state):
    server = start_server()
    assert _upload(server, _file()).status_code == 201  # the same file within bounds is kept
    refused = _upload(server, _file(**state))
    assert refused.status_code == 400, refused.text
    assert "must be from" in refused.json()["ErrorMessage"]


# --- item 13: paths and figures -------------------------------------------------------------------------------


def test_public_answers_name_no_folder_of_the_server(start_server):
    server = start_server()
    home = os.environ["XDG_DATA_HOME"]  # the tests' throwaway home (tests/conftest.py): no table is built there
    with httpx.Client(base_url=server.base, timeout=60) as client:
        options = client.get("/play/api/options").text
        hint = client.get("/admin").text
    assert "margin-" in options  # housebot-perfect says which table it lacks, by its file name
    for answer in (options, hint):
        assert home not in answer and str(Path(server.settings.db_path).parent) not in answer


def test_a_picture_just_over_the_limit_says_so_in_figures_that_differ():
    from PIL import Image

    from recognizers.features import MAX_PIXELS, check_size

    with pytest.raises(ValueError) as refused:
        check_size(Image.new("L", (4900, 5000)), MAX_PIXELS)  # 24.5 Mpx against 24
    said = str(refused.value)
    assert "24,500,000 pixels" in said and "at most 24,000,000 pixels" in said


# --- item 3: coaches cannot starve house bots or pictures -------------------------------------------------------

COACHED = {"Opponent": "housebot-greedy", "GameStyleId": 7, "Coach": {"Strategy": "heuristic", "TimeMs": 60000}}


def _wait_for_my_turn(client: httpx.Client, token: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds  # generous: on the old code the house bot never moved at all
    while True:
        state = client.get(f"/play/api/games/{token}").json()
        if state["IsMover"] or time.monotonic() > deadline:
            return state
        time.sleep(0.2)


def test_coaches_that_think_for_ever_starve_neither_house_bots_nor_the_viewer(start_server, monkeypatch):
    """Every coach blocks (as 60 s coaches did, for longer): the house bots still move and the viewer's
    steps, worked out in a thread like pictures, still answer. Before, the coaches held every worker."""
    import server.play.hall as hall

    release = threading.Event()
    started: list[int] = []

    def stuck(position, config):  # noqa: ANN001, ANN202
        started.append(1)
        release.wait(300)
        raise RuntimeError("the test released the coach")

    monkeypatch.setattr(hall, "advise", stuck)
    server = start_server()
    try:
        with httpx.Client(base_url=server.base, timeout=60) as client:
            tokens = [
                client.post("/play/api/games", json=COACHED).json()["Session"] for _ in range(MAX_RUNNING_PER_NETWORK)
            ]
            states = [_wait_for_my_turn(client, token) for token in tokens]  # each game's coach now thinks
            assert all(state["IsMover"] for state in states), "a house bot never made its first move"
            deadline = time.monotonic() + 30
            while not started and time.monotonic() < deadline:
                time.sleep(0.1)
            assert started
            # Each person moves: every house bot must answer while all coaches are stuck.
            for token, state in zip(tokens, states):
                body = {"Action": "give", "Mine": [state["MyHand"][0]["Id"]]}
                assert client.post(f"/play/api/games/{token}/move", json=body).status_code == 200
            after = [_wait_for_my_turn(client, token) for token in tokens]
            assert all(state["IsMover"] or not state["Running"] for state in after), "a house bot was starved"
            # The viewer's steps of an uploaded file (a worker thread, as a fresh picture) answer too.
            kept = _upload(server, _file())
            steps = client.get(f"/viewer/api/files/{kept.json()['FileId']}/steps")
            assert steps.status_code == 200
    finally:
        release.set()


# --- acceptance: a fuzz of every route gives no 500 ------------------------------------------------------------

HIDDEN_ROUTES = [("get", "/viewer/review/{game_id}"), ("get", "/viewer/review/file/{file_id}"), ("get", "/viewer")]
PARAMETERS = ["1", "0", "-1", str(2**63), str(2**64), "1e20", "x", "%00", "[/]", "a" * 3000, "..%2F..%2Fetc"]
BODIES: list[bytes] = [
    b"",
    b"{}",
    b"[" * 5000 + b"]" * 5000,
    b'{"a": NaN}',
    b'{"BotId": 1e999, "GameId": 18446744073709551616, "Name": "\\ud800"}',
    b"\xff\xfe not utf-8",
    b'{"Kind": "match", "Title": "t", "CreatedAt": 1, "Players": ["a"], "Standings": {"Columns": [], "Rows": []},'
    b' "Games": [{"GameId": 99999999999999999999, "Label": "x"}]}',
]


def test_every_route_answers_hostile_paths_queries_and_bodies_without_a_500(tmp_path):
    from fastapi.testclient import TestClient

    from server.app import create_app
    from server.settings import Settings

    app = create_app(Settings(db_path=tmp_path / "fuzz.sqlite3", oracle=True))
    token = Path(f"{tmp_path / 'fuzz.sqlite3'}.admin-token").read_text()
    routes = [(method, path) for path, ops in app.openapi()["paths"].items() for method in ops] + HIDDEN_ROUTES
    failures = []
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        client.headers["Authorization"] = f"Bearer {token}"
        for method, template in routes:
            for value in PARAMETERS:
                path = re.sub(r"\{[^}]+\}", value, template)
                query = {"pictures": value, "objective": value, "caption": value, "small": value, "name": value}
                for body in BODIES if method in ("post", "delete") else [b""]:
                    answer = client.request(method.upper(), path, params=query, content=body)
                    if answer.status_code >= 500:
                        failures.append(f"{method.upper()} {path[:80]} {body[:40]!r}: {answer.status_code}")
    assert failures == []
