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

`RUMMY_VISION_PRIVATE_HOSTS` (comma-separated) adds hosts to `private_hosts`. A value of the wrong
kind is refused in one line naming its key (rummy.config_layers).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, Field

from recognizers.secrets import Secret
from rummy.config_layers import ConfigLayerError, LayeredSettings, read_layers

CONFIG_ENV = "RUMMY_VISION_CONFIG"
TIER_ENV = "RUMMY_VISION_AZURE_TIER"
# Environment variables and the keys of the file they override.
ENVIRONMENT = {
    "AZURE_VISION_ENDPOINT": "azure.endpoint",
    "AZURE_VISION_KEY": "azure.key",
    "CUSTOM_VISION_PREDICTION_URL": "customvision.prediction_url",
    "CUSTOM_VISION_PREDICTION_KEY": "customvision.prediction_key",
    TIER_ENV: "azure.tier",
}


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


class _Section(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)


class _Azure(_Section):
    endpoint: str | None = None
    key: str | None = Field(default=None, repr=False)
    tier: str | None = None


class _CustomVision(_Section):
    prediction_url: str | None = None
    prediction_key: str | None = Field(default=None, repr=False)
    threshold: float = 0.5


class _Cache(_Section):
    path: str | None = None


class _Images(_Section):
    private_hosts: list[str] = []
    max_bytes: int | None = Field(default=None, ge=1)


class RecognizerFile(LayeredSettings):
    """The config file's sections, with the environment's overrides merged in."""

    azure: _Azure = _Azure()
    customvision: _CustomVision = _CustomVision()
    cache: _Cache = _Cache()
    images: _Images = _Images()


def read_file_and_environment(
    config: str | Path | None, env: Mapping[str, str], *, required: bool = True
) -> tuple[RecognizerFile, Path]:
    """The file's sections overridden by the environment, and the file's path. A file named by
    `config` that does not exist is a SettingsError when `required`; the default one may be absent."""
    path = Path(config) if config is not None else Path(env.get(CONFIG_ENV) or default_config_path())
    if required and config is not None and not path.exists():
        raise SettingsError(f"config file {path} does not exist")
    try:
        return read_layers(RecognizerFile, path, env, ENVIRONMENT), path
    except ConfigLayerError as error:
        raise SettingsError(str(error)) from None


def load_settings(config: str | Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from `config` (or the default file, if it exists) overridden by the environment."""
    env = os.environ if env is None else env
    found, path = read_file_and_environment(config, env)
    extra_hosts = [host.strip() for host in env.get("RUMMY_VISION_PRIVATE_HOSTS", "").split(",") if host.strip()]
    return Settings(
        azure_endpoint=found.azure.endpoint or None,
        azure_key=Secret(found.azure.key) if found.azure.key else None,
        customvision_url=found.customvision.prediction_url or None,
        customvision_key=Secret(found.customvision.prediction_key) if found.customvision.prediction_key else None,
        customvision_threshold=found.customvision.threshold,
        cache_path=found.cache.path or None,
        private_hosts=(*found.images.private_hosts, *extra_hosts),
        image_max_bytes=found.images.max_bytes,
        source=str(path) if path.exists() else f"{path}, not found",
    )
