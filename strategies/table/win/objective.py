"""The win objective behind strategies.table.objective's interface: P(win) of every banked difference a deal
can reach, per state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Unpack

from rummy import CountState, RulesConfig
from strategies.search import Objective
from strategies.table.disk.layered import BuildOptions
from strategies.table.win import build, fileformat, lookup, verify
from strategies.table.win.fileformat import WinTable
from strategies.table.win.verify import WinLayerCheck


class WinObjective:
    name: Objective = Objective.WIN
    title: str = "win table"
    check_title: str = "P(win) checked against the independent win solver"
    sampled: str = "reachable states"
    check_columns: tuple[str, ...] = (
        "layer",
        "states",
        "values",
        "settled",
        "full",
        "max step diff",
        "max full diff",
        "CPU s",
    )

    def default_path(self, config: RulesConfig) -> Path:
        return fileformat.default_win_table_path(config)

    def beside(self, margin_path: Path) -> Path:
        """Where `solve --out PATH` puts the win table: beside the margin table, as PATH.rvw."""
        return margin_path.with_suffix(".rvw")

    def read_header(self, path: Path) -> dict[str, Any]:
        return fileformat.read_win_header(path)

    def build(self, path: Path, config: RulesConfig, **options: Unpack[BuildOptions]) -> dict[str, Any]:
        return build.build_win_table(path, config, **options)

    def load(self, path: Path, config: RulesConfig) -> WinTable:
        return fileformat.load_win_table(path, config)

    def verify(
        self,
        table: WinTable,
        samples: int,
        *,
        seed: int = 0,
        on_layer: Callable[[WinLayerCheck], None] | None = None,
    ) -> list[WinLayerCheck]:
        # The check reads the file through its own independent reader, not through `table`.
        return verify.verify_win_table(table.path, table.config, samples, seed=seed, on_layer=on_layer)

    def value(self, state: CountState, table: WinTable) -> float:
        """The mover's exact P(win) under perfect play by both."""
        return lookup.win_probability(state, table)

    def move_values(self, state: CountState, table: WinTable) -> dict[int, float]:
        """Every legal move's 2 P(win) - 1."""
        return lookup.win_move_values(state, table)

    def check_line(self, check: WinLayerCheck) -> str:
        return (
            f"win layer {check.layer:>2}: {check.states} states, {check.step_values} values from the layer below "
            f"+ {check.full_values} to the end, max difference {check.max_step_difference:.2g}, {check.seconds:.1f} s"
        )

    def check_row(self, check: WinLayerCheck) -> tuple[str, ...]:
        return (
            str(check.layer),
            str(check.states),
            str(check.step_values),
            str(check.settled_values),
            str(check.full_values),
            f"{check.max_step_difference:.2g}",
            f"{check.max_full_difference:.2g}",
            f"{check.cpu_seconds:.1f}",
        )

    def check_summary(self, checks: Sequence[WinLayerCheck]) -> str:
        return (
            f"win: {sum(check.states for check in checks)} states, {sum(check.step_values for check in checks)} "
            f"P(win) values checked from the layer below ({sum(check.settled_values for check in checks)} of them "
            f"settled 0 or 1 outside the stored window), {sum(check.full_values for check in checks)} solved to the "
            f"round's end; max difference {max(check.max_step_difference for check in checks):.2g} (tolerance "
            f"{verify.STEP_TOLERANCE:.2g}: half a 16-bit step)"
        )

    def mismatches(self, checks: Sequence[WinLayerCheck]) -> list[str]:
        return [
            f"MISMATCH: {check.failures} in win layer {check.layer}; first: {check.worst}"
            for check in checks
            if not check.passed
        ]
