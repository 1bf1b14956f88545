"""Measure the lock-out attack on a bot that plays continuously (issue 28, item 1).

A real `rummy-vision serve` and a real `rummy-vision play --forever` client (greedy, oracle labels,
style 1 against housebot-practise) run for `--duration-s` seconds while an attacker sends the
victim's BotId with a wrong password `--rate` times a second: every other attempt from the victim's
own address (127.0.0.1), the rest spread over other loopback addresses (127.0.0.2-254). The victim's
password is hashed with the default PBKDF2 cost, so every unthrottled guess costs a real check.

Counted: the victim's matches by end (lost on time is what the attack caused before), whether the
client exited before it was stopped, the attacker's answers (refused vs throttled), and the victim's
throttled retries. The result goes to measurements/lockout.json with the command, commit, machine
and load.

    python -m bot.measure_lockout [--duration-s 900] [--rate 1] [--out measurements/lockout.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from rummy.records import Records, connect
from server.accounts import Accounts

VICTIM = "victim"
OPPONENT = "housebot-practise"
STYLE = 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _wait_for(base: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/games", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"the server at {base} did not start within {timeout_s:.0f} s")


def _attack(prod: str, duration_s: float, rate: float) -> Counter[str]:
    """Wrong passwords for the victim's BotId at `rate` per second; returns the answers by kind."""
    answers: Counter[str] = Counter()
    clients = {
        address: httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)
        for address in ["127.0.0.1", *(f"127.0.0.{n}" for n in range(2, 255))]
    }
    spread = [address for address in clients if address != "127.0.0.1"]
    started = time.monotonic()
    sent = 0
    try:
        while time.monotonic() - started < duration_s:
            address = "127.0.0.1" if sent % 2 == 0 else spread[(sent // 2) % len(spread)]
            body = {"BotId": VICTIM, "BotPassword": f"guess-{sent}"}
            try:
                answer = clients[address].post(prod + "GM-GetListOfGameStyles", json=body).json()
                message = str(answer.get("ErrorMessage", ""))
                answers["throttled" if message.startswith("too many failed logins") else str(answer.get("Result"))] += 1
            except (httpx.HTTPError, ValueError) as error:
                answers[f"error {type(error).__name__}"] += 1
            sent += 1
            time.sleep(max(0.0, started + sent / rate - time.monotonic()))
    finally:
        for client in clients.values():
            client.close()
    return answers


def _victim_matches(db_path: Path) -> dict[str, Any]:
    records = Records(db_path)
    try:
        games = [game for game in records.list_matches(limit=100_000) if VICTIM in game["Players"]]
    finally:
        records.close()
    outcomes: Counter[str] = Counter()
    lost_on_time = 0
    for game in games:
        seat = game["Players"].index(VICTIM)
        outcome = game["GameStatus"][seat] or game["Status"]
        outcomes[str(outcome)] += 1
        if game["EndReason"] == "timeout" and outcome == "LOST":
            lost_on_time += 1
    return {"Matches": len(games), "Outcomes": dict(outcomes), "LostOnTime": lost_on_time}


def measure(duration_s: float, rate: float, workdir: Path) -> dict[str, Any]:
    db_path = workdir / "records.sqlite3"
    db = connect(db_path)
    try:
        password = Accounts(db).add_bot(VICTIM)
    finally:
        db.close()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    cli = [str(Path(sys.executable).with_name("rummy-vision"))]
    server = subprocess.Popen(
        [*cli, "serve", "--port", str(port), "--db", str(db_path), "--oracle", "--log-level", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=open(workdir / "server.log", "w"),  # noqa: SIM115 - closed with the process
    )
    client_log = workdir / "client.log"
    client: subprocess.Popen[bytes] | None = None
    load_before = os.getloadavg()
    started = time.monotonic()
    try:
        _wait_for(base)
        env = {**os.environ, "RUMMY_VISION_BOT_ID": VICTIM, "RUMMY_VISION_BOT_PASSWORD": password}
        with open(client_log, "w") as log_file:
            client = subprocess.Popen(
                [
                    *cli,
                    *("play", "--base-url", base + "/prod/", "--strategy", "greedy", "--recognizer", "oracle"),
                    *("--game-style", str(STYLE), "--opponent", OPPONENT, "--forever", "--no-record", "--json"),
                    "--verbose",
                ],
                env=env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
            attack_started = time.monotonic()
            attacker = _attack(base + "/prod/", duration_s, rate)
            attack_s = time.monotonic() - attack_started
            exited_early = client.poll() is not None
            exit_code = client.returncode
            if not exited_early:
                client.send_signal(signal.SIGINT)
                client.wait(timeout=60)
    finally:
        if client is not None and client.poll() is None:
            client.kill()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
    wall_s = time.monotonic() - started
    log_text = client_log.read_text(errors="replace")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "DurationS": duration_s,
        "AttackS": round(attack_s, 1),
        "WallS": round(wall_s, 1),  # with the server's and the client's start and stop
        "AttackRatePerS": rate,
        "AttackerAnswers": dict(attacker),
        "Victim": {
            **_victim_matches(db_path),
            "ClientExits": 1 if exited_early else 0,
            "ClientExitCode": exit_code if exited_early else None,
            "ThrottledRetries": log_text.count("login throttled"),
        },
        "ChildCpuS": round(children.ru_utime + children.ru_stime, 1),
        "Load": {"Before": [round(x, 2) for x in load_before], "After": [round(x, 2) for x in os.getloadavg()]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration-s", type=float, default=900.0, help="how long the attack runs (default 15 min)")
    parser.add_argument("--rate", type=float, default=1.0, help="wrong-password logins per second")
    parser.add_argument("--out", type=Path, default=Path("measurements/lockout.json"))
    parser.add_argument("--commit", default=None, help="the commit measured (default: git rev-parse HEAD here)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lockout-") as workdir:
        figures = measure(args.duration_s, args.rate, Path(workdir))
    result = {
        "Command": "python -m bot.measure_lockout " + " ".join(argv if argv is not None else sys.argv[1:]),
        "Commit": args.commit or _commit(),
        "Machine": {"Platform": platform.platform(), "Cpus": os.cpu_count(), "Python": platform.python_version()},
        "Seeds": "none: the server deals at random; the attack and the count do not depend on the deal",
        **figures,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    victim = figures["Victim"]
    return 0 if victim["LostOnTime"] == 0 and victim["ClientExits"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
