"""The win table's figures (`python tools/measure.py table-build --objective win`, `table-lookup --objective win`):

- build: per layer of a built win table, its states, stored values, wall and CPU seconds and the build
  process's peak memory so far, as the build recorded them in the table's header; the file's size;
- lookup: one state's exact P(win), and every legal move's (what default `perfect` reads per decision),
  on positions from random deals advanced by random play to each number of turns left the table holds
  (`position_set`, seeds 1000 + turns left): p50, p95, p99 and the slowest.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot.measure.sampling import percentile, position_set
from rummy import DEFAULT_RULES
from strategies.kernel.warm import warm_up
from strategies.table.win.fileformat import default_win_table_path, load_win_table, read_win_header
from strategies.table.win.lookup import win_move_values, win_probability
from strategies.table.win.verify import STEP_TOLERANCE, WinLayerCheck, full_tolerance, verify_win_table

Emit = Callable[[str], None]
LOOKUP_SEED = 1000


def win_build_figures(path: Path | None, emit: Emit = print) -> dict[str, Any]:
    path = path or default_win_table_path()
    header = read_win_header(path)
    sizes = header["sizes"]
    emit(f"{path}: win layers 1..{header['done']} of {header['top']} built ({header.get('bound')} bound)")
    layers = []
    for d, entry in enumerate(header["layers"], start=1):
        layer = {"layer": d, "states": sizes[d], "values": entry["values"]}
        layer |= {key: entry.get(key) for key in ("seconds", "cpu_seconds", "peak_rss_bytes")}
        layers.append(layer)
        peak = entry.get("peak_rss_bytes")
        peak_text = f"{peak / 1e9:6.2f} GB peak" if peak is not None else "(peak not recorded)"
        emit(
            f"  layer {d:2d}: {sizes[d]:>11,} states {entry['values']:>12,} values "
            f"{entry['seconds']:8.1f} s {entry['cpu_seconds']:8.1f} CPU s {peak_text}"
        )
    size = path.stat().st_size
    seconds = sum(layer["seconds"] for layer in layers)
    cpu_seconds = sum(layer["cpu_seconds"] for layer in layers)
    peaks = [layer["peak_rss_bytes"] for layer in layers if layer["peak_rss_bytes"] is not None]
    emit(f"  total {seconds:.0f} s wall, {cpu_seconds:.0f} CPU s, {size / 1e9:.3f} GB on disk")
    return {
        "table": str(path),
        "bound": header.get("bound"),
        "done": header["done"],
        "top": header["top"],
        "bytes": size,
        "values_stored": sum(layer["values"] for layer in layers),
        "build_seconds": seconds,
        "build_cpu_seconds": cpu_seconds,
        "peak_rss_bytes": max(peaks) if peaks else None,
        "layers": layers,
    }


def win_lookup(path: Path | None, per_turn: int, emit: Emit = print) -> dict[str, Any]:
    began = time.perf_counter()
    table = load_win_table(path)
    load = time.perf_counter() - began
    emit(f"load (map the file, check every layer's CRC-32): {load:.2f} s; win layers 1..{table.top}")
    warm_up()
    rows = []
    every_move: list[float] = []
    for turns in range(1, table.top + 1):  # T turns left: the state's own layer T, its moves' layer T - 1
        states = position_set(per_turn, LOOKUP_SEED + turns, turns_left=turns)
        for state in states[:3]:  # pages of the layers this row reads, mapped in
            win_move_values(state, table)
        one, every = [], []
        for state in states:
            start = time.perf_counter()
            win_probability(state, table)
            one.append(time.perf_counter() - start)
            start = time.perf_counter()
            win_move_values(state, table)
            every.append(time.perf_counter() - start)
        every_move += every
        rows.append(
            {"turns_left": turns, "positions": len(states)}
            | {"one_p50_us": percentile(one, 0.5) * 1e6, "every_move_p50_us": percentile(every, 0.5) * 1e6}
            | {"every_move_p95_us": percentile(every, 0.95) * 1e6, "every_move_max_us": max(every) * 1e6}
        )
        emit(
            f"  {turns:2d} turns left: one P(win) {rows[-1]['one_p50_us']:7.1f} us p50; every move's "
            f"{rows[-1]['every_move_p50_us']:7.1f} us p50, {rows[-1]['every_move_p95_us']:7.1f} us p95"
        )
    figures = {
        "load_seconds": load,
        "positions": len(every_move),
        "every_move_p50_ms": percentile(every_move, 0.5) * 1e3,
        "every_move_p95_ms": percentile(every_move, 0.95) * 1e3,
        "every_move_p99_ms": percentile(every_move, 0.99) * 1e3,
        "every_move_max_ms": max(every_move) * 1e3,
        "by_turns_left": rows,
    }
    emit(
        f"every move's exact P(win): p50 {figures['every_move_p50_ms']:.3f} ms, p95 {figures['every_move_p95_ms']:.3f}"
        f" ms, p99 {figures['every_move_p99_ms']:.3f} ms, slowest {figures['every_move_max_ms']:.3f} ms "
        f"({len(every_move)} positions, from Python)"
    )
    return figures


def win_verify_figures(path: Path | None, samples: int, seed: int, emit: Emit = print) -> dict[str, Any]:
    """`solve --verify`'s check of the win table (strategies.table.win.verify), with its figures."""
    path = path or default_win_table_path()
    began, cpu_began = time.perf_counter(), time.process_time()
    table = load_win_table(path)  # its checksums, before any value is read

    def shown(check: WinLayerCheck) -> None:
        emit(
            f"  win layer {check.layer:2d}: {check.states} states, {check.step_values} values from the layer below "
            f"({check.settled_values} settled), {check.full_values} to the end, "
            f"max difference {check.max_step_difference:.2g}"
        )

    checks = verify_win_table(path, DEFAULT_RULES, samples, seed=seed, on_layer=shown)
    figures = {
        "table": str(path),
        "table_layers": table.top,
        "samples": samples,
        "step_tolerance": STEP_TOLERANCE,
        "full_tolerance_top": full_tolerance(max(check.layer for check in checks if check.full_values)),
        "states": sum(check.states for check in checks),
        "skipped_unreachable": sum(check.skipped for check in checks),
        "step_values": sum(check.step_values for check in checks),
        "settled_values": sum(check.settled_values for check in checks),
        "full_states": sum(check.full_states for check in checks),
        "full_values": sum(check.full_values for check in checks),
        "max_step_difference": max(check.max_step_difference for check in checks),
        "max_full_difference": max(check.max_full_difference for check in checks),
        "failures": sum(check.failures for check in checks),
        "passed": all(check.passed for check in checks),
        "verify_wall_seconds": time.perf_counter() - began,
        "verify_cpu_seconds": time.process_time() - cpu_began,
        "layers": [asdict(check) for check in checks],
    }
    emit(
        f"{figures['step_values']:,} P(win) values of {figures['states']:,} states checked from the layer below, "
        f"{figures['full_values']:,} solved to the round's end; max difference {figures['max_step_difference']:.2g} "
        f"(tolerance {STEP_TOLERANCE:.2g}); {figures['failures']} failures"
    )
    return figures
