"""The local referee's admin API: a token only its owner can read, loopback callers only, clear refusals."""

from __future__ import annotations

import stat

import httpx
from fastapi.testclient import TestClient

from server.accounts import Accounts
from server.app import create_app
from server.embedded import EmbeddedServer
from server.settings import Settings
from server.storage.records import Records, connect
from server.storage.runs import list_runs

RUN = {
    "Kind": "match",
    "Title": "a v b",
    "CreatedAt": 1.0,
    "Players": ["a", "b"],
    "Standings": {"Columns": ["Player", "Wins"], "Rows": [["a", 1], ["b", 0]]},
}


def _bots(db) -> list[str]:
    connection = connect(db)
    try:
        return [bot.name for bot in Accounts(connection).all()]
    finally:
        connection.close()


def test_admin_calls_need_the_token_from_the_owner_only_file(tmp_path):
    db = tmp_path / "records.sqlite3"
    token_file = tmp_path / "records.sqlite3.admin-token"
    with EmbeddedServer(Settings(db_path=db)) as server, httpx.Client(base_url=server.base, timeout=15) as http:
        token = token_file.read_text()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and len(token) >= 32
        hint = http.get("/admin").json()
        assert hint == {"TokenFile": "RECORDS.admin-token", "RemoteAllowed": False}
        body = {"Name": "mine"}

        missing = http.post("/admin/bots", json=body)
        assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["ErrorMessage"]
        wrong = http.post("/admin/bots", json=body, headers={"Authorization": "Bearer " + "x" * len(token)})
        assert wrong.status_code == 403 and wrong.json() == {"ErrorMessage": "wrong admin token"}
        assert http.delete("/admin/bots/housebot-greedy").status_code == 401
        assert http.post("/admin/runs", json={**RUN, "Games": [{"GameId": 1, "Label": "x"}]}).status_code == 401
        assert _bots(db) == []

        http.headers["Authorization"] = f"Bearer {token}"
        made = http.post("/admin/bots", json={**body, "Iterations": 1000})
        assert made.status_code == 201 and made.json()["BotId"] == "mine"
        # The password works over the protocol.
        styles = http.post(
            "/prod/GM-GetListOfGameStyles", json={"BotId": "mine", "BotPassword": made.json()["Password"]}
        )
        assert styles.json()["Result"] == "SUCCESS"
        again = http.post("/admin/bots", json=body)
        assert again.status_code == 409 and "already registered" in again.json()["ErrorMessage"]
        assert http.delete("/admin/bots/mine").json() == {"Removed": "mine"}
        assert http.delete("/admin/bots/mine").status_code == 404
        assert _bots(db) == []
    # A stopped referee leaves no token behind.
    assert not token_file.exists()


def test_bad_admin_bodies_are_refused_in_one_line_and_change_nothing(tmp_path):
    db = tmp_path / "records.sqlite3"
    with EmbeddedServer(Settings(db_path=db)) as server, httpx.Client(base_url=server.base, timeout=15) as http:
        http.headers["Authorization"] = f"Bearer {(tmp_path / 'records.sqlite3.admin-token').read_text()}"
        for bad in ({}, {"Name": ""}, {"Name": "x", "Iterations": 1}, {"Name": "x", "Admin": True}):
            answer = http.post("/admin/bots", json=bad)
            assert answer.status_code == 400 and "\n" not in answer.json()["ErrorMessage"], bad
        assert http.post("/admin/bots", content=b"{not json").status_code == 400
        assert http.post("/admin/bots", json={"Name": "housebot-x"}).status_code == 400
        unknown = http.post("/admin/runs", json={**RUN, "Games": [{"GameId": 77, "Label": "x"}]})
        assert unknown.status_code == 400 and unknown.json() == {"ErrorMessage": "no recorded match with GameId 77"}
        assert http.post("/admin/runs", json={**RUN, "Kind": "league", "Games": []}).status_code == 400
    assert _bots(db) == []
    records = Records(db)
    try:
        assert list_runs(records.db) == []
    finally:
        records.close()


def test_admin_calls_from_another_machine_are_refused_even_with_the_token(tmp_path):
    db = tmp_path / "records.sqlite3"
    app = create_app(Settings(db_path=db))
    token = app.state.admin_token
    with TestClient(app, base_url="http://127.0.0.1", client=("192.0.2.7", 40000)) as remote:
        answer = remote.post("/admin/bots", json={"Name": "x"}, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 403 and "--admin-remote" in answer.json()["ErrorMessage"]
    allowed = create_app(Settings(db_path=tmp_path / "other.sqlite3", admin_remote=True))
    with TestClient(allowed, base_url="http://127.0.0.1", client=("192.0.2.7", 40000)) as remote:
        headers = {"Authorization": f"Bearer {allowed.state.admin_token}"}
        assert remote.post("/admin/bots", json={"Name": "x"}, headers=headers).status_code == 201
        assert remote.post("/admin/bots", json={"Name": "y"}).status_code == 401


def _new_match(records: Records, players: tuple[str, str]) -> int:
    return records.create_match(
        style_id=1, rounds=1, move_time_ms=5000, seed="forget", players=players, stake=0, prize=0, now=1.0
    )


def test_forget_deletes_finished_matches_only_and_refuses_unknown_ones(tmp_path):
    app = create_app(Settings(db_path=tmp_path / "records.sqlite3"))
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 50000)) as client:
        token = {"Authorization": f"Bearer {app.state.admin_token}"}
        records: Records = app.state.records
        finished, running = _new_match(records, ("a", "b")), _new_match(records, ("c", "d"))
        with records.db:
            records.db.execute("UPDATE matches SET status='FINISHED', ended_at=2.0 WHERE game_id=?", (finished,))
        assert client.post("/admin/games/forget", json={"GameIds": [finished]}).status_code == 401
        unknown = client.post("/admin/games/forget", json={"GameIds": [finished, 999]}, headers=token)
        assert unknown.status_code == 400 and "999" in unknown.json()["ErrorMessage"]
        refused = client.post("/admin/games/forget", json={"GameIds": [running]}, headers=token)
        assert refused.status_code == 409 and "has not ended" in refused.json()["ErrorMessage"]
        assert {match["GameId"] for match in records.list_matches()} == {finished, running}
        assert client.post("/admin/games/forget", json={"GameIds": [finished]}, headers=token).status_code == 200
        assert {match["GameId"] for match in records.list_matches()} == {running}
