"""The starter templates (`rummy-vision new-bot`) play full matches against the real local referee.

Each runs under `play --bot` (the Runner with a bot file in its own process) over loopback HTTP;
vision, customvision and strong label cards through the recognizer tests' fake Azure on loopback,
which answers with the true landmark of each card (looked up in the referee's matches).
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from recognizers_fakes import GOOD_KEY
from typer.testing import CliRunner

from bot.cli.main import app
from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, RetryPolicy
from bot.client.runner import PlayOptions, Runner
from bot.players.match_bots import file_bot
from bot.replay.recording import read_replay
from bot.templates import TEMPLATES, template_source

FAST = RetryPolicy(first_wait_s=0.01, max_wait_s=0.1)
MOVE_MS = 10_000  # the templates think at most MAX_THINK_SECONDS = 4 s: room to spare on a loaded machine
STYLE = 1  # one round; the referee's move time is MOVE_MS


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def recognizer_env(monkeypatch: pytest.MonkeyPatch, endpoint: str, key: str = GOOD_KEY) -> None:
    """What the bot process inherits: the endpoint, the key, and a rate that never holds a card back."""
    monkeypatch.setenv("AZURE_VISION_ENDPOINT", endpoint)
    monkeypatch.setenv("AZURE_VISION_KEY", key)
    monkeypatch.setenv("AZURE_CALLS_PER_PERIOD", "200")  # the limit itself is tested in test_templates_units
    monkeypatch.setenv("AZURE_PERIOD_SECONDS", "1")
    url = f"{endpoint}/customvision/v3.0/Prediction/proj/classify/iterations/it1/url"
    monkeypatch.setenv("CUSTOM_VISION_PREDICTION_URL", url)
    monkeypatch.setenv("CUSTOM_VISION_PREDICTION_KEY", key)
    monkeypatch.setenv("CUSTOM_VISION_CALLS_PER_PERIOD", "200")
    monkeypatch.setenv("CUSTOM_VISION_PERIOD_SECONDS", "1")


def write_template(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}_bot.py"
    result = CliRunner().invoke(app, ["new-bot", str(path), "--template", name])
    assert result.exit_code == 0, result.output
    return path


def play_file(referee, path: Path, record_dir: Path):
    options = PlayOptions(
        game_style_id=STYLE,
        opponent_id="housebot-practise",
        games=1,
        record_dir=record_dir,
        move_time_s=MOVE_MS / 1000,
    )
    with ArenaClient(referee.base, Credentials("tester", referee.password), policy=FAST) as client:
        [summary] = Runner(client, file_bot(path), options).run()
    assert summary.error is None, summary.error
    assert summary.status in ("WON", "LOST", "DRAWN", "WON_BY_TIMEOUT"), summary
    assert summary.fallbacks == 0, "every move was the bot's own, legal and in time"
    return summary


def test_new_bot_writes_each_template_and_keeps_existing_files(tmp_path: Path) -> None:
    for name in TEMPLATES:
        path = write_template(tmp_path, name)
        assert path.read_text(encoding="utf-8") == template_source(name)
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    kept = tmp_path / "random_bot.py"
    kept.write_text("# mine\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["new-bot", str(kept), "--template", "vision"])
    assert result.exit_code == 1 and "--force" in result.output and kept.read_text(encoding="utf-8") == "# mine\n"
    result = CliRunner().invoke(app, ["new-bot", str(tmp_path / "x.py"), "--template", "planets"])
    assert result.exit_code == 2 and "unknown template" in result.output


def test_templates_hold_no_secret_values() -> None:
    for name in TEMPLATES:
        source = template_source(name)
        assert GOOD_KEY not in source
        for line in source.splitlines():
            if "KEY = " in line:
                assert "os.environ.get(" in line and "PASTE-" in line, line


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_template_plays_a_match_on_the_local_referee(name, referee, fake_azure, monkeypatch, tmp_path) -> None:
    served = referee(move_time_ms=MOVE_MS)
    fake_azure.labeller = served.true_landmark
    recognizer_env(monkeypatch, fake_azure.base_url)
    summary = play_file(served, write_template(tmp_path, name), tmp_path)
    records = read_replay(summary.record_path)
    asked_to_move = [r["gamestate"] for r in records if r["type"] == "gamestate" and r["gamestate"]["IsMover"]]
    shown = {url for state in asked_to_move if state["GameStatus"] == "RUNNING" for _id, url in state["MyHand"]}
    asked = [url for _path, url in fake_azure.calls]
    if name == "random":
        assert asked == []
        return
    assert len(asked) == len(set(asked)), "each picture is sent once: the cache is keyed by picture URL"
    assert shown <= set(asked), "every card the bot held was labelled"
    assert set(fake_azure.keys_seen) == {GOOD_KEY}
    laid = [r for r in records if r["type"] == "move" and r["applied"] and "Lay" in r["move"]]
    assert laid, "with true labels the bot lays sets"


@pytest.mark.parametrize("name", ["vision", "customvision", "strong"])
def test_template_still_plays_when_the_recognizer_cannot_be_reached(name, referee, monkeypatch, tmp_path) -> None:
    served = referee(move_time_ms=MOVE_MS)
    recognizer_env(monkeypatch, closed_port_url())
    summary = play_file(served, write_template(tmp_path, name), tmp_path)
    assert summary.moves > 0


@pytest.mark.parametrize("name", ["vision", "strong"])
def test_template_with_a_wrong_key_plays_unknown_cards(name, referee, fake_azure, monkeypatch, tmp_path) -> None:
    served = referee(move_time_ms=MOVE_MS)
    fake_azure.labeller = served.true_landmark
    recognizer_env(monkeypatch, fake_azure.base_url, key="wrong-key")
    summary = play_file(served, write_template(tmp_path, name), tmp_path)
    assert summary.moves > 0 and fake_azure.calls, "it asked, was refused, and played on with unknown cards"


def requests_only_dir(tmp_path: Path) -> Path:
    """A folder holding requests and its dependencies (links into this environment) and nothing else."""
    from importlib.metadata import distribution

    folder = tmp_path / "requests-only"
    folder.mkdir()
    for dist_name in ("requests", "urllib3", "idna", "certifi", "charset-normalizer"):
        dist = distribution(dist_name)
        tops = {Path(str(file)).parts[0] for file in dist.files or [] if not str(file).startswith("..")}
        for top in tops:
            if top.endswith(".dist-info") or top == "__pycache__" or (folder / top).exists():
                continue
            (folder / top).symlink_to(Path(str(dist.locate_file(top))))
    return folder


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_template_runs_with_only_the_standard_library_and_requests(
    name, referee, fake_azure, monkeypatch, tmp_path
) -> None:
    import subprocess
    import sys

    served = referee(move_time_ms=MOVE_MS)
    fake_azure.labeller = served.true_landmark
    recognizer_env(monkeypatch, fake_azure.base_url)
    harness = Path(__file__).with_name("template_harness.py")
    args = [sys.executable, "-I", "-S", str(harness), str(requests_only_dir(tmp_path)), served.base, "tester"]
    args += [served.password, str(write_template(tmp_path, name)), str(STYLE)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] in ("WON", "LOST", "DRAWN", "WON_BY_TIMEOUT") and result["moves"] > 0
    assert result["refused"] == 0
    if name != "random":
        assert fake_azure.calls, "the isolated bot reached the fake Azure through requests"
