"""The recognizers' config file and environment, read by pydantic-settings: a value of the wrong kind
is refused in one line naming its key and its file (never showing the value, which may be a key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recognizers.settings import SettingsError, load_settings
from recognizers.tiers import STANDARD, TIER_ENV, tier_setting


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('azure = "https://x.example"\n', "azure must be a table, got str"),
        ("[azure]\nkey = 123456789\n", "[azure] key must be a string, got int"),
        ("[cache]\npath = 5\n", "[cache] path must be a string, got int"),
        ('[customvision]\nthreshold = "0.7"\n', "[customvision] threshold must be a number, got str"),
        ('[images]\nprivate_hosts = "box.lan"\n', "[images] private_hosts must be a list, got str"),
        ("[images]\nmax_bytes = 0\n", "[images] max_bytes must be at least 1, got int"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_in_one_line(tmp_path: Path, text: str, says: str) -> None:
    config = tmp_path / "recognizers.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError) as refused:
        load_settings(config, env={})
    message = str(refused.value)
    assert message == f"config file {config}: {says}"
    assert "\n" not in message and "123456789" not in message


def test_the_environment_overrides_the_file_section_by_section(tmp_path: Path) -> None:
    config = tmp_path / "recognizers.toml"
    config.write_text(
        '[azure]\nendpoint = "https://file.example"\ntier = "free"\n[images]\nprivate_hosts = ["a.lan"]\n',
        encoding="utf-8",
    )
    env = {"AZURE_VISION_KEY": "env-key", "RUMMY_VISION_PRIVATE_HOSTS": "b.lan, c.lan", TIER_ENV: "standard"}
    settings = load_settings(config, env=env)
    assert settings.azure_endpoint == "https://file.example"
    assert settings.azure_key is not None and settings.azure_key.reveal() == "env-key"
    assert settings.private_hosts == ("a.lan", "b.lan", "c.lan")
    assert tier_setting(env=env, config=config) == STANDARD
    # A tier is optional: a config file that is not there sets none.
    assert tier_setting(env={}, config=tmp_path / "absent.toml") is None
