"""Where a measurement's figures are kept: one JSON file per run name, by default in `measurements/` under
the directory the command runs in.

A figure is only as good as what stands behind it, so each file holds, beside the figures, what is needed
to judge and repeat them: the command line, what was measured (the package's version, and the commit of
the git checkout the command ran in, if any, with whether its tracked files had uncommitted changes), the
seeds, the machine, the load before and after, the start time, and the wall and CPU seconds spent (CPU
includes finished worker processes).

Nothing here is found from this file's own place: an installed package must never write into, or ask git
about, the tree it was installed from. tools/recipes/record.py points both at the repository instead, for
the recipes behind the project's own figures.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

# Relative on purpose: `measurements/` under the current directory when the command runs.
DEFAULT_FOLDER = Path("measurements")
FORMAT = 1
PACKAGE = "rummy-vision"


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have been waited for (pool workers)."""
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


def _load() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not every platform keeps a load average
        return None


@dataclass
class Run:
    """The moment a measurement started: wall clock, CPU counters and the machine's load."""

    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    wall: float = field(default_factory=time.perf_counter)
    cpu: float = field(default_factory=_cpu_seconds)
    load: list[float] | None = field(default_factory=_load)


def start_run() -> Run:
    return Run()


def _git(where: Path, *args: str) -> str | None:
    # --no-optional-locks: `status` would otherwise refresh the checkout's index, a write.
    command = ["git", "--no-optional-locks", *args]
    try:
        done = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def source_version(checkout: Path | None = None) -> dict[str, Any]:
    """What was measured: the package's version, and the commit of the git checkout at `checkout` (default:
    the current directory) with whether its tracked files differed from it; commit and dirty are None
    outside a checkout, or without git."""
    where = Path.cwd() if checkout is None else checkout
    commit = _git(where, "rev-parse", "HEAD")
    status = None if commit is None else _git(where, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": None if status is None else bool(status), "version": _version(PACKAGE)}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "numba": _version("numba"),
    }


def file_name(name: str) -> str:
    """A run name as a file name: letters, digits, '.', '_' and '-' kept, anything else as '-'."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    if not cleaned:
        raise ValueError(f"a measurement name needs a letter or digit, got {name!r}")
    return f"{cleaned}.json"


def write_result(
    name: str,
    figures: Any,
    *,
    run: Run,
    seeds: Any,
    settings: dict[str, Any] | None = None,
    folder: Path | None = None,
    argv: list[str] | None = None,
    checkout: Path | None = None,
) -> Path:
    """Write `figures` (anything JSON can hold) with their provenance to `folder/NAME.json` (default:
    `measurements/` under the current directory); return the path.

    `seeds` says which random inputs were used (a first seed and a count, a list, or a note such as
    "none: a fixed table"), so that the run can be repeated. `checkout` is the git checkout whose commit
    is recorded (default: the current directory's, if it is one).
    """
    wall = time.perf_counter() - run.wall
    cpu = _cpu_seconds() - run.cpu
    result = {
        "format": FORMAT,
        "name": name,
        "command": list(sys.argv if argv is None else argv),
        "source": source_version(checkout),
        "seeds": seeds,
        "settings": settings or {},
        "machine": machine(),
        "load": {"before": run.load, "after": _load()},
        "started": run.started.isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "figures": figures,
    }
    target = (folder or DEFAULT_FOLDER) / file_name(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".json.partial")
    partial.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    partial.replace(target)  # a reader never sees half a file
    return target


def read_result(path: Path) -> dict[str, Any]:
    """A stored result, checked for the keys every result has."""
    data = json.loads(path.read_text(encoding="utf-8"))
    missing = {"name", "command", "source", "seeds", "machine", "load", "wall_seconds", "cpu_seconds", "figures"}
    missing -= set(data)
    if missing:
        raise ValueError(f"{path} is not a measurement result: missing {', '.join(sorted(missing))}")
    return dict(data)
