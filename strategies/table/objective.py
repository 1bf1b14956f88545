"""One objective, two implementations: what a perfect-play table maximises (the expected final margin, or the
probability of winning the round) and everything done with its table, behind one interface.

    objective = OBJECTIVES["win"]                 # or "margin"
    path = objective.default_path(config)         # where `rummy-vision solve` writes it
    objective.build(path, config, top=20)         # resumable; returns the final header
    table = objective.load(path, config)          # memory-mapped and checked; TableError says why not
    objective.verify(table, samples, seed=0)      # per layer, against a solver that shares no code with the kernel
    objective.move_values(state, table)           # {move id: value} on the search's scale

The two differ in what a position's value is and so in their files (a float per state, against the P(win)
of every banked difference a deal can reach), their checks and their tolerances; the commands that build,
check, read and measure tables call this interface and never ask which objective they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, Unpack

from rummy import CountState, RulesConfig
from strategies.search import Objective
from strategies.table.disk.layered import BuildOptions
from strategies.table.margin.objective import MarginObjective
from strategies.table.win.objective import WinObjective


class LayerReport(Protocol):
    """One layer's check: enough for a command to say whether it passed and what differed first."""

    layer: int
    seconds: float
    cpu_seconds: float
    worst: str

    @property
    def passed(self) -> bool: ...


class TableObjective(Protocol):
    name: Objective
    title: str  # "margin table", "win table"
    check_title: str  # what its check compares, for the report's title
    sampled: str  # what its check draws from each layer
    check_columns: tuple[str, ...]

    def default_path(self, config: RulesConfig) -> Path: ...
    def beside(self, margin_path: Path) -> Path: ...
    def read_header(self, path: Path) -> dict[str, Any]: ...
    def build(self, path: Path, config: RulesConfig, **options: Unpack[BuildOptions]) -> dict[str, Any]: ...
    def load(self, path: Path, config: RulesConfig) -> Any: ...
    def verify(
        self, table: Any, samples: int, *, seed: int = 0, on_layer: Callable[[Any], None] | None = None
    ) -> Sequence[LayerReport]: ...
    def value(self, state: CountState, table: Any) -> float: ...
    def move_values(self, state: CountState, table: Any) -> dict[int, float]: ...
    def check_line(self, check: Any) -> str: ...
    def check_row(self, check: Any) -> tuple[str, ...]: ...
    def check_summary(self, checks: Sequence[Any]) -> str: ...
    def mismatches(self, checks: Sequence[Any]) -> list[str]: ...


OBJECTIVES: dict[Objective, TableObjective] = {Objective.MARGIN: MarginObjective(), Objective.WIN: WinObjective()}
