"""Hypothesis profiles: the same examples on every CI run, a fresh random search on a developer's machine.

Under CI=true the `ci` profile is loaded: derandomized (the examples are a fixed function of each test),
no example database and no deadline, so a CI run passes or fails the same way every time and never on
the machine's load. Locally the `dev` profile searches randomly (no deadline either: property tests
play whole rounds, whose time depends on the machine). HYPOTHESIS_PROFILE=ci|dev picks one explicitly;
`pytest --hypothesis-seed=N` replays one random run.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import settings

# Tests never read or write the developer's own files: records, replays, settings, label caches and the
# perfect-play table they may have built go to a throwaway home (a built table would otherwise change
# what `expectimax` plays in the tests). Compiled kernel code has a cache of its own, beside the user's
# (kept between runs: compiling takes a while). Set before anything asks platformdirs; child processes
# inherit it.
if "RUMMY_VISION_KERNEL_CACHE" not in os.environ:
    import platformdirs

    os.environ["RUMMY_VISION_KERNEL_CACHE"] = os.path.join(platformdirs.user_cache_dir("rummy-vision"), "numba-tests")
_home = tempfile.mkdtemp(prefix="rummy-vision-tests-")
for _variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[_variable] = os.path.join(_home, _variable.lower())
os.environ.pop("RUMMY_VISION_TABLE", None)

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)

_ci = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _ci else "dev"))
