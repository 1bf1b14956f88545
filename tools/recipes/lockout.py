"""The lock-out attack on a bot that plays continuously: `python tools/measure.py lockout`.

A real `rummy-vision serve` and a real `rummy-vision play --forever` client (greedy, oracle labels,
style 1 against housebot-practise) run for `--duration-s` seconds while an attacker sends the
victim's BotId with a wrong password `--rate` times a second: every other attempt from the victim's
own address (127.0.0.1), the rest spread over other loopback addresses (127.0.0.2-254). The victim's
password is hashed with the default PBKDF2 cost, so every unthrottled guess costs a real check.

Counted: the victim's matches by end (a locked-out bot loses on time), whether the
client exited before it was stopped, the attacker's answers (refused vs throttled), and the victim's
throttled retries.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from server.accounts import Accounts
from server.storage.recorded_games import recorded_games
from server.storage.records import connect

VICTIM = "victim"
OPPONENT = "housebot-practise"
STYLE = 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
    with recorded_games(db_path) as recorded:
        games = [game for game in recorded.list_matches(limit=100_000) if VICTIM in game["Players"]]
    outcomes: Counter[str] = Counter()
    lost_on_time = 0
    for game in games:
        seat = game["Players"].index(VICTIM)
        outcome = game["GameStatus"][seat] or game["Status"]
        outcomes[str(outcome)] += 1
        if game["EndReason"] == "timeout" and outcome == "LOST":
            lost_on_time += 1
    return {"matches": len(games), "outcomes": dict(outcomes), "lost_on_time": lost_on_time}


def _add_victim(db_path: Path) -> str:
    """The victim's account in the records; its password."""
    db = connect(db_path)
    try:
        return Accounts(db).add_bot(VICTIM)
    finally:
        db.close()


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()


def measure(duration_s: float, rate: float, workdir: Path) -> dict[str, Any]:
    """Serve, play and attack for `duration_s` seconds in `workdir`; the attacker's and the victim's counts."""
    db_path = workdir / "records.sqlite3"
    password = _add_victim(db_path)
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
        _stop(server)
    log_text = client_log.read_text(errors="replace")
    return {
        "duration_s": duration_s,
        "attack_s": round(attack_s, 1),
        "attack_rate_per_s": rate,
        "attacker_answers": dict(attacker),
        "victim": {
            **_victim_matches(db_path),
            "client_exits": 1 if exited_early else 0,
            "client_exit_code": exit_code if exited_early else None,
            "throttled_retries": log_text.count("login throttled"),
        },
    }


def survived(figures: dict[str, Any]) -> bool:
    """The attack cost the victim nothing: no match lost on time, and the client never stopped."""
    victim = figures["victim"]
    return bool(victim["lost_on_time"] == 0 and victim["client_exits"] == 0)
