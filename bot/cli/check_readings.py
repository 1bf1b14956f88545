"""`check-recording --all-readings`: which open readings of the rules a set of recordings fits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.replay.check_recording import DEFAULT_READINGS, RULE_CHOICES, Fit, Readings, every_reading
from rummy import DEFAULT_RULES


def _value(fit: Fit, name: str) -> Any:
    return getattr(fit.rules, name) if name in RULE_CHOICES else getattr(fit.readings, name)


def report_readings(out: Any, files: list[Path]) -> bool:
    """Print the readings every file fits (or, when none does, the first divergence under each reading);
    True when at least one combination fits."""
    combos = every_reading(files)
    fitting = [fits for fits in combos if all(not fit.report.divergences for fit in fits)]
    names = [*RULE_CHOICES, *Readings.CHOICES]
    if fitting:
        out.print(f"{len(fitting)} of {len(combos)} readings fit every file:", highlight=False)
        for name in names:
            values = sorted({str(_value(fits[0], name)) for fits in fitting})
            said = values[0] if len(values) == 1 else f"any of {', '.join(values)} (the files do not tell)"
            out.print(f"  {name}: {said}", highlight=False, soft_wrap=True)
        return True
    out.print(f"No reading fits every file ({len(combos)} tried). The first divergence under each reading:")
    default = next(fits for fits in combos if fits[0].rules == DEFAULT_RULES and fits[0].readings == DEFAULT_READINGS)
    for name in names:
        for value in RULE_CHOICES.get(name) or Readings.CHOICES[name]:
            fits = next(
                fits
                for fits in combos
                if _value(fits[0], name) == value
                and all(_value(fits[0], other) == _value(default[0], other) for other in names if other != name)
            )
            first = next(((fit.report.path, fit.report.divergences[0]) for fit in fits if fit.report.divergences), None)
            said = "no divergence" if first is None else f"{first[0]}: {first[1].describe()}"
            out.print(f"  {name}={value}: {said}", highlight=False, soft_wrap=True)
    best = min(combos, key=lambda fits: sum(len(fit.report.divergences) for fit in fits))
    count = sum(len(fit.report.divergences) for fit in best)
    out.print(f"Fewest divergences ({count}): {best[0].describe()}", highlight=False, soft_wrap=True)
    return False
