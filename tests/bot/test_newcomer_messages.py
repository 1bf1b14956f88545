"""Messages a newcomer meets: an unknown opponent lists the house bots; a missing replay file is one line."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from server.house_agents import HOUSE_BOTS

runner = CliRunner()


def _flat(result) -> str:
    return " ".join(result.output.split())


def test_an_unknown_opponent_lists_the_house_bots(real_server, random_template, tmp_path):
    base, passwords = real_server()
    env = {
        "RUMMY_VISION_BOT_ID": "tester",
        "RUMMY_VISION_BOT_PASSWORD": passwords["tester"],
        "RUMMY_VISION_CONFIG": str(tmp_path / "no-config.toml"),
        "COLUMNS": "300",
    }
    bot = str(random_template)
    result = runner.invoke(app, ["play", "--base-url", base, "--bot", bot, "--opponent", "nobody-xyz"], env=env)
    assert result.exit_code == 1
    assert "Check of OpponentId failed" in _flat(result)
    assert f"house bots: {', '.join(HOUSE_BOTS)}" in _flat(result)


def test_replay_of_a_missing_file_is_one_line(tmp_path):
    missing = tmp_path / "nosuch.jsonl"
    result = runner.invoke(app, ["replay", str(missing)], env={"COLUMNS": "300"})
    assert result.exit_code != 0
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert Path(missing).name in result.output
