"""Hardening II on the bot side: a throttled login is retried, a bot's output cannot block or flood the
client, pipe reads keep the move's deadline, and a bot's own children die with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient
from bot.players.deadline import BotOutcome, Budget
from bot.players.user_bot_process import UserBotProcess

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


# --- items 6, 9, 10: what a bot's process may do ----------------------------------------------------

GAMESTATE = {"MyHand": [[5, "u5"], [6, "u6"], [7, "u7"]], "OppHand": [[8, "u8"]]}
ROOT = Path(__file__).resolve().parents[2]

NOISY_CLIENT = """
import json, sys, time
from pathlib import Path
from bot.players.deadline import Budget
from bot.players.user_bot_process import UserBotProcess

with UserBotProcess(Path(sys.argv[1])) as bot:
    assert bot.wait_loaded(60)
    for turn in range(3):
        now = time.monotonic()
        outcome = bot.run({GAMESTATE!r}, Budget(send_by=now + 30, received=now, deadline=now + 30, margin_s=0.0))
        print(f"turn {{turn}}: {{outcome.problem or 'ok'}}", file=sys.stderr, flush=True)  # as the client logs
        print(json.dumps({{"move": outcome.move and outcome.move.to_json(), "problem": outcome.problem}}), flush=True)
"""


def test_a_bot_printing_100_mb_neither_blocks_the_client_nor_floods_its_stderr(tmp_path):
    """The client runs with a stderr pipe that nobody reads while it plays (a full pipe blocks a writer)."""
    bot = tmp_path / "noisy.py"
    bot.write_text(
        "import sys\n\ndef calculate_move(gamestate):\n"
        "    sys.stdout.write('x' * 50_000_000)\n    sys.stderr.write('y' * 50_000_000)\n"
        "    return {'Give': 5}\n"
    )
    client = subprocess.Popen(
        [sys.executable, "-c", NOISY_CLIENT.format(GAMESTATE=GAMESTATE), str(bot)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(client.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    reader.join(timeout=180)  # stderr is not read meanwhile
    try:
        assert len(lines) == 3, "the client blocked writing to its stderr"
        assert [json.loads(line)["move"] for line in lines] == [{"Give": 5}] * 3  # in time, every turn
        stderr = client.stderr.read()  # type: ignore[union-attr]
        assert len(stderr) < 100_000 and "the rest of its output is dropped" in stderr
    finally:
        client.kill()
        client.wait()


def _budget(seconds: float) -> Budget:
    now = time.monotonic()
    return Budget(send_by=now + seconds, received=now, deadline=now + seconds, margin_s=0.0)


def test_a_bot_writing_a_2_gb_length_header_into_its_answer_pipe_cannot_hang_the_client(tmp_path):
    bot = tmp_path / "header.py"
    bot.write_text(
        "import os, struct, sys, time\n\ndef calculate_move(gamestate):\n"
        "    os.write(int(sys.argv[2]), struct.pack('!i', 2**31 - 1) + b'{')\n"
        "    time.sleep(600)\n"
    )
    outcomes: list[BotOutcome] = []
    with UserBotProcess(bot) as process:
        assert process.wait_loaded(60)
        playing = threading.Thread(target=lambda: outcomes.append(process.run(GAMESTATE, _budget(1.0))), daemon=True)
        playing.start()
        playing.join(timeout=60)  # the move's budget is 1 s; the old read waited for 2 GB for ever
        assert outcomes, "the client hung reading the bot's answer"
        assert outcomes[0].move is None
        second = process.run(GAMESTATE, _budget(1.0))
        assert second.move is None and "exited" in second.problem  # the broken process is stopped, not trusted


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def test_children_a_bot_starts_die_with_its_process(tmp_path):
    bot = tmp_path / "spawner.py"
    pid_file = tmp_path / "child.pid"
    bot.write_text(
        "import subprocess, sys\n\ndef calculate_move(gamestate):\n"
        "    child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"    open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "    return {'Give': 5}\n"
    )
    with UserBotProcess(bot) as process:
        assert process.wait_loaded(60)
        assert process.run(GAMESTATE, _budget(30)).move is not None
        child = int(pid_file.read_text())
        assert _alive(child)
    deadline = time.monotonic() + 20
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        assert not _alive(child), "the bot's child outlived the match"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)
