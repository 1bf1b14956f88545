"""`errors:FILE.json:INNER`: INNER's answers, read by the belief with the error model measured in FILE.

A recognizer that states no error model is read with the assumed one (wrong 1 time in 10, see
rummy.belief.ASSUMED), which may be far from how it really errs: then the belief is sure where it should
doubt, or doubts where it could be sure, and says nothing. `rummy-vision measure recognizer-errors SPEC
--model-out FILE.json` measures how SPEC errs on simulated rounds and writes FILE; this wrapper hands that
model to the belief. The answers themselves are INNER's, unchanged.

`errors:assumed:INNER` reads INNER with the assumed model even when INNER states its own: what a bot that
knows nothing of its recognizer would do (to measure what knowing is worth).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rummy.belief import ASSUMED, ErrorModel
from rummy.labels import CardLabel, Recognizer, recognize_within

FORMAT = "rummy-vision error model"
VERSION = 1


class ErrorFileError(ValueError):
    """An error-model file that cannot be read, with what was wrong and where."""


class StatedErrors:
    """INNER's answers, with the error model given here instead of INNER's own."""

    def __init__(self, inner: Recognizer, model: ErrorModel, name: str) -> None:
        self.inner = inner
        self.error_model = model
        self.name = name

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        return recognize_within(self.inner, cards, catalog, budget_s)

    def __repr__(self) -> str:
        return f"StatedErrors({self.inner!r}, {self.name!r})"


def model_json(model: ErrorModel, measured: Mapping[str, Any]) -> dict[str, Any]:
    """The file `errors:FILE.json` reads: the model, and what it was measured on (spec, rounds, seeds, counts)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "error_rate": model.error_rate,
        "runner_up": model.runner_up,
        "reliability": [[edge, right] for edge, right in model.reliability],
        "source": model.source,
        "measured": dict(measured),
    }


def load_error_model(path: Path | str) -> ErrorModel:
    """The error model in an `errors:` file; ErrorFileError says what is wrong with a bad one."""
    where = Path(path)
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ErrorFileError(f"{where}: no such error-model file (write one with measure recognizer-errors)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ErrorFileError(f"{where}: cannot read it ({error})") from None
    except json.JSONDecodeError as error:
        raise ErrorFileError(f"{where}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ErrorFileError(f'{where}: not an error-model file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise ErrorFileError(f"{where}: version {data.get('version')!r}; this rummy-vision reads version {VERSION}")
    try:
        reliability = _bins(data.get("reliability", []))
        measured = data.get("measured", {})
        spec = measured.get("recognizer", "?") if isinstance(measured, dict) else "?"
        return ErrorModel(
            _number(data["error_rate"]),
            runner_up=_number(data["runner_up"]),
            reliability=reliability,
            source=f"measured in {where.name} ({spec}): " + str(data.get("source", "")).removeprefix("measured: "),
        )
    except KeyError as error:
        raise ErrorFileError(f"{where}: the field {error} is missing") from None
    except (TypeError, ValueError) as error:
        raise ErrorFileError(f"{where}: {error}") from None


def _bins(found: Any) -> tuple[tuple[float, float], ...]:
    """The reliability bins, [[upper edge, chance right], ...]; a ValueError naming the shape when they are not."""
    if not isinstance(found, list) or not all(isinstance(item, list) and len(item) == 2 for item in found):
        raise ValueError(f"reliability must be a list of [upper edge, chance right] pairs, not {str(found)[:80]}")
    return tuple((_number(edge), _number(right)) for edge, right in found)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"expected a number, got {value!r}")
    return float(value)


def stated_errors(rest: str, inner_of: Any) -> Recognizer:
    """`errors:FILE.json[:INNER]` or `errors:assumed[:INNER]` (INNER default oracle); `inner_of(spec)` builds INNER."""
    where, _, inner_spec = rest.partition(":")
    if not where:
        raise ValueError("errors needs a model file or 'assumed', as in errors:azure-errors.json:azure")
    inner = inner_of(inner_spec or "oracle")
    if where == "assumed":
        return StatedErrors(inner, ASSUMED, f"errors:assumed:{inner.name}")
    return StatedErrors(inner, load_error_model(where), f"errors:{Path(where).name}:{inner.name}")
