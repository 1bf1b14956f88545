"""`recognize --recognizer oracle --base-url` takes the server's root or its /prod/ protocol base, like `play`,
and says plainly when the server is not there."""

from __future__ import annotations

import json
import socket

import pytest
from typer.testing import CliRunner

from bot.cli import app
from server.embedded import EmbeddedServer
from server.settings import Settings

runner = CliRunner()


def _reason(base_url: str) -> str:
    result = runner.invoke(
        app,
        ["recognize", "/cards/x.png", "--recognizer", "oracle", "--base-url", base_url, "--game-id", "999", "--json"],
    )
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)[0]["reason"])


@pytest.fixture(scope="module")
def oracle_server(tmp_path_factory):
    with EmbeddedServer(Settings(db_path=tmp_path_factory.mktemp("oracle") / "r.sqlite3", oracle=True)) as server:
        yield server


@pytest.mark.parametrize("form", ["{base}", "{base}/", "{base}/prod", "{base}/prod/"])
def test_both_forms_reach_the_oracle(oracle_server, form) -> None:
    # The real server's own answer for an unknown match: the request reached /oracle/labels/999.
    assert _reason(form.format(base=oracle_server.base)) == (
        f"oracle unavailable: {oracle_server.base}/oracle/labels/999: no match 999 in play"
    )


def test_a_server_that_is_down_is_named_without_library_noise() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reason = _reason(f"http://127.0.0.1:{port}/prod/")
    assert reason == f"oracle unavailable: connection refused at http://127.0.0.1:{port}: is the server running?"
    assert "mozilla" not in reason.lower()


def test_recognize_a_live_cards_url_with_the_oracle_and_its_game_id(tmp_path) -> None:
    """A card URL copied from a gamestate gets its true landmark: the command has the URL, not the card id."""
    import httpx

    from bot.client.config import Credentials
    from bot.client.protocol_client import ArenaClient

    settings = Settings(db_path=tmp_path / "r.sqlite3", oracle=True, move_time_ms=60_000)
    with EmbeddedServer(settings) as server:
        password = server.app.state.accounts.add_bot("tester", iterations=1000)
        with ArenaClient(server.base + "/prod/", Credentials("tester", password)) as client:
            state = client.offer_game(3, opponent_id="housebot-practise").game_state
        assert state is not None
        truth = httpx.get(f"{server.base}/oracle/labels/{state['GameId']}").json()
        cards = state["MyHand"] + state["OppHand"]
        arguments = ["recognize", *[url for _id, url in cards], "-r", "oracle", "--base-url", server.base]
        result = runner.invoke(app, [*arguments, "--game-id", str(state["GameId"]), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [row["landmark"] for row in rows] == [truth[str(card_id)] for card_id, _url in cards]
