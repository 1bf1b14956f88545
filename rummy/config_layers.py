"""Settings read in layers, later ones winning: a TOML file, then named environment variables.

pydantic-settings reads the TOML file; the settings model (a `LayeredSettings`) checks the merged
values, so a value of the wrong kind is refused in one line that names its key and where it came
from (the file, or the environment variable). The model reads nothing by itself: the process
environment is read only through the mapping a caller hands over, so tests pass their own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource


class ConfigLayerError(ValueError):
    """A config file is unreadable, or a value in it or in the environment is of the wrong kind."""


class LayeredSettings(BaseSettings):
    """A settings model that takes only the values `read_layers` merged (no source of its own)."""

    # Strict: a number where a name or a key belongs is a mistake to report, not a string to make of it.
    # Extra keys are ignored: one file serves several readers, each with its own sections.
    model_config = SettingsConfigDict(extra="ignore", frozen=True, strict=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


Model = TypeVar("Model", bound=LayeredSettings)

# What a refusal says for the usual mistakes; others keep pydantic's own words.
_KINDS = {
    "string_type": "must be a string",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "list_type": "must be a list",
    "bool_type": "must be true or false",
    "greater_than": "must be more than {gt}",
    "greater_than_equal": "must be at least {ge}",
    "dict_type": "must be a table",
    "model_type": "must be a table",
}


def read_layers(
    model: type[Model],
    toml_file: Path | None,
    environ: Mapping[str, str],
    env_names: Mapping[str, str],
) -> Model:
    """`model` from the TOML file (if it exists), overridden by the set, non-empty variables of
    `env_names` (variable -> dotted key, e.g. "azure.key")."""
    try:
        layers = dict(TomlConfigSettingsSource(model, toml_file=toml_file)()) if toml_file else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigLayerError(f"config file {toml_file} is not readable TOML: {error}") from None
    from_env: dict[str, str] = {}
    for variable, key in env_names.items():
        value = environ.get(variable)
        if value:
            _set(layers, key.split("."), value)
            from_env[key] = variable
    try:
        return model(**layers)
    except ValidationError as error:
        raise ConfigLayerError(_one_line(error, toml_file, from_env)) from None


def _set(tree: dict[str, Any], path: list[str], value: str) -> None:
    for part in path[:-1]:
        branch = tree.get(part)
        if not isinstance(branch, dict):
            branch = tree[part] = {}
        tree = branch
    tree[path[-1]] = value


def _one_line(error: ValidationError, toml_file: Path | None, from_env: Mapping[str, str]) -> str:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    kind = _KINDS.get(first["type"], str(first["msg"]).lower()).format(**first.get("ctx", {}))
    got = type(first["input"]).__name__  # the kind only: the value may be a key
    if key in from_env:
        return f"environment variable {from_env[key]}: {kind}"
    parts = [str(part) for part in first["loc"]]
    shown = f"[{parts[0]}] {'.'.join(parts[1:])}" if len(parts) > 1 else key
    return f"config file {toml_file}: {shown} {kind}, got {got}"
