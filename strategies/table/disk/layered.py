"""What the margin and the win table builds share: layers built in order, each from the layer below;
a finished layer is written with its checksum and timings before the next starts, so an interrupted
build resumes at the layer in progress and gives the same bytes as an uninterrupted one."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict, TypeVar, Unpack

from rummy import RulesConfig
from strategies.kernel import KernelTables, kernel_tables
from strategies.kernel.tables import layer_sizes
from strategies.table.disk.files import TableError, rules_fields

Layer = TypeVar("Layer")
# on_progress(layer, work of the layer done, the layer's work, states/s so far)
Progress = Callable[[int, int, int, float], None]
# Seconds and CPU seconds (all threads) a layer took, and the peak memory so far, as the header records them.
Timing = dict[str, float]


class BuildOptions(TypedDict, total=False):
    top: int | None  # build layers 1..top (default: the whole round)
    workers: int  # threads that share each layer's work (default 2)
    on_progress: Progress | None
    chunk: int  # states a compiled call handles between progress reports (default: the builder's)
    on_layer: Callable[[int, Timing], None] | None  # after a layer is on disk and in the header


def prepare(config: RulesConfig, **options: Unpack[BuildOptions]) -> tuple[KernelTables, list[int], int]:
    """The kernel's tables, the layer sizes and the top layer to build; numba's threads set to the workers."""
    import numba  # numba loads only when a build starts: planning the sizes needs none

    tables = kernel_tables(config)
    sizes = layer_sizes(tables)
    top = options.get("top")
    workers = options.get("workers", 2)
    top = len(sizes) - 1 if top is None else min(top, len(sizes) - 1)
    if top < 1:
        raise ValueError("a table holds at least layer 1")
    numba.set_num_threads(max(1, min(workers, getattr(numba.config, "NUMBA_NUM_THREADS", 2))))
    return tables, sizes, top


def new_header(config: RulesConfig, sizes: list[int], top: int, **fields: Any) -> dict[str, Any]:
    """A new build's header: `fields` (format, objective, dtype, fingerprints, empty records), the rules,
    the layer sizes, the top layer asked for, and no layer done yet."""
    return fields | {"rules": rules_fields(config), "sizes": sizes, "top": top, "done": 0}


def check_finished(path: Path, d: int, found: int, recorded: int) -> None:
    """Refuse to build on a finished layer whose checksum is not the one recorded."""
    if found != recorded:
        raise TableError(f"{path}: finished layer {d} fails its checksum; delete the file and build again")


def build_layers(
    first: int,
    last: int,
    below: Layer,
    build: Callable[[int, Layer], Layer],
    write: Callable[[int, Layer], None],
    record: Callable[[int, Layer, Timing], None],
    on_layer: Callable[[int, Timing], None] | None = None,
) -> None:
    """Layers first..last: build(d, layer d-1) computes layer d, write stores its data, then record
    notes it (checksum, timings) in the header; the time recorded covers building and writing."""
    for d in range(first, last + 1):
        began = time.perf_counter()
        cpu_began = time.process_time()
        layer = build(d, below)
        write(d, layer)
        # CPU time of all threads: on a shared machine the wall time says more about the neighbours.
        timing: dict[str, float] = {
            "seconds": round(time.perf_counter() - began, 3),
            "cpu_seconds": round(time.process_time() - cpu_began, 3),
        }
        peak = peak_rss_bytes()
        if peak is not None:
            timing["peak_rss_bytes"] = peak
        record(d, layer, timing)
        if on_layer is not None:
            on_layer(d, timing)
        below = layer


def peak_rss_bytes() -> int | None:
    """The process's peak resident memory so far (the build's memory budget); None where the system
    does not say (Windows has no `resource` module)."""
    try:
        import resource  # Windows has no resource module
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


def in_chunks(size: int, chunk: int, work: Callable[[int, int], None], done: Callable[[int], None]) -> None:
    """work(start, stop) over 0..size in chunks, done(stop) after each."""
    for start in range(0, size, chunk):
        stop = min(size, start + chunk)
        work(start, stop)
        done(stop)
