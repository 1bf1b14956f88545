"""Hardening II on the bot side: a throttled login is retried, a bot's output cannot block or flood the
client, pipe reads keep the move's deadline, and a bot's own children die with it."""

from __future__ import annotations

from pathlib import Path

from test_file_replay import recorded  # noqa: F401 - the fixture: a real `play` recording

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient

THROTTLED = {"Result": "INVALID_LOGIN_OR_PASSWORD", "ErrorMessage": "too many failed logins; try again in 2 s"}


def test_a_throttled_call_is_retried_instead_of_ending_play(httpx_mock):
    """Someone guessing this bot's password makes the server throttle logins: the bot waits and retries."""
    url = "http://arena.test/prod/GM-GetListOfGameStyles"
    httpx_mock.add_response(url=url, json=THROTTLED)
    httpx_mock.add_response(url=url, json=THROTTLED)
    httpx_mock.add_response(url=url, json={"Result": "SUCCESS", "GameStyles": [], "Balance": 1000})
    waits: list[float] = []
    with ArenaClient("http://arena.test/prod/", Credentials("victim", "pw"), sleep=waits.append) as client:
        answer = client.game_styles()
    assert answer.result == "SUCCESS" and answer.attempts == 3 and len(waits) == 2


def test_a_wrong_password_is_still_an_answer_at_once(httpx_mock):
    url = "http://arena.test/prod/GM-GetListOfGameStyles"
    httpx_mock.add_response(url=url, json={"Result": "INVALID_LOGIN_OR_PASSWORD", "ErrorMessage": "wrong"})
    with ArenaClient("http://arena.test/prod/", Credentials("victim", "pw"), sleep=lambda _s: None) as client:
        answer = client.game_styles()
    assert answer.result == "INVALID_LOGIN_OR_PASSWORD" and answer.attempts == 1


def test_replay_and_the_status_line_print_an_opponent_named_with_markup(recorded, tmp_path):  # noqa: F811
    """A replay file whose opponent is named `[/x]` (any bot may register such a name) replays as written."""
    import io

    from rich.console import Console
    from typer.testing import CliRunner

    from bot.cli import app
    from bot.cli.play_output import LiveStatus
    from bot.client.runner import MatchSummary

    path, _record = recorded
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(Path(path).read_text().replace("housebot-practise", "[/x]"))
    shown = CliRunner().invoke(app, ["replay", str(renamed)], terminal_width=160)
    assert shown.exit_code == 0, shown.output
    assert "[/x] played" in shown.output

    status = LiveStatus(Console(file=io.StringIO(), width=200))
    status.match_ended(MatchSummary(3, "[/x]", "LOST", 0, 1, 9, 0, 1.0))
    assert "vs [/x]" in status.console.file.getvalue()
