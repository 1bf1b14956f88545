"""Where the paid recognizers find their endpoints and keys: environment variables, then a config file.

Environment variables win over the file:

    AZURE_VISION_ENDPOINT, AZURE_VISION_KEY
    CUSTOM_VISION_PREDICTION_URL, CUSTOM_VISION_PREDICTION_KEY

The config file is TOML, at `RUMMY_VISION_CONFIG` or else `recognizers.toml` in the user config
directory (`~/.config/rummy-vision/` on Linux):

    [azure]
    endpoint = "https://<resource>.cognitiveservices.azure.com"
    key = "..."

    [customvision]
    prediction_url = "https://<resource>.cognitiveservices.azure.com/customvision/v3.0/Prediction/<project>/classify/iterations/<name>/url"
    prediction_key = "..."
    threshold = 0.5

    [cache]
    path = "/somewhere/labels.sqlite3"

    [images]
    private_hosts = ["mybox.lan"]  # besides loopback, private ranges and localhost: send bytes
    max_bytes = 4194304            # the largest picture sent as bytes (the services' limit)

`RUMMY_VISION_PRIVATE_HOSTS` (comma-separated) adds hosts to `private_hosts`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from recognizers.secrets import Secret

CONFIG_ENV = "RUMMY_VISION_CONFIG"


class SettingsError(ValueError):
    """A recognizer cannot be built: a setting is missing or the config file is unreadable."""


@dataclass(frozen=True)
class Settings:
    azure_endpoint: str | None = None
    azure_key: Secret | None = None
    customvision_url: str | None = None
    customvision_key: Secret | None = None
    customvision_threshold: float = 0.5
    cache_path: str | None = None
    private_hosts: tuple[str, ...] = ()
    image_max_bytes: int | None = None
    source: str = "defaults"  # the config file read (or looked for), for error messages


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir("rummy-vision")) / "recognizers.toml"


def load_settings(config: str | Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from `config` (or the default file, if it exists) overridden by the environment."""
    env = os.environ if env is None else env
    path = Path(config) if config is not None else Path(env.get(CONFIG_ENV) or default_config_path())
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise SettingsError(f"config file {path} is not valid TOML: {error}") from error
    elif config is not None:
        raise SettingsError(f"config file {path} does not exist")
    azure = data.get("azure", {})
    custom = data.get("customvision", {})
    cache = data.get("cache", {})
    images = data.get("images", {})

    def pick(env_name: str, section: Mapping[str, Any], key: str) -> str | None:
        value = env.get(env_name) or section.get(key)
        return str(value) if value else None

    azure_key = pick("AZURE_VISION_KEY", azure, "key")
    custom_key = pick("CUSTOM_VISION_PREDICTION_KEY", custom, "prediction_key")
    try:
        threshold = float(custom.get("threshold", 0.5))
    except (TypeError, ValueError) as error:
        raise SettingsError(f"[customvision] threshold in {path} must be a number") from error
    hosts = images.get("private_hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(host, str) for host in hosts):
        raise SettingsError(f"[images] private_hosts in {path} must be a list of host names")
    hosts += [host.strip() for host in env.get("RUMMY_VISION_PRIVATE_HOSTS", "").split(",") if host.strip()]
    max_bytes = images.get("max_bytes")
    if max_bytes is not None and (not isinstance(max_bytes, int) or max_bytes < 1):
        raise SettingsError(f"[images] max_bytes in {path} must be a positive whole number")
    return Settings(
        azure_endpoint=pick("AZURE_VISION_ENDPOINT", azure, "endpoint"),
        azure_key=Secret(azure_key) if azure_key else None,
        customvision_url=pick("CUSTOM_VISION_PREDICTION_URL", custom, "prediction_url"),
        customvision_key=Secret(custom_key) if custom_key else None,
        customvision_threshold=threshold,
        cache_path=str(cache["path"]) if cache.get("path") else None,
        private_hosts=tuple(hosts),
        image_max_bytes=max_bytes,
        source=str(path) if path.exists() else f"{path}, not found",
    )
