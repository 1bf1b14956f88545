"""Check a margin table against strategies.table.margin.independent, which shares no code with the kernel
that built it.

Two checks on states sampled at random (seeded) from every layer, each read at its index through the
independent reader of the index:
- step: the stored value equals the best move's value computed by the independent rules from the
  table's layer below (for layer 1, from the round's end alone). Every layer, `samples` states.
- full: the stored value equals the independent solver's own expectimax to the end of the round, no
  table involved. Cheap only near the end of the round: `samples` states a layer up to layer
  FULL_ALL, fewer above (see `full_samples`), none above FULL_DEPTH.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from strategies.table.margin.fileformat import MarginTable
from strategies.table.margin.independent import BelowValues, IndependentSolver

TOLERANCE = 1e-3  # values are stored as float32; margins are at most a few hundred points
FULL_ALL = 3
FULL_DEPTH = 5


def full_samples(d: int, samples: int) -> int:
    if d <= FULL_ALL:
        return samples
    if d > FULL_DEPTH:
        return 0
    divisor: int = 4 * 10 ** (d - FULL_ALL - 1)
    return max(1, samples // divisor)  # 1/4 at layer 4, 1/40 at layer 5


@dataclass
class LayerCheck:
    layer: int
    size: int
    step_states: int = 0
    full_states: int = 0
    max_difference: float = 0.0
    worst: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.max_difference <= TOLERANCE


def verify_table(
    table: MarginTable,
    samples: int,
    *,
    seed: int = 0,
    full_depth: int = FULL_DEPTH,
    on_layer: Callable[[LayerCheck], None] | None = None,
) -> list[LayerCheck]:
    solver = IndependentSolver(table.config)
    sizes = [solver.layer_size(d) for d in range(table.top + 1)]
    if sizes[1:] != list(table.header["sizes"][1 : table.top + 1]):
        raise ValueError(f"layer sizes differ: the table says {table.header['sizes']}, the rules give {sizes}")
    results = []
    rng = random.Random(seed)
    for d in range(1, table.top + 1):
        table.check_unchanged()
        began, cpu_began = time.perf_counter(), time.process_time()
        check = LayerCheck(d, sizes[d])
        layer = table.layers[d]
        below = BelowValues(solver, table.layers[d - 1]) if d > 1 else None
        picks = sorted(rng.sample(range(sizes[d]), min(samples, sizes[d])))
        full = set(rng.sample(picks, min(len(picks), full_samples(d, samples)))) if d <= full_depth else set()
        for index in picks:
            state = solver.state(d, index)
            if solver.index(*state) != index:
                raise ValueError(f"the independent index does not invert itself at layer {d}, index {index}")
            stored = float(layer[index])
            found = [("step", solver.step_value(*state, below))]
            if index in full:
                found.append(("full", solver.value(*state)))
            for kind, value in found:
                difference = abs(value - stored)
                if difference > check.max_difference or not check.worst:
                    check.max_difference = max(check.max_difference, difference)
                    check.worst = f"{kind} check of index {index} {state}: table {stored:.4f}, independent {value:.4f}"
            check.step_states += 1
            check.full_states += index in full
        check.seconds = time.perf_counter() - began
        check.cpu_seconds = time.process_time() - cpu_began
        results.append(check)
        if on_layer:
            on_layer(check)
    return results
