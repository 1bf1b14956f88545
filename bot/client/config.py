"""Where the bot's name and password come from, and keeping the password out of every output.

Precedence, first found wins, separately for the name and the password:
1. the command line (`--bot-id`, `--password`);
2. the environment (`RUMMY_VISION_BOT_ID`, `RUMMY_VISION_BOT_PASSWORD`);
3. a TOML config file, by default `config.toml` in the user config directory
   (`platformdirs.user_config_dir("rummy-vision")`, e.g. `~/.config/rummy-vision/config.toml`),
   or the file named by `RUMMY_VISION_CONFIG`::

       bot_id = "my-bot"
       password = "..."
       base_url = "http://127.0.0.1:8080/prod/"   # optional

The password is held in a field that no repr shows, and `redacting_filter` scrubs it from any
log record that might carry it anyway.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from platformdirs import user_config_dir
from pydantic import Field

from rummy.config_layers import ConfigLayerError, LayeredSettings, read_layers

ENV_BOT_ID = "RUMMY_VISION_BOT_ID"
ENV_PASSWORD = "RUMMY_VISION_BOT_PASSWORD"
ENV_CONFIG = "RUMMY_VISION_CONFIG"
DEFAULT_BASE_URL = "http://127.0.0.1:8080/prod/"
REDACTED = "********"


class ConfigError(ValueError):
    """The credentials or the config file are missing or unusable; the message says which and where."""


@dataclass(frozen=True)
class Credentials:
    bot_id: str
    password: str = field(repr=False)

    def __str__(self) -> str:
        return f"{self.bot_id} (password {REDACTED})"


class FileConfig(LayeredSettings):
    """What the config file holds; the environment's name and password are read by `resolve_credentials`."""

    bot_id: str | None = None
    password: str | None = Field(default=None, repr=False)
    base_url: str | None = None


def default_config_path() -> Path:
    return Path(user_config_dir("rummy-vision")) / "config.toml"


def load_config_file(path: Path) -> FileConfig:
    """Read the TOML config; a missing file is an empty config, a broken one a ConfigError."""
    try:
        return read_layers(FileConfig, path, {}, {})
    except ConfigLayerError as error:
        raise ConfigError(str(error)) from None


def resolve_credentials(
    bot_id: str | None = None,
    password: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    config_path: Path | None = None,
) -> Credentials:
    env = os.environ if environ is None else environ
    path = config_path or (Path(env[ENV_CONFIG]) if env.get(ENV_CONFIG) else default_config_path())
    needs_file = not (bot_id or env.get(ENV_BOT_ID)) or (password is None and ENV_PASSWORD not in env)
    file_config = load_config_file(path) if needs_file else FileConfig()
    found_id = bot_id or env.get(ENV_BOT_ID) or file_config.bot_id
    found_password = password if password is not None else env.get(ENV_PASSWORD, file_config.password)
    if not found_id:
        raise ConfigError(f"no bot name: pass --bot-id, set {ENV_BOT_ID}, or put bot_id in {path}")
    if found_password is None:
        raise ConfigError(
            f"no password for bot {found_id!r}: pass --password, set {ENV_PASSWORD}, or put password in {path}"
        )
    return Credentials(found_id, found_password)


def resolve_base_url(base_url: str | None, *, environ: Mapping[str, str] | None = None) -> str:
    """The base URL to play against, always ending in '/'; the local server by default.

    A bare server address (`http://127.0.0.1:8080`) means its protocol base under /prod/, as for
    `recognize --base-url`: both commands take either form."""
    env = os.environ if environ is None else environ
    chosen = base_url
    if not chosen:
        path = Path(env[ENV_CONFIG]) if env.get(ENV_CONFIG) else default_config_path()
        chosen = load_config_file(path).base_url or DEFAULT_BASE_URL
    return protocol_base(chosen)


def protocol_base(base_url: str) -> str:
    """The protocol's base URL, ending in '/': a bare server address (no path) gets the arena's /prod/."""
    url = httpx.URL(base_url.strip())
    if url.path in ("", "/"):
        url = url.copy_with(path="/prod/")
    text = str(url)
    return text if text.endswith("/") else text + "/"


class RedactingFilter(logging.Filter):
    """Replaces the secret in a record's rendered message (defence in depth: we never log it on purpose)."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        message = record.getMessage()
        if self.secret in message:
            record.msg = message.replace(self.secret, REDACTED)
            record.args = None
        return True


def redacting_filter(credentials: Credentials) -> RedactingFilter:
    return RedactingFilter(credentials.password)
