"""Walk the README and the docs/ pages as a newcomer: their commands, in order, in a fresh home, each checked on
what it prints.

The order is the README's, then the pages' in mkdocs.yml's nav (tests/doc_pages.py); a command shown on two
pages (the README's short path repeats `serve`, `bots add`, `new-bot` and others) runs once, where it first
appears. Every `rummy-vision` command of their shell blocks needs an entry in WALK, so an edit that adds a
command fails here until the walk says what the command prints. The walk runs each one as written, as a
person would:
- `serve --oracle --vision &` for real, on the README's port 8080, kept running for the commands after it
  (the suite runs alone in CI; a taken port fails the walk in one line, it never skips);
- `bots add` prints the password the walk then exports, as the README's `export` line says; an `export`
  line whose values are written out (the vision service's endpoint and key) sets them as the shell would;
- a command that plays until stopped gets a Ctrl-C once its first match is over;
- `play-human` reads what a person would type from its standard input;
- a glob is expanded as the shell would.
Every command runs, the perfect-play tables' build among them: the margin table's first 7 layers, then
all 20 (1.1 GB, a few CPU minutes); `solve` goes on to the win table, about 22 CPU minutes, more than CI
can spend, so the walk stops it (Ctrl-C) once win layers 1..2 are on disk, runs it again to check that it
resumes at layer 3, and stops it again. The commands after it meet that partial win table, not a whole one.
The measurements behind the figures of the pages
are listed in measurements/README.md, not in the pages' shell blocks; test_readme_commands.py
checks that each of those commands parses.
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from doc_pages import shell_lines
from test_readme_commands import _readme_commands

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "bot" / "templates" / "files" / "random.py"
README_PORT = 8080


def _a_position(work: Path, home: Path) -> None:
    """`position.json`: one position as `analyze` reads it, the first of the curated endgames."""
    first = (REPO / "fixtures" / "strategies" / "positions.jsonl").read_text().splitlines()[0]
    (work / "position.json").write_text(first + "\n")


def _first_recording(work: Path, home: Path) -> None:
    """`game.jsonl`: a recording of an online game, here the first one `play --strategy` wrote (its labels let
    the check predict each Lay's points; a bot file records none)."""
    replays = [
        path
        for path in sorted((home / ".local" / "share" / "rummy-vision" / "replays").glob("*.jsonl"))
        if json.loads(path.read_text().splitlines()[0]).get("bot", "").startswith("strategy:")
    ]
    assert replays, "no recording of `play --strategy` to check"
    shutil.copy(replays[0], work / "game.jsonl")


def _recording_as_file(work: Path, home: Path) -> None:
    """`FILE.jsonl`: a recording `play` wrote, under the placeholder name of the docs."""
    _first_recording(work, home)
    shutil.copy(work / "game.jsonl", work / "FILE.jsonl")


@dataclass(frozen=True)
class Step:
    prints: tuple[str, ...] = ()  # fragments of the output (stdout and stderr, whitespace folded)
    awaits: tuple[str, ...] = ()  # with `background` or `interrupt`: what it prints before the walk goes on
    exit_code: int = 0
    background: bool = False  # a server: started, awaited until it prints `awaits`, stopped when the walk ends
    interrupt: bool = False  # runs until Ctrl-C: sent once `awaits` have appeared
    stdin: str | None = None  # what a person types
    prepare: Callable[[Path, Path], None] | None = None  # (work, home): what the README assumes is there
    wait_s: float = 300  # how long `awaits` may take to appear
    # With `interrupt`: run the command again, stop it once it prints these (a resumed build says where it
    # resumes), and check it printed none of `again_not` (work the first run had already done).
    again: tuple[str, ...] = ()
    again_not: tuple[str, ...] = ()


PERSON_PLAYS = "hint\ngive 1\nhelp\nlay 1\n"  # the coach, a move, the help, a line that is refused; then EOF

WALK: dict[str, Step] = {
    "rummy-vision match expectimax greedy --duplicate": Step(
        ("expectimax", "greedy", "20 rounds, duplicate deals", "no perfect-play table", "Recorded 20 rounds")
    ),
    # The README's `export` lines for the vision service are what it prints.
    "rummy-vision serve --oracle --vision": Step(
        (
            "/viewer",
            "/play",
            "/docs",
            "vision service (oracle)",
            "AZURE_VISION_ENDPOINT=http://127.0.0.1:8080 AZURE_VISION_KEY=rummy-vision-local-key",
            "AZURE_CALLS_PER_PERIOD=1000 AZURE_PERIOD_SECONDS=1",
        ),
        awaits=("http://127.0.0.1:8080/viewer", "CUSTOM_VISION_PERIOD_SECONDS"),
        background=True,
    ),
    "rummy-vision bots add mybot": Step(("Registered bot mybot", "shown only now")),
    # The strong template with no vision key: every card unknown, it still plays.
    "rummy-vision play --bot mybot.py --opponent housebot-practise": Step(
        ("Matches played", "housebot-practise", "labels: 0 of")
    ),
    # The same file once the README's `export` lines point it at `serve --vision`: every card labelled.
    "rummy-vision play --bot mybot.py --opponent housebot-greedy": Step(
        ("Matches played", "housebot-greedy", "cards known, 0 unknown")
    ),
    "rummy-vision play --strategy expectimax --recognizer oracle --opponent housebot-greedy --games 5": Step(
        ("Matches played", "housebot-greedy", "replay of #5", "recognizer left 0.0% of")
    ),
    "rummy-vision play --bot my_bot.py --opponent housebot-practise --forever": Step(
        ("match 1: game", "stopped by Ctrl-C", "Matches played", "replay of #1"),
        awaits=("match 1: game",),
        interrupt=True,
        exit_code=130,
    ),
    ".venv/bin/rummy-vision solve --top 7": Step(("layers 1..7", "89,652,721 states stored", "Done in")),
    ".venv/bin/rummy-vision solve --verify 200": Step(
        (
            "layers 1..7, checksums passed",
            "1400 states checked from the layer below",
            "max difference",
            "No win table at",
        )
    ),
    ".venv/bin/rummy-vision analyze position.json --strategy perfect": Step(
        ("exact, solved on demand to the end of the round", "(layers 1..7)", "no win table"), prepare=_a_position
    ),
    # The whole win table is about 22 CPU minutes, more than CI can spend: the walk stops `solve` once the
    # margin table and win layers 1..2 are on disk, runs it again to see it resume at win layer 3, and stops
    # it again. The commands after it meet that partial win table (docs/perfect-play.md says what it gives).
    ".venv/bin/rummy-vision solve": Step(
        ("layers 1..20", "7 layer(s) already built", "holds layers 1..20", "win layer 2/20 done", "Interrupted"),
        awaits=("win layer 2/20 done",),
        interrupt=True,
        exit_code=130,
        wait_s=1500,
        again=("20 layer(s) already built", "2 win layer(s) already built"),
        again_not=("win layer 1/20 done", "win layer 2/20 done"),
    ),
    "rummy-vision train --episodes 2000 --seed 1 --eval-every 1000": Step(
        ("episode 0: win rate vs heuristic", "episode 2000:", "weights-last.npz (episode 2000")
    ),
    "rummy-vision match expectimax:nodes=20000 greedy --rounds 10 --duplicate": Step(
        ("10 rounds, duplicate deals", "20000 nodes")
    ),
    'rummy-vision match "greedy@harsh:0.1" greedy --rounds 4 --duplicate --no-record': Step(
        ("greedy@harsh:0.1", "recognizer harsh:0.1", "decides on a belief over the cards", "true labels")
    ),
    "rummy-vision match heuristic my_bot.py --recognizer noisy:0.1": Step(
        ("heuristic", "my_bot", "20 rounds, random seats", "heuristic: heuristic", "bot file", "Recorded 20 rounds")
    ),
    "rummy-vision tournament random greedy heuristic expectimax --rounds 20 --workers 2": Step(
        ("Tournament 1:", "expectimax", "Stored as tournament 1")
    ),
    # Game 12 is whichever tournament round finished twelfth (two workers), so its length varies: a round
    # can end at step 5, but not by step 2 (a Lay takes 3 to 5 of a 10-card hand, so no hand is empty yet).
    "rummy-vision replay 12 --turn 2": Step(("step 2",)),
    "rummy-vision replay 12 --turn 2 --continue-with expectimax": Step(("expectimax",)),
    "rummy-vision replay ~/.local/share/rummy-vision/replays/FILE.jsonl": Step(("FILE.jsonl",), exit_code=2),
    # The README's `serve --oracle --vision` still runs: the file (a recording `play` wrote above) goes to its viewer.
    "rummy-vision replay FILE.jsonl --viewer": Step(
        ("is in the viewer", "http://127.0.0.1:8080/viewer#file/", "/viewer/review/file/", "not the arena's photos"),
        prepare=_recording_as_file,
    ),
    "rummy-vision selfplay --seed 7": Step(("Final scores", "winner")),
    "rummy-vision play-human --opponent hard": Step(
        ("Game", "hard", "your move", "You left the match"), stdin=PERSON_PLAYS
    ),
    "rummy-vision play-human --opponent easy --style 6 --objective win --base-url http://127.0.0.1:8080": Step(
        ("Game", "easy", "your move", "You left the match"), stdin=PERSON_PLAYS
    ),
    "rummy-vision new-bot mybot.py --template strong": Step(("Wrote the strong template to mybot.py", "play --bot")),
    "rummy-vision check-recording ~/.local/share/rummy-vision/replays/*.jsonl": Step(
        ("-mybot-vs-housebot-greedy.jsonl: no divergence",)
    ),
    # On the local referee's recording, the hypothesis that points are shown net is refuted, line by line.
    "rummy-vision check-recording game.jsonl --points-shown net": Step(
        ("game.jsonl:", "divergences", "the recording has"), exit_code=1, prepare=_first_recording
    ),
    # Every reading tried at once: the local referee's own recording fits its rules (points shown as sets).
    "rummy-vision check-recording game.jsonl --all-readings": Step(
        ("readings fit every file", "points_shown: sets"), prepare=_first_recording
    ),
    "rummy-vision review latest --html review.html": Step(("Review of match", "review.html", "estimate")),
    "rummy-vision ratings": Step(("Ratings over every tournament", "expectimax")),
    "rummy-vision review latest": Step(("Review of match", "rummy-vision solve")),
    "rummy-vision review 12 --json": Step(('"GameId": 12', '"Grader"')),
    "rummy-vision review 12 --objective margin --html r.html": Step(("r.html",)),
    "rummy-vision measure --help": Step(("strength", "duel", "noise-cost", "measurements/NAME.json")),
}


def test_every_readme_command_has_a_step() -> None:
    missing = [command for command in _readme_commands() if command not in WALK]
    assert not missing, f"commands of the README or docs/ with no entry in WALK: {missing}"
    stale = [command for command in WALK if command not in _readme_commands()]
    assert not stale, f"WALK entries no longer in the README or docs/: {stale}"


# 29 commands, the margin table and win layers 1..2 among them (15+ minutes under load), then the review check
@pytest.mark.timeout(3600)
def test_walk_the_readme_in_a_fresh_home(tmp_path: Path) -> None:
    walk(tmp_path)
    review_agrees_on_every_step(tmp_path / "home", tmp_path / "review-check")


WHOLE_MATCH_REVIEW = (
    "tests/strategies/test_review_perfect_agrees.py::test_perfect_review_of_a_whole_match_agrees_with_analyze"
)


def review_agrees_on_every_step(home: Path, basetemp: Path) -> None:
    """The walk has built the whole margin table, which no other test can afford: on it, the `slow` test
    that compares the `perfect` review with `analyze` on every step of a whole match runs here, in CI."""
    tables = sorted((home / ".local" / "share" / "rummy-vision" / "tables").glob("margin-*.rvt"))
    assert len(tables) == 1, f"the walk should leave one margin table, found {tables}"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "slow", "-q", "-p", "no:cacheprovider", f"--basetemp={basetemp}"]
        + [WHOLE_MATCH_REVIEW],
        cwd=REPO,
        env={**os.environ, "RUMMY_VISION_VERIFY_TABLE": str(tables[0])},
        capture_output=True,
        text=True,
        timeout=1800,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "2 passed" in said, said[-3000:]


