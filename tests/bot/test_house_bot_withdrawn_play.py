"""`play` against a local house bot that cannot choose a move: the bot's summary says so (the referee keeps
the note with the house bot's moves), and a new offer to the withdrawn house bot is refused with the reason."""

from __future__ import annotations

import pytest

from server import house_agents
from strategies.baselines import GreedyStrategy


class _Broken(GreedyStrategy):
    def choose(self, state, deadline=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("this table holds layers up to 7; this one needs layer 19")


def test_a_bot_playing_a_house_bot_that_cannot_move_is_told_and_new_offers_are_refused(
    real_server, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from bot.cli import app

    monkeypatch.setitem(house_agents.HOUSE_BOTS, "housebot-greedy", _Broken)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url, passwords = real_server(move_time_ms=60_000)
    arguments = ["play", "--strategy", "greedy", "--base-url", url, "--bot-id", "tester", "--no-record"]
    arguments += ["--password", passwords["tester"], "--opponent", "housebot-greedy"]
    first = CliRunner().invoke(app, arguments, env={"COLUMNS": "300"})
    assert first.exit_code == 0, first.output
    said = " ".join(first.output.split())
    assert "housebot-greedy could not choose a move" in said and "layer 19" in said, said
    second = CliRunner().invoke(app, arguments, env={"COLUMNS": "300"})
    assert second.exit_code != 0 and "withdrawn" in " ".join(second.output.split()), second.output
