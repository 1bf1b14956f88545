"""`play` shows the share of cards its recognizer left unknown, per match and over the run, also in `--json`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from bot.cli.match_output import blindness_warning
from bot.matches.summary import Blindness, reason_counts


def _play(base: str, password: str, tmp_path: Path, strategy: str, recognizer: str, *extra: str):
    args = ["play", "--base-url", base, "--strategy", strategy, "--recognizer", recognizer]
    args += ["--opponent", "housebot-practise", "--game-style", "3", "--no-record", "--password", password, *extra]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml"), "COLUMNS": "300"}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    return result


def test_play_json_gives_the_unknown_share_per_match_and_in_the_summary(real_server, tmp_path):
    base, passwords = real_server(move_time_ms=60_000)
    # The stub knows no card; a picture-blind strategy may still play with it.
    result = _play(base, passwords["tester"], tmp_path, "random", "stub", "--json")
    match, summary = [json.loads(line) for line in result.stdout.splitlines()]
    assert match["cards_seen"] > 0 and match["unknown_share"] == 1.0
    assert summary["cards_seen"] == match["cards_seen"] and summary["cards_unknown"] == match["cards_unknown"]
    assert summary["unknown_share"] == match["unknown_share"]
    # The stub says why, per card; the summary counts them as one kind of reason.
    assert sum(match["unknown_reasons"].values()) == match["cards_unknown"]
    [reason] = summary["unknown_reasons"]
    assert reason["cards"] == match["cards_unknown"] and reason["reason"].startswith("stub has no label for ...")


def test_play_table_shows_the_share_and_warns_when_cards_went_unknown(real_server, tmp_path):
    base, passwords = real_server(move_time_ms=60_000)
    clear = " ".join(_play(base, passwords["tester"], tmp_path, "greedy", "oracle").output.split())
    assert "unknown" in clear and "recognizer left 0.0% of" in clear and "without knowing the cards" not in clear
    noisy = " ".join(_play(base, passwords["tester"], tmp_path, "random", "stub").output.split())
    assert "strategy:random: its recognizer left 100.0%" in noisy and "without knowing the cards" in noisy
    assert "x stub has no label for ... (offline; no network used) (e.g. http" in noisy


def test_cards_seen_count_every_round_although_ids_repeat(real_server, tmp_path):
    # Every round deals ids 0..39 afresh: counted by id, a 5-round match would stop at 40 cards seen.
    base, passwords = real_server(move_time_ms=60_000)
    result = _play(base, passwords["tester"], tmp_path, "greedy", "oracle", "--json", "--game-style", "2")
    match = json.loads(result.stdout.splitlines()[0])
    assert match["cards_seen"] > 40 and match["cards_unknown"] == 0


def test_reasons_are_counted_by_kind_with_an_example():
    # A kind is a reason with its particulars (a quoted name, an address, a number) left out.
    rounds = [
        (("recognizer named 'giralda tower', which is not in AllCardTypes", 2), ("noisy: no landmark found", 1)),
        (("recognizer named 'big ben clock', which is not in AllCardTypes", 3),),
        (("stub has no label for http://h/c/7.jpg (offline; no network used)", 1),),
    ]
    assert reason_counts(rounds) == (
        ("recognizer named ..., which is not in AllCardTypes (e.g. 'giralda tower')", 5),
        ("noisy: no landmark found", 1),
        ("stub has no label for http://h/c/7.jpg (offline; no network used)", 1),
    )


def test_a_reason_with_control_characters_is_shown_not_sent_to_the_terminal():
    # What a hostile service named comes back inside the reason; the warning must not carry its escapes.
    reasons = (("recognizer named '\x1b[2Jx', which is not in AllCardTypes", 5),)
    warning = blindness_warning("p", Blindness(cards_seen=10, cards_unknown=5, reasons=reasons))
    assert warning is not None and "\x1b" not in warning and "\\x1b[2Jx" in warning
