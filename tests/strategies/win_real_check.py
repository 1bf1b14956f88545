"""Check a real-rules win table's lower layers against the kernel's on-demand win solver (a separate
enumeration: sorted keys with the difference clamped, no swing bounds, no fixed point). A shifted
banked difference that no deal reaches is not kept by a bounded table: the check counts those
refusals and that the on-demand path (`exact_win_values`) still answers them exactly.

    python tests/strategies/win_real_check.py TABLE.rvw OUT.json [positions per turns-left]
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from rummy import DEFAULT_RULES, random_decision
from strategies.kernel.solve_position import solve_exact
from strategies.table.win.fileformat import NotReachable, load_win_table
from strategies.table.win.lookup import exact_win_values, stored_error, win_move_values


def main() -> None:
    path, out = Path(sys.argv[1]), Path(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    table = load_win_table(path, DEFAULT_RULES)
    began, cpu = time.perf_counter(), time.process_time()
    worst = 0.0
    checked = 0
    same_best = 0
    decisions = 0
    refused = 0
    for turns in range(2, table.top + 2):
        rng = random.Random(2400 + turns)
        for _ in range(count):
            state = random_decision(rng, DEFAULT_RULES, turns_left=turns)
            for shift in (-20, -10, -5, 0, 5, 10, 20):
                state.points[state.mover] += shift
                solved = solve_exact(state, "win")
                assert solved is not None
                try:
                    table_values = win_move_values(state, table)
                except NotReachable:
                    refused += 1
                    assert exact_win_values(state, table) == solved.values  # solved on demand without the table
                    state.points[state.mover] -= shift
                    continue
                for move, value in solved.values.items():
                    worst = max(worst, abs((table_values[move] - value) / 2))  # in probability
                    checked += 1
                best_p = max(solved.values.values())
                decisions += 1
                same_best += solved.values[
                    max(table_values, key=lambda m: (table_values[m], -m))
                ] >= best_p - 2 * stored_error(turns - 1)
                state.points[state.mover] -= shift
    record = {
        "command": " ".join(["python tests/strategies/win_real_check.py", *sys.argv[1:]]),
        "commit": subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
        "table_layers": table.top,
        "positions": f"{count} per turns left 2..{table.top + 1}, random deals advanced by random play, "
        "seeds 2400 + turns left; banked difference shifted by -20..+20",
        "move_values_checked": checked,
        "worst_abs_error_in_probability": worst,
        "stated_bound": stored_error(table.top),
        "decisions": decisions,
        "refused_not_reachable": refused,
        "table_best_is_a_best_move": int(same_best),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "load": list(os.getloadavg()),
    }
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record))


if __name__ == "__main__":
    main()
