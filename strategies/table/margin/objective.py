"""The margin objective behind strategies.table.objective's interface: one float32 expected margin per state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Unpack

from rummy import CountState, RulesConfig
from strategies.search import Objective
from strategies.table.disk.layered import BuildOptions
from strategies.table.margin import build, fileformat, lookup, verify
from strategies.table.margin.fileformat import MarginTable
from strategies.table.margin.verify import LayerCheck


class MarginObjective:
    name: Objective = Objective.MARGIN
    title: str = "margin table"
    check_title: str = "checked against the independent solver"
    sampled: str = "states"
    check_columns: tuple[str, ...] = ("layer", "states", "step checks", "full checks", "max difference", "s", "CPU s")

    def default_path(self, config: RulesConfig) -> Path:
        return fileformat.default_table_path(config)

    def beside(self, margin_path: Path) -> Path:
        return margin_path

    def read_header(self, path: Path) -> dict[str, Any]:
        return fileformat.read_header(path)

    def build(self, path: Path, config: RulesConfig, **options: Unpack[BuildOptions]) -> dict[str, Any]:
        return build.build_table(path, config, **options)

    def load(self, path: Path, config: RulesConfig) -> MarginTable:
        return fileformat.load_table(path, config)

    def verify(
        self,
        table: MarginTable,
        samples: int,
        *,
        seed: int = 0,
        on_layer: Callable[[LayerCheck], None] | None = None,
    ) -> list[LayerCheck]:
        return verify.verify_table(table, samples, seed=seed, on_layer=on_layer)

    def value(self, state: CountState, table: MarginTable) -> float:
        """The exact expected final margin for the mover, banked points included."""
        return lookup.margin_value(state, table)

    def move_values(self, state: CountState, table: MarginTable) -> dict[int, float]:
        return lookup.table_move_values(state, table)

    def check_line(self, check: LayerCheck) -> str:
        return (
            f"layer {check.layer:>2}: {check.step_states} step + {check.full_states} full, "
            f"max difference {check.max_difference:.2g}, {check.seconds:.1f} s"
        )

    def check_row(self, check: LayerCheck) -> tuple[str, ...]:
        return (
            str(check.layer),
            f"{check.size:,}",
            str(check.step_states),
            str(check.full_states),
            f"{check.max_difference:.2g}",
            f"{check.seconds:.1f}",
            f"{check.cpu_seconds:.1f}",
        )

    def check_summary(self, checks: Sequence[LayerCheck]) -> str:
        worst = max(check.max_difference for check in checks)
        return (
            f"{sum(check.step_states for check in checks)} states checked from the layer below, "
            f"{sum(check.full_states for check in checks)} solved to the round's end; "
            f"max difference {worst:.2g} (tolerance {verify.TOLERANCE})"
        )

    def mismatches(self, checks: Sequence[LayerCheck]) -> list[str]:
        failed = [check for check in checks if not check.passed]
        return [f"MISMATCH: {max(failed, key=lambda check: check.max_difference).worst}"] if failed else []
