"""`rummy-vision play` end to end against the real local referee: output modes, records, secrets, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient
from bot.replay.recording import read_replay

REPO = Path(__file__).resolve().parents[2]


def flat(result) -> str:
    """The command's output with Rich's line wrapping undone."""
    return " ".join(result.output.split())


def env_for(password: str, tmp_path: Path) -> dict[str, str]:
    return {
        "RUMMY_VISION_BOT_ID": "tester",
        "RUMMY_VISION_BOT_PASSWORD": password,
        "RUMMY_VISION_CONFIG": str(tmp_path / "no-config.toml"),
    }


def test_play_json_mode_records_every_match_and_never_shows_the_password(real_server, random_template, tmp_path):
    base, passwords = real_server(move_time_ms=60_000)  # the test is about the output, not the clock
    record_dir = tmp_path / "replays"
    args = ["play", "--base-url", base, "--bot", str(random_template), "--games", "2"]
    args += ["--opponent", "housebot-practise", "--game-style", "3", "--record", str(record_dir), "--json"]
    result = CliRunner().invoke(app, args, env=env_for(passwords["tester"], tmp_path))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["event"] for line in lines] == ["match", "match", "summary"]
    assert lines[-1]["matches"] == 2 and lines[-1]["won"] + lines[-1]["lost"] + lines[-1]["drawn"] >= 1
    replays = sorted(record_dir.glob("*.jsonl"))
    assert len(replays) == 2
    for replay in replays:
        assert read_replay(replay)[-1]["type"] == "end"
        assert passwords["tester"] not in replay.read_text()
    assert passwords["tester"] not in result.output


def test_play_shows_a_summary_table_with_a_strategy_and_the_oracle(real_server, tmp_path):
    base, passwords = real_server(move_time_ms=60_000)  # a busy machine must not force fallback moves
    args = ["play", "--base-url", base, "--strategy", "greedy", "--recognizer", "oracle", "--opponent"]
    args += ["housebot-practise", "--game-style", "3", "--no-record", "--password", passwords["tester"]]
    result = CliRunner().invoke(app, args, env={**env_for("not-this-one", tmp_path)})
    assert result.exit_code == 0, result.output
    assert "Matches played" in result.stdout and "0 fallback moves" in result.stdout
    assert passwords["tester"] not in result.output


def test_play_explains_bad_arguments_and_refusals(real_server, random_template, tmp_path):
    base, passwords = real_server()
    runner = CliRunner()
    env = env_for(passwords["tester"], tmp_path)
    both = runner.invoke(app, ["play", "--base-url", base, "--strategy", "greedy", "--bot", "x.py"], env=env)
    assert both.exit_code != 0 and "exactly one of" in flat(both)
    unknown = runner.invoke(app, ["play", "--base-url", base, "--strategy", "no-such-strategy"], env=env)
    assert unknown.exit_code == 2 and "unknown strategy" in flat(unknown)
    missing = runner.invoke(app, ["play", "--base-url", base, "--bot", str(tmp_path / "nope.py")], env=env)
    assert missing.exit_code == 2 and "does not exist" in flat(missing)
    bot = str(random_template)
    wrong = runner.invoke(app, ["play", "--base-url", base, "--bot", bot, "--password", "wrong"], env=env)
    assert wrong.exit_code == 1 and "INVALID_LOGIN_OR_PASSWORD" in flat(wrong)
    style = runner.invoke(app, ["play", "--base-url", base, "--bot", bot, "--game-style", "99"], env=env)
    assert style.exit_code == 1 and "game style 99 is not offered" in flat(style)
    nobody = runner.invoke(app, ["play", "--base-url", base, "--bot", bot, "--opponent", "nobody-xyz"], env=env)
    assert nobody.exit_code == 1 and "Check of OpponentId failed" in flat(nobody)
    no_id = runner.invoke(app, ["play", "--base-url", base, "--bot", bot], env={"RUMMY_VISION_CONFIG": "/nonexistent"})
    assert no_id.exit_code == 2 and "no bot name" in flat(no_id)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_cancels_a_waiting_offer(real_server, random_template, tmp_path):
    base, passwords = real_server()
    command = [sys.executable, "-c", "from bot.cli import main; main()", "play", "--base-url", base]
    command += ["--bot", str(random_template), "--game-style", "1", "--quiet", "-v", "--no-record"]
    child = subprocess.Popen(
        command,
        cwd=REPO,
        env={**os.environ, **env_for(passwords["tester"], tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    offered = threading.Event()

    def read_stderr() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            lines.append(line)
            if "waiting for an opponent" in line:
                offered.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        # Start-up (the bot file loads in its process), then the offer waits: nobody else plays style 1.
        assert offered.wait(60), "".join(lines)
        child.send_signal(signal.SIGINT)
        child.wait(timeout=15)
        reader.join(timeout=5)
    finally:
        if child.poll() is None:
            child.kill()
    err = "".join(lines)
    assert child.returncode == 130, err
    assert "cancelled the game offer: SUCCESS" in " ".join(err.split())
    assert passwords["tester"] not in err
    # The cancelled offer is gone: another bot offering the same style now waits instead of being matched.
    with ArenaClient(base, Credentials("other", passwords["other"])) as other:
        answer = other.offer_game(1, max_wait_ms=200)
        assert answer.result == "WAITING_FOR_GAME"
        other.cancel_offer(answer.player_key)