class Walker:
    """A newcomer's shell: a fresh home, a work folder holding their arena file, the README's exports."""

    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home"
        self.work = tmp_path / "work"
        self.logs = tmp_path / "logs"
        for folder in (self.home, self.work, self.logs):
            folder.mkdir()
        shutil.copy(TEMPLATE, self.work / "my_bot.py")  # the newcomer's own arena editor file
        self.bin_dir = Path(sys.executable).parent
        self.env = {
            "HOME": str(self.home),
            "PATH": f"{self.bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "COLUMNS": "200",
            "CI": os.environ.get("CI", ""),
        }
        self.servers: list[tuple[str, subprocess.Popen[str]]] = []
        self.log: list[str] = []  # (command, seconds) for a failure's message

    def words(self, command: str) -> list[str]:
        words: list[str] = []
        for word in shlex.split(command):
            word = os.path.expanduser(word).replace(str(Path("~").expanduser()), str(self.home))
            if word.startswith("~"):
                word = str(self.home) + word[1:]
            words.extend(sorted(glob.glob(word)) or [word] if "*" in word else [word])
        words[0] = str(self.bin_dir / "rummy-vision")
        return words

    def run(self, command: str, step: Step) -> str:
        if step.prepare is not None:
            step.prepare(self.work, self.home)
        words = self.words(command)
        if step.background or step.interrupt:
            said, code = self._run_until(command, words, step)
            if step.again:
                said_again, code_again = self._run_until(command, words, step, step.again)
                assert code_again == step.exit_code, (command, "again", code_again, said_again[-3000:])
                for fragment in step.again_not:
                    assert fragment not in " ".join(said_again.split()), (command, "again", fragment, said_again)
                said += said_again
        else:
            done = subprocess.run(
                words, cwd=self.work, env=self.env, capture_output=True, text=True, timeout=600, input=step.stdin
            )
            said, code = done.stdout + done.stderr, done.returncode
        flat = " ".join(said.split())
        print(f"$ {command}\n{flat[:1500]}\n")  # shown by pytest when the walk fails
        assert code == step.exit_code, (command, code, flat[-3000:])
        for fragment in step.prints:
            assert fragment in flat, (command, fragment, flat[-3000:])
        if command.startswith("rummy-vision bots add "):
            # The README's next line: export RUMMY_VISION_BOT_ID=mybot RUMMY_VISION_BOT_PASSWORD=...
            self.env["RUMMY_VISION_BOT_ID"] = shlex.split(command)[-1]
            self.env["RUMMY_VISION_BOT_PASSWORD"] = said.strip().splitlines()[-1]
        return flat

    def _run_until(
        self, command: str, words: list[str], step: Step, awaits: tuple[str, ...] | None = None
    ) -> tuple[str, int | None]:
        awaits = step.awaits if awaits is None else awaits
        out = self.logs / f"{len(list(self.logs.iterdir()))}.log"
        with out.open("w") as sink:
            process = subprocess.Popen(
                words, cwd=self.work, env=self.env, stdout=sink, stderr=subprocess.STDOUT, text=True
            )
        deadline = time.monotonic() + step.wait_s
        while not all(fragment in " ".join(out.read_text().split()) for fragment in awaits):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError((command, "ended or timed out before printing", awaits, out.read_text()))
            time.sleep(0.2)
        if step.background:
            self.servers.append((command, process))
            return out.read_text(), step.exit_code
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=300)
        return out.read_text(), code

    def export(self, line: str) -> None:
        """An `export` line, as the shell runs it; a value the reader fills in (`...`) is left to the step that
        prints it (`bots add`)."""
        for assignment in shlex.split(line)[1:]:
            name, _, value = assignment.partition("=")
            if value != "...":
                self.env[name] = value

    def stop_servers(self) -> None:
        for _command, process in self.servers:
            process.send_signal(signal.SIGINT)
        for _command, process in self.servers:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _require_free_port(port: int) -> None:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            pytest.fail(
                f"port {port} is taken: the README walk starts `rummy-vision serve` there, as the README does;"
                " stop what holds it (the suite must run alone)",
                pytrace=False,
            )


def walk(tmp_path: Path) -> None:
    _require_free_port(README_PORT)
    walker = Walker(tmp_path)
    ran = []
    try:
        for command in shell_lines():
            if command.startswith("export "):
                walker.export(command)
                continue
            step = WALK[command]
            began = time.monotonic()
            walker.run(command, step)
            ran.append((command, round(time.monotonic() - began, 1)))
    finally:
        walker.stop_servers()
        print("\n".join(f"{seconds:6.1f} s  {command}" for command, seconds in ran))
    assert len(ran) == len(_readme_commands())
