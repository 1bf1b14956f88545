"""Typed wrappers around numba's decorators, and where its compiled code is cached."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("rummy-vision")) / "numba"


def configure_cache() -> None:
    """NUMBA_CACHE_DIR, unless the user set it, is our folder in the user cache directory."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())
        import sys

        if "numba" in sys.modules:  # imported before us: make it read the variable again
            from numba.core import config

            reload: Callable[[], None] = config.reload_config
            reload()


def jit(function: F) -> F:
    import numba

    return cast(F, numba.njit(cache=True, nogil=True)(function))


def jit_inline(function: F) -> F:
    """Inlined into its callers at numba's IR level: no call and no reference counting of the tables."""
    import numba

    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))


def jit_parallel(function: F) -> F:
    import numba

    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(function))
