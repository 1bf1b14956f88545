"""Perfect-play benchmarks (figures, not pass/fail):

    python -m strategies.table.bench build  [--table PATH]      # per layer: states, seconds, CPU s, states/s
    python -m strategies.table.bench lookup [--table PATH]      # one state's exact value from the table
    python -m strategies.table.bench solve  [--objective margin] [--turns 1-8] [--positions 20]
                                            [--seed 900] [--method auto|sorted] [--table-top N]

`solve` times the kernel's on-demand exact solver by turns left on positions from random deals
advanced by random play (`strategies.bench.position_set`, seeds SEED + turns left), after the
warm-up: wall time p50/p95, the CPU time of the process (on a shared machine the fairer figure)
and the states enumerated. `--method sorted` times the sort-based solver the bitmap one replaced
for margin; `--table-top N` lets the table's layers 1..N stand in for the lowest turns (as a
`rummy-vision solve --top N` table would).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from strategies.bench import parse_turns, percentile, position_set


def build_figures(path: Path | None) -> None:
    from strategies.table.fileformat import default_table_path, read_header

    path = path or default_table_path()
    header = read_header(path)
    sizes = header["sizes"]
    cpu = header.get("cpu_seconds", [])
    print(f"{path}: layers 1..{header['done']} of {header['top']} built")
    total_s = total_cpu = 0.0
    for d in range(1, header["done"] + 1):
        seconds = header["seconds"][d - 1]
        spent = cpu[d - 1 - (header["done"] - len(cpu))] if d > header["done"] - len(cpu) else None
        total_s += seconds
        total_cpu += spent or 0.0
        cpu_text = f"{spent:8.1f} CPU s" if spent is not None else "    (CPU not recorded)"
        print(
            f"  layer {d:2d}: {sizes[d]:>11,} states {seconds:8.1f} s {cpu_text} {sizes[d] / seconds:>12,.0f} states/s"
        )
    print(f"  total {total_s:.0f} s wall ({total_cpu:.0f} CPU s recorded), {path.stat().st_size / 1e9:.3f} GB")


def lookup(path: Path | None, count: int) -> None:
    from strategies.kernel.warm import warm_up
    from strategies.table.fileformat import load_table
    from strategies.table.lookup import margin_value, table_move_values

    table = load_table(path, unfinished_ok=True)  # the finished layers are enough to time look-ups
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
    print(f"look-up of one state's value: {one * 1e6:.1f} us (mean of {len(states)}, from Python, cold pages included)")
    print(f"every move's exact value (what perfect does per move): {every * 1e6:.1f} us (mean of {len(playable)})")


def solve_times(
    objective: str, turns: list[int], count: int, limit_s: float, *, method: str, table_top: int | None, seed: int
) -> None:
    from strategies.kernel.ondemand import solve_exact
    from strategies.kernel.warm import warm_up
    from strategies.table.fileformat import load_table

    warm_up()
    layers = () if table_top is None else load_table().layers[: table_top + 1]
    below = "" if table_top is None else f", table layers 1..{table_top} below the enumeration"
    print(f"on-demand exact solve, objective {objective}, method {method}{below}, {count} positions per row:")
    for turns_left in turns:
        wall: list[float] = []
        cpu: list[float] = []
        states: list[float] = []
        for state in position_set(count, seed + turns_left, turns_left=turns_left):
            began, cpu_began = time.perf_counter(), time.process_time()
            solved = solve_exact(state.copy(), objective, method=method, table_layers=layers)
            assert solved is not None
            wall.append(time.perf_counter() - began)
            cpu.append(time.process_time() - cpu_began)
            states.append(float(solved.states))
        print(
            f"  turns left {turns_left:2d}: wall p50 {percentile(wall, 0.5):7.3f} s p95 {percentile(wall, 0.95):7.3f} s"
            f" | CPU p50 {percentile(cpu, 0.5):7.3f} s p95 {percentile(cpu, 0.95):7.3f} s max {max(cpu):7.3f} s"
            f" | states p50 {int(percentile(states, 0.5)):>11,} p95 {int(percentile(states, 0.95)):>11,}"
            f" | {1e9 * sum(cpu) / sum(states):5.0f} CPU ns per state",
            flush=True,
        )
        if percentile(cpu, 0.5) > limit_s:
            print(f"  (stopping: the median CPU time is over {limit_s} s)")
            break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["build", "lookup", "solve"])
    parser.add_argument("--table", type=Path, default=None)
    parser.add_argument("--objective", default="margin", choices=["margin", "win"])
    parser.add_argument("--turns", default="1-8", help="turns left, e.g. 1-8 or 4,6,8")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=900, help="positions of row T come from seed SEED + T")
    parser.add_argument("--method", default="auto", choices=["auto", "sorted"], help="sorted: the sort-based solver")
    parser.add_argument(
        "--table-top", type=int, default=None, help="margin: read the table's layers 1..N below the enumeration"
    )
    parser.add_argument(
        "--limit-s", type=float, default=10.0, help="stop once the median solve takes more CPU seconds than this"
    )
    args = parser.parse_args()
    if args.what == "build":
        build_figures(args.table)
    elif args.what == "lookup":
        lookup(args.table, args.positions * 50)
    else:
        solve_times(
            args.objective,
            list(parse_turns(args.turns)),
            args.positions,
            args.limit_s,
            method=args.method,
            table_top=args.table_top,
            seed=args.seed,
        )


if __name__ == "__main__":
    main()
