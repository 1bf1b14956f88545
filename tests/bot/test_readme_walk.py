"""Walk the README as a newcomer: its commands, in order, in a fresh home, each checked on what it prints.

Every `rummy-vision` command of the README's shell blocks needs an entry in WALK, so a README edit
that adds a command fails here until the walk says what the command prints. An entry either runs
the command as written (fragments its output must contain) or says why the walk cannot run it
unattended (a server on the fixed port 8080, an interactive terminal, minutes of CPU or a GB of
disk); those are still checked to parse by test_readme_commands.py.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_readme_commands import _readme_commands

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "fixtures" / "bots" / "random_template.py"


@dataclass(frozen=True)
class Step:
    prints: tuple[str, ...] = ()  # fragments of the output (stdout and stderr, whitespace folded)
    not_run: str = ""  # why the walk does not run it; empty: it runs
    exit_code: int = 0


WALK: dict[str, Step] = {
    "rummy-vision match expectimax greedy --duplicate": Step(not_run="20 rounds of a 300 ms search: minutes of CPU"),
    "rummy-vision serve --oracle": Step(not_run="a server on the fixed port 8080, shared with other test runs"),
    "rummy-vision bots add mybot": Step(("Registered bot mybot", "shown only now")),
    "rummy-vision play --strategy expectimax --recognizer oracle --opponent housebot-greedy --games 5": Step(
        not_run="needs the referee of `serve` on port 8080"
    ),
    "rummy-vision play --bot my_bot.py --opponent housebot-practise --forever": Step(not_run="plays until Ctrl-C"),
    ".venv/bin/rummy-vision solve": Step(not_run="3 CPU minutes and a 1.1 GB table"),
    ".venv/bin/rummy-vision solve --out /data/margin.rvt --workers 2": Step(not_run="3 CPU minutes, 1.1 GB"),
    ".venv/bin/rummy-vision solve --top 7": Step(not_run="269 MB and a CPU minute"),
    "rummy-vision train --episodes 20000 --seed 1 --eval-every 2000": Step(not_run="hours of self-play"),
    "rummy-vision match expectimax greedy --rounds 40 --duplicate": Step(not_run="40 rounds of a 300 ms search"),
    "rummy-vision match heuristic my_bot.py --recognizer noisy:0.1": Step(
        ("heuristic", "my_bot", "20 rounds, random seats", "heuristic: heuristic", "bot file", "Recorded 20 rounds")
    ),
    "rummy-vision tournament random greedy heuristic expectimax --rounds 20 --workers 2": Step(
        not_run="120 rounds, half of them searched at 300 ms a move"
    ),
    "rummy-vision replay 12 --turn 5": Step(("step 5",)),
    "rummy-vision replay 12 --turn 5 --continue-with expectimax": Step(("expectimax",)),
    "rummy-vision replay ~/.local/share/rummy-vision/replays/FILE.jsonl": Step(("FILE.jsonl",), exit_code=2),
    "rummy-vision selfplay --seed 7": Step(("Final scores", "winner")),
    "rummy-vision play-human --opponent hard": Step(not_run="an interactive game in the terminal"),
    "rummy-vision play-human --opponent easy --style 6 --objective win --base-url http://127.0.0.1:8080": Step(
        not_run="an interactive game on the referee of `serve`"
    ),
    "rummy-vision new-bot mybot.py --template strong": Step(("Wrote the strong template to mybot.py", "play --bot")),
    "rummy-vision play --bot mybot.py --opponent housebot-practise": Step(
        not_run="needs the referee of `serve` on port 8080"
    ),
    "rummy-vision check-recording ~/.local/share/rummy-vision/replays/*.jsonl": Step(
        not_run="a shell glob over recordings of games played online"
    ),
    "rummy-vision check-recording game.jsonl --points-shown net": Step(not_run="needs a recording of an online game"),
    ".venv/bin/rummy-vision solve --verify 200": Step(not_run="needs the 1.1 GB table and minutes of CPU"),
    "rummy-vision review latest --html review.html": Step(not_run="a minute of search over every decision of a round"),
    "rummy-vision ratings": Step(("No tournament",)),
    "rummy-vision review latest": Step(not_run="a minute of search over every decision of a round"),
    "rummy-vision review 12 --json": Step(('"GameId": 12', '"Grader"')),
    "rummy-vision review 12 --objective margin --html r.html": Step(
        not_run="the same review as above under the other objective"
    ),
    "rummy-vision measure server": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure server-processes --matches 50 --login-flood 12": Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    "rummy-vision measure search": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure strength --rounds 1000 --max-depth 3 --workers 2": Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    "rummy-vision measure strength --nodes 449000 --opponents greedy,heuristic": Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    "rummy-vision measure correction --rounds 1000": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure local-recognizer": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure table-build": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure table-lookup": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure table-verify": Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure table-solve --objective margin --turns 1-12": Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    "rummy-vision measure calibrate --positions 15 --max-turns 5": Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    "rummy-vision measure node-rate expectimax-plan expectimax": Step(not_run="a measurement: minutes to hours of CPU"),
    'rummy-vision measure duel perfect "expectimax-plan:nodes=449000" --rounds 2000': Step(
        not_run="a measurement: minutes to hours of CPU"
    ),
    (
        "rummy-vision measure strength --player learned --opponents random,greedy,heuristic,expectimax"
        " --rounds 1000 --max-depth 3"
    ): Step(not_run="a measurement: minutes to hours of CPU"),
    "rummy-vision measure regret --per-turn 100 --turns 1-20": Step(not_run="a measurement: minutes to hours of CPU"),
}


def test_every_readme_command_has_a_step() -> None:
    missing = [command for command in _readme_commands() if command not in WALK]
    assert not missing, f"README commands with no entry in WALK: {missing}"
    stale = [command for command in WALK if command not in _readme_commands()]
    assert not stale, f"WALK entries no longer in the README: {stale}"


def test_walk_the_readme_in_a_fresh_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    shutil.copy(TEMPLATE, work / "my_bot.py")  # the newcomer's own arena editor file
    bin_dir = Path(sys.executable).parent
    env = {
        "HOME": str(home),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "200",
        "CI": os.environ.get("CI", ""),
    }
    ran = 0
    for command in _readme_commands():
        step = WALK[command]
        if step.not_run:
            continue
        words = [os.path.expanduser(word) if word.startswith("~") else word for word in shlex.split(command)]
        words = [word.replace(str(Path("~").expanduser()), str(home)) for word in words]
        words[0] = str(bin_dir / "rummy-vision")
        done = subprocess.run(words, cwd=work, env=env, capture_output=True, text=True, timeout=900)
        said = " ".join((done.stdout + done.stderr).split())
        assert done.returncode == step.exit_code, (command, said[-2000:])
        for fragment in step.prints:
            assert fragment in said, (command, fragment, said[-2000:])
        ran += 1
    assert ran >= 6


@pytest.mark.parametrize("command", [c for c, step in WALK.items() if step.not_run])
def test_each_step_not_walked_says_why(command: str) -> None:
    assert len(WALK[command].not_run) > 10
