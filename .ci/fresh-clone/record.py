"""Store a fresh-clone series (series.sh) as a measurement: measurements/NAME.json, NAME from the environment
(default ci-fresh-clone-runs-<commit>; NOTE, optional, is stored with it).
Usage: python .ci/fresh-clone/record.py $WORK/SERIES COMMIT

Each run's figures are read from its folder: the exit code and times lane.sh wrote, pytest's closing
lines from run.log, and /usr/bin/time -v's wall time, CPU time and peak memory.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.recipes import record  # noqa: E402


def _found(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.M)
    return match.group(1) if match else None


def run_figures(folder: Path) -> dict[str, Any]:
    times = (folder / "times").read_text()
    log = (folder / "run.log").read_text(errors="replace") if (folder / "run.log").exists() else ""
    usage = (folder / "time.txt").read_text() if (folder / "time.txt").exists() else ""
    code = _found(r"run rc=(\d+)", times)
    user = _found(r"User time \(seconds\): (\S+)", usage)
    system = _found(r"System time \(seconds\): (\S+)", usage)
    peak = _found(r"Maximum resident set size \(kbytes\): (\d+)", usage)
    return {
        "run": folder.name,
        "exit_code": None if code is None else int(code),
        "pytest_closing_lines": [
            line.strip() for line in log.splitlines() if re.search(r"\d+ (passed|failed)", line) and " in " in line
        ],
        "setup_started": _found(r"^setup start (\S+)", times),
        "run_started": _found(r"^run start (\S+)", times),
        "run_wall_seconds": _found(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", usage),
        "run_user_cpu_seconds": None if user is None else float(user),
        "run_system_cpu_seconds": None if system is None else float(system),
        "run_max_rss_kb": None if peak is None else int(peak),
    }


def main() -> None:
    series, commit = Path(sys.argv[1]), sys.argv[2]
    lanes = int(os.environ.get("LANES", "5"))
    runs = [run_figures(folder) for folder in sorted(p for p in series.iterdir() if p.is_dir())]
    passed = sum(run["exit_code"] == 0 for run in runs)
    figures = {"runs": runs, "passed": passed, "of": len(runs), "series_log": (series / "log").read_text().splitlines()}
    if os.environ.get("NOTE"):  # what the files cannot show, e.g. other work that shared the machine
        figures["note"] = os.environ["NOTE"]
    path = record.write_result(
        os.environ.get("NAME", f"ci-fresh-clone-runs-{commit[:7]}"),
        figures,
        run=record.start_run(),
        seeds="none: the suite's own seeds (CI=true makes the property tests deterministic)",
        settings={
            "how": "each run: git clone of the commit, a new empty HOME, `.ci/setup --browser --ray` outside the "
            "namespace (it needs the package index), then `CI=true bash .ci/run` under /usr/bin/time -v inside "
            f"`unshare -n` (loopback only); two `python3 -c 'while 1: pass'` burners for the whole series; {lanes} "
            f"run(s) at a time, so each run had {lanes - 1} other run(s) beside it",
            "lanes": lanes,
            "burners": 2,
            "commit": commit,
        },
        argv=[".ci/fresh-clone/series.sh", f"COMMIT={commit}", f"SERIES={series.name}", f"LANES={lanes}"],
    )
    print(path, passed, "of", len(runs), "passed")


if __name__ == "__main__":
    main()
