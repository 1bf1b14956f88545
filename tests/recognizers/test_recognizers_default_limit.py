"""With no tier set, every Azure / Custom Vision recognizer takes the free tier's limit, shared by all processes."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from recognizers_fakes import GOOD_KEY, FakeAzure

from recognizers import registry
from recognizers.registry import get_recognizer
from recognizers.shared_limiter import SharedRateLimiter, default_limiter_path
from recognizers.tiers import FREE, TIER_ENV

# One process of a user's: an azure recognizer built with no tier and no limiter path, labelling 15 unseen
# cards within 3 s. It prints how many got a label.
LABEL_15 = """
import sys
from recognizers import registry
from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG
from rummy.labels import recognize_within
endpoint, key, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
azure = get_recognizer("azure", endpoint=endpoint, key=key, cache=":memory:")
cards = [(i, f"https://cards.example/{i}.png") for i in range(first, first + 15)]
labels = recognize_within(azure, cards, DEFAULT_CATALOG, 3.0)
print(sum(label.landmark is not None for label in labels.values()))
"""


def user_environment(home: Path) -> dict[str, str]:
    """The environment of a user who set no tier and has no config file, with their data under `home`."""
    env = {name: value for name, value in os.environ.items() if name != TIER_ENV}
    env |= {"XDG_DATA_HOME": str(home / "data"), "RUMMY_VISION_CONFIG": str(home / "no-config.toml")}
    return env


def test_two_processes_with_no_tier_share_the_free_tiers_twenty_calls(fake_azure: FakeAzure, tmp_path: Path) -> None:
    fake_azure.labeller = lambda url: "giralda"
    env = user_environment(tmp_path)
    command = [sys.executable, "-c", LABEL_15, fake_azure.base_url, GOOD_KEY]
    runs = [
        subprocess.Popen([*command, str(first)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for first in (0, 100)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    labelled = [int(out.strip().splitlines()[-1]) for out, _err in outputs]
    assert sum(labelled) == 20 and len(fake_azure.calls) == 20, (labelled, outputs)
    # Each process said, where its user looks, that it assumed the free tier.
    assert all("no Azure tier set" in err for _out, err in outputs), outputs


def test_no_tier_means_a_shared_free_limiter_and_a_warning(
    fake_azure: FakeAzure, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv(TIER_ENV, raising=False)
    monkeypatch.setattr(registry, "_FREE_TIER_SAID", set())  # said once per process: earlier tests may have
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    env = {"RUMMY_VISION_CONFIG": str(tmp_path / "no-config.toml")}
    with caplog.at_level(logging.WARNING, logger="recognizers"):
        azure = get_recognizer("azure", endpoint=fake_azure.base_url, key=GOOD_KEY, cache=":memory:", env=env)
    limiter = getattr(azure, "limiter", None)
    assert isinstance(limiter, SharedRateLimiter) and limiter.tier == FREE
    assert limiter.path == default_limiter_path() and str(tmp_path) in str(limiter.path)
    assert "no Azure tier set" in caplog.text and "20 calls per 60 s, 5,000 a month" in caplog.text
    custom = get_recognizer(
        "customvision",
        prediction_url=f"{fake_azure.base_url}/customvision/v3.0/Prediction/p/classify/iterations/i/url",
        key=GOOD_KEY,
        cache=":memory:",
        env=env,
    )
    custom_limiter = getattr(custom, "limiter", None)
    assert isinstance(custom_limiter, SharedRateLimiter) and custom_limiter.tier == FREE
    assert custom_limiter.key_name == "customvision"  # its calls are counted apart from Computer Vision's


def test_the_help_says_what_applies_when_no_tier_is_set() -> None:
    import typer

    from bot.cli.main import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    for name in ("recognize", "play"):
        tier = next(param for param in commands[name].params if param.name == "tier")
        assert "else free, with a warning" in tier.help, name
