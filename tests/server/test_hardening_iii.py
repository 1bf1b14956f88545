"""Hardening III, the referee's side: a referee that trusts no header, bodies and files with bounds, and
files other users cannot read. Each test reproduces an attack of the probe behind issue 41 and failed on
the code before the fix."""

from __future__ import annotations

from pathlib import Path

import httpx

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
