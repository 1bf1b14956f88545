"""Typed wrappers around numba's decorators, and where its compiled code is cached.

numba checks a cached function against its own source file only: a kernel function that inlines a
helper from another file would keep running the helper's old code after an edit. So the cache
directory is named by a hash of every source file of this package and numba's version; any edit
(or another numba) gives a fresh directory, and the code is compiled again.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any, TypeVar, cast

import platformdirs

# Imports inside functions: numba (about 0.7 s to import) loads when the first kernel function is
# decorated, after configure_cache has set NUMBA_CACHE_DIR, so `import strategies` does not load it.

F = TypeVar("F", bound=Callable[..., Any])

# Where the versioned cache directories go (default: the user cache directory).
BASE_VARIABLE = "RUMMY_VISION_KERNEL_CACHE"


@lru_cache(maxsize=1)
def source_key() -> str:
    """A hash of every kernel source file and of numba's version."""
    digest = hashlib.sha256(f"numba {version('numba')}\n".encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_base() -> Path:
    chosen = os.environ.get(BASE_VARIABLE)
    if chosen:
        return Path(chosen)

    return Path(platformdirs.user_cache_dir("rummy-vision")) / "numba"


def cache_dir() -> Path:
    return cache_base() / f"kernel-{source_key()}"


def configure_cache() -> None:
    """Point NUMBA_CACHE_DIR at the cache directory of this kernel source (set before any kernel
    function is decorated: numba picks a function's cache folder when it is decorated)."""
    wanted = str(cache_dir())
    if os.environ.get("NUMBA_CACHE_DIR") != wanted:
        os.environ["NUMBA_CACHE_DIR"] = wanted
        if "numba" in sys.modules:  # imported before us: make it read the variable again
            from numba.core import config  # numba is loaded already here; at the top it would load it for all

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


# What a first compile costs, in words (a 2-core machine; measured on the warm-up and the table builder).
COMPILE_TIME_TEXT = "first run only, about a minute"


def first_compile(modules: tuple[str, ...]) -> bool:
    """Whether these kernel modules (e.g. ("play",)) have no compiled code cached for this source yet: their
    first use then compiles, for about a minute, and a command should say so before it seems to stall."""
    folder = cache_dir()
    return not all(any(folder.rglob(f"{module}.*.nbi")) for module in modules)


def compile_notice(what: str, modules: tuple[str, ...]) -> str | None:
    """One line to show before `what` runs when its kernel code is compiled now, else None."""
    if not first_compile(modules):
        return None
    return f"Compiling {what} ({COMPILE_TIME_TEXT}; kept in {cache_dir()})"
