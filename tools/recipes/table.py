"""Perfect-play benchmarks (`python tools/measure.py table-build | table-lookup | table-verify | table-solve`):

- table-build: per layer of a built table, its states, wall seconds, CPU seconds and states per second
  (as the build recorded them in the table's header), and what a `--top N` table holds (states,
  value bytes, build seconds through layer N);
- table-verify: `rummy-vision solve --verify`'s check of sampled states against the independent
  solver, per layer and in total;
- table-lookup: one state's exact value from the table, and every move's value (what `perfect` does);
- table-solve: the kernel's on-demand exact solver by turns left on positions from random deals
  advanced by random play (`position_set`, seeds SEED + turns left), after the warm-up: wall time
  p50/p95, the CPU time of the process (on a shared machine the fairer figure) and the states
  enumerated. `--method sorted` times the sort-based solver (the second implementation of margin, which the
  tests compare with the bitmap one);
  `--table-top N` lets the table's layers 1..N stand in for the lowest turns (as a
  `rummy-vision solve --top N` table would).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot.measure.sampling import percentile, position_set
from rummy import DEFAULT_RULES
from strategies.kernel.solve_position import solve_exact
from strategies.kernel.warm import warm_up
from strategies.search import Objective
from strategies.table.margin.fileformat import default_table_path, load_table, read_header
from strategies.table.margin.lookup import margin_value, table_move_values
from strategies.table.margin.verify import TOLERANCE, LayerCheck, verify_table
from strategies.table.objective import OBJECTIVES

Emit = Callable[[str], None]


def timed_build(folder: Path, win: bool, emit: Emit = print) -> Path:
    """Build a whole table afresh in `folder` (margin.rvt or win.rvw, which must not exist yet: a resumed
    build would time only its rest) with the default two workers; its path."""
    path = folder / ("win.rvw" if win else "margin.rvt")
    if path.exists():
        raise ValueError(f"{path} exists: --build times a build from nothing, so give a folder without one")
    folder.mkdir(parents=True, exist_ok=True)
    emit(f"building {path} ...")
    OBJECTIVES[Objective.WIN if win else Objective.MARGIN].build(path, DEFAULT_RULES)
    return path


def build_figures(path: Path | None, emit: Emit = print) -> dict[str, Any]:
    path = path or default_table_path()
    header = read_header(path)
    sizes = header["sizes"]
    cpu = header.get("cpu_seconds", [])
    emit(f"{path}: layers 1..{header['done']} of {header['top']} built")
    total_s = total_cpu = 0.0
    total_states = 0
    layers = []
    for d in range(1, header["done"] + 1):
        seconds = header["seconds"][d - 1]
        spent = cpu[d - 1 - (header["done"] - len(cpu))] if d > header["done"] - len(cpu) else None
        total_s += seconds
        total_cpu += spent or 0.0
        total_states += sizes[d]
        layers.append(
            {"layer": d, "states": sizes[d], "seconds": seconds, "cpu_seconds": spent}
            | {"states_per_second": sizes[d] / seconds if seconds > 0 else None}  # a tiny layer records 0 s
            # what a `solve --top d` table holds and costs: float32 values of layers 1..d
            | {"through": {"states": total_states, "value_bytes": 4 * total_states, "seconds": total_s}}
        )
        cpu_text = f"{spent:8.1f} CPU s" if spent is not None else "    (CPU not recorded)"
        rate_text = f"{sizes[d] / seconds:>12,.0f}" if seconds > 0 else f"{'-':>12}"
        emit(f"  layer {d:2d}: {sizes[d]:>11,} states {seconds:8.1f} s {cpu_text} {rate_text} states/s")
    size = path.stat().st_size
    emit(f"  total {total_s:.0f} s wall ({total_cpu:.0f} CPU s recorded), {size / 1e9:.3f} GB")
    return {
        "table": str(path),
        "done": header["done"],
        "top": header["top"],
        "bytes": size,
        "states_stored": total_states,
        "states_with_layer_0": total_states + sizes[0],
        "build_seconds": total_s,
        "build_cpu_seconds_recorded": total_cpu,
        "layers": layers,
    }


def lookup(path: Path | None, count: int, emit: Emit = print) -> dict[str, Any]:
    began = time.perf_counter()
    table = load_table(path, unfinished_ok=True)  # the finished layers are enough to time look-ups
    load = time.perf_counter() - began
    emit(f"load (map the file, check every layer's CRC-32): {load:.2f} s")
    warm_up()
    states = [state for state in position_set(count, 77) if state.turns_left <= table.top]
    for state in states[:5]:
        margin_value(state, table)
    began = time.perf_counter()
    for state in states:
        margin_value(state, table)
    one = (time.perf_counter() - began) / len(states)
    playable = [state for state in states if table.covers(state.turns_left)]
    began = time.perf_counter()
    for state in playable:
        table_move_values(state, table)
    every = (time.perf_counter() - began) / max(1, len(playable))
    emit(f"look-up of one state's value: {one * 1e6:.1f} us (mean of {len(states)}, from Python, cold pages included)")
    emit(f"every move's exact value (what perfect does per move): {every * 1e6:.1f} us (mean of {len(playable)})")
    return {
        "load_seconds": load,
        "one_value_seconds": one,
        "one_value_states": len(states),
        "every_move_seconds": every,
        "every_move_states": len(playable),
    }


def verify_figures(path: Path | None, samples: int, seed: int, emit: Emit = print) -> dict[str, Any]:
    path = path or default_table_path()
    began, cpu_began = time.perf_counter(), time.process_time()
    table = load_table(path)

    def shown(check: LayerCheck) -> None:
        emit(
            f"  layer {check.layer:2d}: {check.step_states} from the layer below, {check.full_states} to the end,"
            f" max difference {check.max_difference:.2g}"
        )

    checks = verify_table(table, samples, seed=seed, on_layer=shown)
    figures = {
        "table": str(path),
        "samples": samples,
        "tolerance": TOLERANCE,
        "step_states": sum(check.step_states for check in checks),
        "full_states": sum(check.full_states for check in checks),
        "max_difference": max(check.max_difference for check in checks),
        "passed": all(check.passed for check in checks),
        "verify_wall_seconds": time.perf_counter() - began,
        "verify_cpu_seconds": time.process_time() - cpu_began,
        "layers": [asdict(check) for check in checks],
    }
    emit(
        f"{figures['step_states']:,} states checked from the layer below, {figures['full_states']:,} solved to"
        f" the round's end; max difference {figures['max_difference']:.2g} (tolerance {TOLERANCE})"
    )
    return figures


def solve_times(
    objective: str,
    turns: list[int],
    count: int,
    limit_s: float,
    *,
    method: str,
    table_top: int | None,
    seed: int,
    emit: Emit = print,
) -> dict[str, Any]:
    warm_up()
    layers = () if table_top is None else load_table().layers[: table_top + 1]
    below = "" if table_top is None else f", table layers 1..{table_top} below the enumeration"
    emit(f"on-demand exact solve, objective {objective}, method {method}{below}, {count} positions per row:")
    rows = []
    for turns_left in turns:
        wall: list[float] = []
        cpu: list[float] = []
        states: list[float] = []
        for state in position_set(count, seed + turns_left, turns_left=turns_left):
            began, cpu_began = time.perf_counter(), time.process_time()
            solved = solve_exact(state.copy(), objective, method=method, table_layers=layers)
            if solved is None:
                raise RuntimeError(f"the on-demand solver declined a position {turns_left} turns from the end")
            wall.append(time.perf_counter() - began)
            cpu.append(time.process_time() - cpu_began)
            states.append(float(solved.states))
        row = {
            "turns_left": turns_left,
            "wall_p50": percentile(wall, 0.5),
            "wall_p95": percentile(wall, 0.95),
            "cpu_p50": percentile(cpu, 0.5),
            "cpu_p95": percentile(cpu, 0.95),
            "cpu_max": max(cpu),
            "states_p50": int(percentile(states, 0.5)),
            "states_p95": int(percentile(states, 0.95)),
            "cpu_ns_per_state": 1e9 * sum(cpu) / sum(states),
        }
        rows.append(row)
        emit(
            f"  turns left {turns_left:2d}: wall p50 {row['wall_p50']:7.3f} s p95 {row['wall_p95']:7.3f} s"
            f" | CPU p50 {row['cpu_p50']:7.3f} s p95 {row['cpu_p95']:7.3f} s max {row['cpu_max']:7.3f} s"
            f" | states p50 {row['states_p50']:>11,} p95 {row['states_p95']:>11,}"
            f" | {row['cpu_ns_per_state']:5.0f} CPU ns per state"
        )
        if row["cpu_p50"] > limit_s:
            emit(f"  (stopping: the median CPU time is over {limit_s} s)")
            break
    return {"objective": objective, "method": method, "table_top": table_top, "positions": count, "rows": rows}
