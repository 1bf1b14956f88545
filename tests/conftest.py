"""Hypothesis profiles: the same examples on every CI run, a fresh random search on a developer's machine.

Under CI=true the `ci` profile is loaded: derandomized (the examples are a fixed function of each test),
no example database and no deadline, so a CI run passes or fails the same way every time and never on
the machine's load. Locally the `dev` profile searches randomly (no deadline either: property tests
play whole rounds, whose time depends on the machine). HYPOTHESIS_PROFILE=ci|dev picks one explicitly;
`pytest --hypothesis-seed=N` replays one random run.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)

_ci = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _ci else "dev"))
