"""Azure tiers as settings, the limiter shared by processes with its monthly count, and parallel calls."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest
from recognizers_fakes import GOOD_KEY, FakeAzure, FakeClock

from recognizers.failures import ApiFailure
from recognizers.registry import get_recognizer
from recognizers.shared_limiter import SharedRateLimiter
from recognizers.tiers import FREE, STANDARD, TIER_ENV, Tier, configured_tier, parse_tier, tier_setting
from rummy.catalog import DEFAULT_CATALOG


def test_tier_names_and_rates() -> None:
    assert parse_tier("free") == FREE and (FREE.calls, FREE.period_s, FREE.monthly) == (20, 60.0, 5000)
    assert parse_tier("Standard") == STANDARD and (STANDARD.calls, STANDARD.period_s, STANDARD.monthly) == (
        20,
        1.0,
        None,
    )
    assert (parse_tier("10/s").calls, parse_tier("10/s").period_s) == (10, 1.0)
    assert parse_tier("600/min").period_s == 60.0
    assert (parse_tier("20/min,5000").monthly, parse_tier("20/60s").period_s) == (5000, 60.0)
    for bad in ("gold", "0/s", "5/fortnight", ""):
        with pytest.raises(ValueError, match="tier|rate|period"):
            parse_tier(bad)


def test_tier_from_option_environment_and_config_file(tmp_path: Path) -> None:
    config = tmp_path / "recognizers.toml"
    assert tier_setting(env={}, config=config) is None and configured_tier(env={}, config=config) == FREE
    config.write_text('[azure]\ntier = "standard"\n', encoding="utf-8")
    assert tier_setting(env={}, config=config) == STANDARD
    assert tier_setting(env={TIER_ENV: "free"}, config=config) == FREE
    assert tier_setting("5/s", env={TIER_ENV: "free"}, config=config) == parse_tier("5/s")


def test_one_window_for_every_limiter_on_the_file(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "calls.sqlite3"
    first, second = (SharedRateLimiter(FREE, path, clock=clock, sleep=clock.sleep) for _ in range(2))
    granted = [limiter.acquire(max_wait=0) for _ in range(15) for limiter in (first, second)]
    assert granted.count(True) == 20, "two matches share one key's 20 calls a minute"
    clock.now += 60.0
    assert second.acquire(max_wait=0) and first.used_this_month() == 21


def test_monthly_quota_warns_then_stops_until_the_month_turns(tmp_path: Path, caplog) -> None:
    clock = FakeClock()
    clock.now = time.mktime((2026, 11, 30, 12, 0, 0, 0, 0, 0))
    tier = Tier("tiny", 100, 1.0, 10)
    limiter = SharedRateLimiter(tier, tmp_path / "calls.sqlite3", clock=clock, sleep=clock.sleep)
    with caplog.at_level(logging.WARNING, logger="recognizers"):
        assert all(limiter.acquire(max_wait=0) for _ in range(10))
    assert "8 of this month's 10 calls used (2 left)" in caplog.text
    reopened = SharedRateLimiter(tier, tmp_path / "calls.sqlite3", clock=clock, sleep=clock.sleep)
    with pytest.raises(ApiFailure, match="10 calls are used up"):
        reopened.acquire(max_wait=0)
    clock.now += 3 * 86400  # December
    assert reopened.acquire(max_wait=0) and reopened.used_this_month() == 1


def test_processes_share_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite3"
    code = (
        "import sys; from recognizers.shared_limiter import SharedRateLimiter; from recognizers.tiers import FREE;"
        f"lim = SharedRateLimiter(FREE, {str(path)!r});"
        "print(sum(lim.acquire(max_wait=0) for _ in range(15)))"
    )
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    granted = [int(run.communicate(timeout=120)[0]) for run in runs]
    assert sum(granted) == 20, granted


def test_standard_tier_sends_calls_in_parallel(fake_azure: FakeAzure, tmp_path: Path) -> None:
    fake_azure.delay_s = 0.2
    fake_azure.labeller = lambda url: "giralda"
    azure = get_recognizer(
        "azure",
        endpoint=fake_azure.base_url,
        key=GOOD_KEY,
        tier="standard",
        limiter_path=tmp_path / "calls.sqlite3",
        cache=":memory:",
    )
    cards = [(i, f"https://cards.example/{i}.png") for i in range(20)]
    labels = azure.recognize(cards, DEFAULT_CATALOG)
    assert all(label.landmark == "giralda" for label in labels.values())
    assert fake_azure.in_flight_max > 1 and len(fake_azure.calls) == 20


def test_recognize_takes_a_tier_and_refuses_an_unknown_one(tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    monkeypatch.setenv("AZURE_VISION_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setenv("AZURE_VISION_KEY", GOOD_KEY)
    result = CliRunner().invoke(app, ["recognize", "x.png", "--recognizer", "azure", "--tier", "gold"])
    assert result.exit_code == 2 and "unknown Azure tier 'gold'" in result.output
    result = CliRunner().invoke(app, ["play", "--strategy", "greedy", "--tier", "3/fortnight"])
    assert result.exit_code == 2 and "fortnight" in result.output
