"""A crashing bot: the first traceback of each distinct fault in full, pointing into the bot's own file, then a
count of the repeats; `match --json` carries the reasons."""

from __future__ import annotations

import json
import logging

from test_bot_runner_fake import run_games
from typer.testing import CliRunner

from bot.cli import app
from bot.players.faults import Fault, FaultLog, fault_from_exception, fault_from_problem
from bot.players.match_bots import file_bot

runner = CliRunner()
RAISER_LINE = 'raiser.py", line 9, in calculate_move'  # fixtures/bots/raiser.py raises KeyError on line 9


def test_match_shows_each_distinct_fault_once_in_full_then_counts_it(fixture_bots) -> None:
    bot = str(fixture_bots / "raiser.py")
    # A long move time: on a busy machine an overrun would add a second, unrelated fault.
    quiet = ["--rounds", "2", "--no-record", "--time-ms", "60000"]
    result = runner.invoke(app, ["match", bot, "greedy", *quiet], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert result.output.count(RAISER_LINE) == 1  # the traceback, once
    lines = result.output.splitlines()
    assert lines.count("KeyError: 'MyHandd'") == 1  # the traceback's last line
    (counted,) = [line for line in lines if line.startswith("calculate_move raised KeyError")]
    assert counted.endswith(" times)") and "(1 distinct)" in result.output

    as_json = runner.invoke(app, ["match", bot, "greedy", *quiet, "--json"])
    players = {player["name"]: player for player in json.loads(as_json.stdout)["players"]}
    raiser = players["raiser"]
    (reason,) = raiser["fault_reasons"]
    assert reason["key"] == "KeyError at raiser.py:9"
    assert reason["reason"] == "calculate_move raised KeyError: 'MyHandd' at raiser.py:9"
    assert reason["count"] == raiser["faults"] > 1
    assert RAISER_LINE in reason["traceback"] and "local_match.py" not in reason["traceback"]  # from the bot's frame on
    assert players["greedy"]["fault_reasons"] == []


def test_play_logs_the_traceback_once_and_the_count_at_the_end(fake_referee, fixture_bots, caplog) -> None:
    base, _log = fake_referee(move_time_ms=60_000)  # long: on a busy machine no overrun adds another fault
    with caplog.at_level(logging.INFO, logger="bot"):
        summaries = run_games(base, file_bot(fixture_bots / "raiser.py"), move_time_s=60)
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    full = [message for message in warnings if RAISER_LINE in message]
    assert len(full) == 1 and "KeyError: 'MyHandd'" in full[0]
    (total,) = [message for message in warnings if "times in all" in message]
    faults = sum(1 for message in caplog.messages if "KeyError" in message and "safe move replaced" in message)
    assert total.endswith(f"{faults} times in all (shown in full the first time)") and faults > 1
    assert summaries[0].fallbacks >= faults


def test_fault_keys_group_the_same_bug() -> None:
    def crash(value: int) -> None:
        raise ValueError(f"bad value {value}")

    faults = []
    for value in (1, 2):
        try:
            crash(value)
        except ValueError as error:
            faults.append(fault_from_exception(error, user_file=__file__))
    # Same line, different messages: one fault, counted twice (its first message kept).
    log = FaultLog([*faults, fault_from_problem("Take names card 12, not in OppHand")])
    log.add(fault_from_problem("Take names card 99, not in OppHand"))
    assert [(fault.summary.split(" at ")[0], count) for fault, count in log.entries()] == [
        ("calculate_move raised ValueError: bad value 1", 2),
        ("Take names card 12, not in OppHand", 2),
    ]
    sent = json.loads(json.dumps(log.to_json()))  # plain data: a worker process can send it
    assert sent[0]["count"] == 2 and Fault.from_json(sent[0]) == faults[0]


def test_play_json_summary_lists_the_fault_reasons(real_server, fixture_bots, tmp_path) -> None:
    base, passwords = real_server(move_time_ms=60_000)  # no overrun on a busy machine: the raise is the one fault
    args = ["play", "--base-url", base, "--bot", str(fixture_bots / "raiser.py"), "--opponent", "housebot-practise"]
    args += ["--game-style", "3", "--no-record", "--json", "--bot-id", "tester", "--password", passwords["tester"]]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[-1])
    (reason,) = summary["fault_reasons"]
    assert reason["key"] == "KeyError at raiser.py:9" and reason["count"] > 1 and RAISER_LINE in reason["traceback"]
