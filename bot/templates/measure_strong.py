"""Measure the `strong` template against `greedy`: `python -m bot.templates.measure_strong`.

Duplicate rounds in process (each deal twice, seats swapped), both players told the true labels.
The template searches under a node budget with a generous clock (so its moves do not depend on the
machine's load) and is timed per move; a second pass times it under its own defaults (node and
time budget, as in the arena) to give the per-move p95. Writes measurements/strong_template.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bot.matches.local_match import Contender, play_round, schedule
from bot.matches.summary import summarize
from bot.templates.contender import TemplateContender

OUT = Path(__file__).resolve().parents[2] / "measurements" / "strong_template.json"


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before": list(os.getloadavg()),
    }


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else (values[0] if values else 0.0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", default="strong-vs-greedy")
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--timing-rounds", type=int, default=20, help="rounds timed under the default budgets")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    info = machine()
    started, cpu_started = time.perf_counter(), time.process_time()
    strong = TemplateContender("strong", nodes=args.nodes, seconds=60.0)
    greedy = Contender("greedy")
    played = []
    for index, (deal, seat_of_strong) in enumerate(schedule(strong, greedy, args.rounds, args.seed, True)):
        seats = (strong, greedy) if seat_of_strong == 0 else (greedy, strong)
        played.append((play_round(deal, seats), seat_of_strong))
        print(f"\r{index + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
    summaries = summarize((strong.name, greedy.name), played)
    think = [ms for result, seat in played for ms in result.think_ms(seat)]
    timed = TemplateContender("strong")  # the file's own defaults: 3000 nodes or 0.5 s
    timed_ms: list[float] = []
    for deal, seat in schedule(timed, greedy, args.timing_rounds, f"{args.seed}:timing", True):
        timed_round = play_round(deal, (timed, greedy) if seat == 0 else (greedy, timed))
        timed_ms += timed_round.think_ms(seat)
    print(file=sys.stderr)
    result = {
        "command": "python -m bot.templates.measure_strong " + " ".join(argv if argv is not None else sys.argv[1:]),
        "commit": commit(),
        "machine": {**info, "load_after": list(os.getloadavg())},
        "seed": args.seed,
        "rounds": len(played),
        "labels": "true labels (the measurement is of the strategy, not of a recognizer)",
        "strong_budget": {"nodes": args.nodes, "seconds": "60 (the node budget decides)"},
        "standings": [summary.to_json() for summary in summaries],
        "strong_ms_per_move_at_node_budget": {"median": statistics.median(think), "p95": p95(think), "max": max(think)},
        "strong_ms_per_move_default_budgets": {
            "rounds": args.timing_rounds,
            "moves": len(timed_ms),
            "median": statistics.median(timed_ms),
            "p95": p95(timed_ms),
            "max": max(timed_ms),
        },
        "wall_s": round(time.perf_counter() - started, 1),
        "cpu_s": round(time.process_time() - cpu_started, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["standings"], indent=1))


if __name__ == "__main__":
    main()
