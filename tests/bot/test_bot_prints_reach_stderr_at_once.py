"""A bot file's prints reach the client's stderr line by line while the bot still runs, as the arena's editor
shows them: a block-buffered pipe held them until the worker exited, and a worker stopped at the match's end
took them with it (the README walk's `play --bot mybot.py` once showed none of its "labels:" lines)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.players.user_bot_worker import MoveLog, Tee

ROOT = Path(__file__).resolve().parents[2]

CLIENT = """
import sys, time
from pathlib import Path
from bot.players.deadline import Budget
from bot.players.user_bot_process import UserBotProcess

bot = UserBotProcess(Path(sys.argv[1]))
assert bot.wait_loaded(60)
now = time.monotonic()
budget = Budget(send_by=now + 30, received=now, deadline=now + 30, margin_s=0.0)
outcome = bot.run({"MyHand": [[5, "u5"]], "OppHand": []}, budget)
print("moved", outcome.move and outcome.move.to_json(), flush=True)
bot.close()  # as at a match's end: SIGTERM at once, which ends Python without flushing its buffers
bot._output.join(30)  # what reached the pipe is all copied to our stderr
"""


def test_a_print_reaches_the_clients_stderr_before_the_worker_ends(tmp_path: Path) -> None:
    bot = tmp_path / "printer.py"
    bot.write_text("def calculate_move(gamestate):\n    print('labels: 1 of 1 cards known')\n    return {'Give': 5}\n")
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, str(bot)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert "moved {'Give': 5}" in done.stdout, done.stderr
    assert "labels: 1 of 1 cards known" in done.stderr


class _Live:
    def __init__(self) -> None:
        self.flushes = 0
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        self.flushes += 1


def test_the_worker_stream_is_flushed_at_each_line_end() -> None:
    live, log = _Live(), MoveLog()
    log.start()
    tee = Tee(live, log)
    tee.write("thinking")
    assert live.flushes == 0
    tee.write(" done\n")
    assert live.flushes == 1 and live.text == "thinking done\n" and log.take() == "thinking done\n"
