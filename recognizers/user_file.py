"""A user's own recognizer: `--recognizer PATH.py[:INNER]`, or a name an installed package registers.

The file defines `make_recognizer(inner, **options)` and returns an object with the Recognizer interface
(`name`, and `recognize(cards, catalog)` returning {card id: CardLabel}). INNER (default `oracle`) is
built as for `noisy:RATE:INNER`, so a file can wrap the true labels with its own error model, or a real
service with its own model. `options` are the match's recognizer options, `noise_seed` among them (a
different seed for each seat and deal, so a seeded file gives each round its own errors). The object may
state how it errs as `error_model` (a `rummy.belief.ErrorModel`); without one the belief assumes the
default prior (wrong 1 time in 10).

Installed packages offer recognizers through the entry-point group `rummy_vision.recognizers`: the entry
point's name is the recognizer's name and it loads a `make_recognizer` factory, used as NAME[:INNER].
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from rummy.belief import ErrorModel
from rummy.labels import Recognizer, what_it_did

ENTRY_POINT_GROUP = "rummy_vision.recognizers"
_FILE_SPEC = re.compile(r"^(?P<path>.+?\.py)(?::(?P<inner>.*))?$")


class RecognizerFileError(ValueError):
    """A recognizer file that cannot serve; the message is one line that says why."""


def split_file_spec(spec: str) -> tuple[Path | None, str]:
    """(Path("my.py"), "harsh:0.1") from "my.py:harsh:0.1"; (None, spec) when spec names no .py file."""
    found = _FILE_SPEC.match(spec.strip())
    if found is None:
        return None, spec
    return Path(found["path"]).expanduser(), found["inner"] or ""


def entry_point_factory(name: str) -> Callable[..., Any] | None:
    """The factory an installed package registers under `name`, loaded; None when none does."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name == name:
            try:
                return point.load()  # type: ignore[no-any-return]
            except (Exception, SystemExit) as error:  # noqa: BLE001 - an installed package's code may do anything
                raise RecognizerFileError(
                    f"recognizer {name!r} ({ENTRY_POINT_GROUP} entry point {point.value}):"
                    f" loading it {what_it_did(error)}"
                ) from None
    return None


def load_recognizer_file(
    path: Path | None,
    inner: Recognizer,
    options: Mapping[str, Any],
    *,
    factory: Callable[..., Any] | None = None,
) -> Recognizer:
    """Build the recognizer a file (or an entry point's `factory`) makes around `inner`."""
    where = str(path) if path is not None else f"entry point of {ENTRY_POINT_GROUP}"
    if factory is None:
        assert path is not None
        factory = _factory_of(path)
    accepted = _accepted(factory, options)
    try:
        made = factory(inner, **accepted)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's code may raise anything; say where, in one line
        raise RecognizerFileError(f"{where}: make_recognizer {what_it_did(error)}") from None
    if not callable(_attribute(made, "recognize", where)):
        raise RecognizerFileError(
            f"{where}: make_recognizer returned {type(made).__name__}, which has no recognize(cards, catalog) method"
        )
    stated = _attribute(made, "error_model", where)
    if stated is not None and not isinstance(stated, ErrorModel):
        # Read as no model at all, the belief would assume the default one and say nothing of the mistake.
        raise RecognizerFileError(
            f"{where}: the recognizer's error_model is {type(stated).__name__} {stated!r}, "
            "not a rummy.belief.ErrorModel"
        )
    if not isinstance(_attribute(made, "name", where), str):
        try:
            made.name = path.stem if path is not None else "plugged"
        except AttributeError:
            raise RecognizerFileError(f"{where}: the recognizer has no `name` and none can be set") from None
    return made  # type: ignore[no-any-return]


def _factory_of(path: Path) -> Callable[..., Any]:
    if not path.is_file():
        raise RecognizerFileError(f"recognizer file {path} does not exist")
    module_spec = importlib.util.spec_from_file_location(f"rummy_vision_user_recognizer_{path.stem}", path)
    if module_spec is None or module_spec.loader is None:
        raise RecognizerFileError(f"{path}: not a Python file that can be loaded")
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a user's file may raise anything on import
        raise RecognizerFileError(f"{path}: loading it {what_it_did(error)}") from None
    factory = getattr(module, "make_recognizer", None)
    if not callable(factory):
        raise RecognizerFileError(f"{path}: defines no make_recognizer(inner, **options) function")
    return factory  # type: ignore[no-any-return]


def _attribute(made: Any, name: str, where: str) -> Any:
    """An attribute of the user's recognizer, or None; a property that raises is refused in one line."""
    try:
        return getattr(made, name, None)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a property of the user's may raise anything
        raise RecognizerFileError(f"{where}: reading the recognizer's {name} {what_it_did(error)}") from None


def _accepted(factory: Callable[..., Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the factory takes: all of them with **options, else those it names."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return dict(options)
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return dict(options)
    names = {parameter.name for parameter in parameters}
    return {key: value for key, value in options.items() if key in names}
