"""Check a win table against strategies.table.win.independent, which shares no code with the kernel that
built it or with the table's own reader.

For states sampled at random (seeded) from every layer, at several banked differences each (the open
ones the state keeps, and the nearest kept ones on either side of its window, where the table claims
P = 0 or 1 without storing it):
- step: the table's P(win) equals the best move's P(win) computed by the rules from the table's layer
  below (layer 1: from the round's end alone). Within half a 16-bit step (the rounding of the stored
  value), since both start from the same stored values below.
- full: the table's P(win) equals the independent expectimax to the end of the round, no table, within
  the stored error (half a step per layer). Cheap only near the end: see `full_states`.
- each sampled state keeps as many values as the file's count says.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummy.config import RulesConfig
from strategies.table.win.independent import MISSING, SCALE, IndependentWin, read_win_file

STEP_TOLERANCE = 0.5 / SCALE + 1e-9
FULL_ALL = 3
FULL_DEPTH = 4
DIFFERENCES_PER_STATE = 6
TRIES = 1000


def full_states(d: int, samples: int) -> int:
    """How many of a layer's sampled states are also solved to the end of the round: all of them up to
    layer FULL_ALL, a quarter at the next (each costs about 40 times the layer below's), none above."""
    if d <= FULL_ALL:
        return samples
    return max(1, samples // 4) if d == FULL_ALL + 1 else 0


def full_tolerance(d: int) -> float:
    return d * 0.5 / SCALE + 1e-9


@dataclass
class WinLayerCheck:
    layer: int
    size: int
    states: int = 0
    skipped: int = 0  # states drawn whose laid cards no deal reaches in these turns: they keep nothing
    step_values: int = 0
    settled_values: int = 0  # of step_values: outside the window, where the table claims 0 or 1
    full_states: int = 0
    full_values: int = 0
    max_step_difference: float = 0.0
    max_full_difference: float = 0.0
    failures: int = 0
    worst: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures

    def fail(self, what: str, found: float, expected: float) -> None:
        self.failures += 1
        self.worst = self.worst or f"{what}: table {found:.6f}, independent {expected:.6f}"


def _differences(kept: tuple[int, ...], lo: int, hi: int, rng: random.Random) -> list[int]:
    inside = sorted(q for q in kept if lo <= q <= hi)
    below = [q for q in kept if q < lo]
    above = [q for q in kept if q > hi]
    chosen = rng.sample(inside, min(len(inside), DIFFERENCES_PER_STATE))
    chosen += [max(below)] if below else []
    chosen += [min(above)] if above else []
    return sorted(chosen)


def _reachable_sample(
    solver: IndependentWin, d: int, size: int, samples: int, rng: random.Random, check: WinLayerCheck
) -> list[int]:
    """Up to `samples` distinct states of layer d, drawn at random, that keep at least one difference
    (most canonical states hold laid cards no play can have laid by then); at most TRIES per state."""
    chosen: set[int] = set()
    # A small layer is drawn without repeats, all of it if need be; a large one with repeats, bounded.
    draws = (
        rng.sample(range(size), size)
        if size <= TRIES * samples
        else (rng.randrange(size) for _ in range(TRIES * samples))
    )
    for index in draws:
        if len(chosen) == min(samples, size):
            break
        if index in chosen:
            continue
        state = solver.rules.state(d, index)
        if solver.rules.index(*state) != index:
            raise ValueError(f"the independent index does not invert itself at layer {d}, index {index}")
        if solver.kept(state):
            chosen.add(index)
        else:
            check.skipped += 1
    return sorted(chosen)


def _layer_sizes(solver: IndependentWin, header: dict[str, Any]) -> list[int]:
    """The layers' sizes by the rules, checked against the sizes the table's header gives."""
    sizes = [solver.rules.layer_size(d) for d in range(len(header["sizes"]))]
    if sizes != list(header["sizes"]):
        raise ValueError(f"layer sizes differ: the win table says {header['sizes']}, the rules give {sizes}")
    return sizes


def verify_win_table(
    path: Path,
    config: RulesConfig,
    samples: int,
    *,
    seed: int = 0,
    full_depth: int = FULL_DEPTH,
    on_layer: Callable[[WinLayerCheck], None] | None = None,
) -> list[WinLayerCheck]:
    header, layers = read_win_file(path)
    solver = IndependentWin(config, header["unit"])
    sizes = _layer_sizes(solver, header)
    rng = random.Random(seed)
    results = []
    for d in range(1, header["done"] + 1):
        began, cpu_began = time.perf_counter(), time.process_time()
        check = WinLayerCheck(d, sizes[d])
        layer = layers[d]
        assert layer is not None

        def below(mine: tuple[int, ...], theirs: tuple[int, ...], deck: tuple[int, ...], q: int) -> float:
            return solver.table_p(layers, (mine, theirs, deck), q)

        picks = _reachable_sample(solver, d, sizes[d], samples, rng, check)
        full = set(rng.sample(picks, min(len(picks), full_states(d, samples)))) if d <= full_depth else set()
        for index in picks:
            state = solver.rules.state(d, index)
            check.states += 1
            check.full_states += index in full
            stored_count, expected_count = solver.table_count(layers, state)
            if stored_count != expected_count:
                check.fail(f"layer {d} index {index} {state}: values kept", stored_count, expected_count)
            lo, hi = solver.window(int(layer.g[index]), int(layer.h[index]), d)
            for q in _differences(solver.kept(state), lo, hi, rng):
                stored = solver.table_p(layers, state, q)
                where = f"layer {d} index {index} {state} at D = {q * solver.unit}"
                step = solver.step(state, q, below if d > 1 else None)
                check.step_values += 1
                check.settled_values += not lo <= q <= hi
                if step == MISSING:
                    check.fail(f"{where}: a move's result is a difference the layer below does not keep", stored, step)
                    continue
                difference = abs(step - stored)
                check.max_step_difference = max(check.max_step_difference, difference)
                if difference > STEP_TOLERANCE:
                    check.fail(f"{where} (step)", stored, step)
                if index in full:
                    full_p = solver.full(state, q)
                    check.full_values += 1
                    difference = abs(full_p - stored)
                    check.max_full_difference = max(check.max_full_difference, difference)
                    if difference > full_tolerance(d):
                        check.fail(f"{where} (full)", stored, full_p)
        check.seconds = time.perf_counter() - began
        check.cpu_seconds = time.process_time() - cpu_began
        results.append(check)
        if on_layer:
            on_layer(check)
    return results
