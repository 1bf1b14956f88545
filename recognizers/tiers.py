"""Azure pricing tiers as rate settings: how many calls per period, and how many a month.

- `free`: 20 calls a minute and 5,000 a month (a free trial key);
- `standard`: 20 calls a second, no monthly cap here (a student or S1 key; the bill is yours);
- `RATE/PERIOD`: any other rate, e.g. `10/s`, `600/min`, `20/60s`; add `,MONTHLY` for a monthly cap
  (`20/min,5000`).

Chosen by `--tier` where a command offers it, else `RUMMY_VISION_AZURE_TIER`, else `tier = "..."`
in the `[azure]` section of the recognizers' config file (recognizers/settings.py), else `free` (the
safe guess: a free key used at the standard rate gets 429s and unknown cards).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from recognizers.settings import TIER_ENV, SettingsError, read_file_and_environment

__all__ = ["TIER_ENV", "Tier", "configured_tier", "parse_tier", "tier_setting"]
_PERIODS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*(?:\.\d+)?)\s*([a-z]*)\s*(?:,\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Tier:
    name: str
    calls: int  # per period
    period_s: float
    monthly: int | None  # calls a calendar month (UTC), None for no cap

    def describe(self) -> str:
        cap = f", {self.monthly:,} a month" if self.monthly else ""
        return f"{self.name}: {self.calls} calls per {self.period_s:g} s{cap}"


FREE = Tier("free", 20, 60.0, 5000)
STANDARD = Tier("standard", 20, 1.0, None)
TIERS = {"free": FREE, "standard": STANDARD, "student": STANDARD}


def parse_tier(text: str) -> Tier:
    """`free`, `standard` or `RATE/PERIOD[,MONTHLY]`; ValueError saying what is wrong otherwise."""
    name = text.strip().lower()
    if name in TIERS:
        return TIERS[name]
    found = _RATE.match(name)
    if found is None:
        raise ValueError(f"unknown Azure tier {text!r}: use free, standard, or a rate like 10/s, 600/min, 20/min,5000")
    calls, amount, unit, monthly = found.groups()
    if unit and unit not in _PERIODS:
        raise ValueError(f"unknown period unit {unit!r} in {text!r}: use s, min or h")
    period = (float(amount) if amount else 1.0) * _PERIODS.get(unit or "s", 1.0)
    if int(calls) < 1 or period <= 0:
        raise ValueError(f"a rate needs at least 1 call in a positive period, not {text!r}")
    return Tier(text.strip(), int(calls), period, int(monthly) if monthly else None)


def configured_tier(
    given: str | None = None, env: Mapping[str, str] | None = None, config: str | Path | None = None
) -> Tier:
    """The tier from `given` (a CLI option), else the environment, else the config file, else free."""
    return tier_setting(given, env, config) or FREE


def tier_setting(
    given: str | None = None, env: Mapping[str, str] | None = None, config: str | Path | None = None
) -> Tier | None:
    """The tier set by `given`, the environment or the config file; None when none of them sets one."""
    if given:
        return parse_tier(given)
    environ = os.environ if env is None else env
    try:
        found, _path = read_file_and_environment(config, environ, required=False)
    except SettingsError as error:
        raise ValueError(str(error)) from None
    return parse_tier(found.azure.tier) if found.azure.tier else None
