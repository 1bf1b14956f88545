"""What produced a strategy's moves: its objective, its search budget, the table and weights it reads.

Results are only comparable when they say this: the same seeded command plays differently once
`rummy-vision solve` has built the perfect-play table, so every result names the table it used.
"""

from __future__ import annotations

import math
from typing import Any

from strategies.opponent_model import reading_text


def strategy_source(strategy: Any) -> dict[str, Any]:
    """The facts behind a strategy instance's moves, as JSON: only the ones it has."""
    found: dict[str, Any] = {"strategy": getattr(strategy, "name", type(strategy).__name__)}
    objective = getattr(strategy, "objective", None)
    if objective is not None:
        found["objective"] = getattr(objective, "value", str(objective))
    nodes = getattr(strategy, "nodes", None)
    time_ms = getattr(strategy, "time_ms", None)
    budget_text = getattr(strategy, "budget_text", None)
    if isinstance(budget_text, str):
        found["budget"] = budget_text
    elif nodes is not None:
        found["budget"] = f"{nodes} nodes a move"
    elif isinstance(time_ms, (int, float)) and math.isfinite(time_ms):
        found["budget"] = f"{time_ms:g} ms a move (the clock: moves may vary with the machine's load)"
    elif time_ms is not None and hasattr(strategy, "searcher"):
        found["budget"] = "none: solves to the end of the round"
    table = getattr(strategy, "table", None)
    if table is not None:
        found["table"] = {"file": str(table.path), "layers": f"1..{table.top}", "values": "exact margins"}
    elif hasattr(strategy, "exact_solve") and getattr(strategy, "exact_solve", False):
        found["table"] = None  # could read one, found none: `rummy-vision solve` builds it
    win = getattr(strategy, "win_source", None)
    if isinstance(win, dict):
        found["win_table"] = win
    if getattr(strategy, "read_opponent", False):
        found["read_opponent"] = True
        if getattr(strategy, "temper", None) not in (None, 1):
            found["temper"] = strategy.temper
        if getattr(strategy, "beta", None):
            found["beta"] = strategy.beta
        if getattr(strategy, "read_draws", None):
            found["read_draws"] = strategy.read_draws
    if getattr(strategy, "doubt", 0):
        found["doubt"] = strategy.doubt
        if getattr(strategy, "learn", False):
            found["learn"] = True
    if getattr(strategy, "teach", 0):
        found["teach"] = strategy.teach
    if getattr(strategy, "samples", None):
        found["samples"] = strategy.samples
    if hasattr(strategy, "weights_path"):
        found["weights"] = str(strategy.weights_path or "a model given in code")
    return found


def source_text(source: dict[str, Any]) -> str:
    """One line for people, e.g. "expectimax, win objective, 3000 nodes a move, table ~/t.bin (layers 1..7)"."""
    parts = [str(source.get("strategy", "?"))]
    if "objective" in source:
        parts.append(f"{source['objective']} objective")
    if "budget" in source:
        parts.append(str(source["budget"]))
    if "table" in source:
        table = source["table"]
        parts.append(
            f"table {table['file']} (layers {table['layers']})"
            if table
            else "no perfect-play table (`rummy-vision solve --margin-only` builds one, 1.1 GB and a few CPU minutes; "
            "results change once it exists)"
        )
    if "win_table" in source:
        win = source["win_table"]
        where = f"win table {win['file']} (layers {win['layers']})" if win["file"] else "no win table"
        parts.append(f"{where}: {win['exact']}")
    if "weights" in source:
        parts.append(f"weights {source['weights']}")
    if "recognizer" in source:
        parts.append(f"recognizer {source['recognizer']}")
    if "error_model" in source:
        parts.append(f"decides on a belief over the cards ({source['error_model']})")
    if source.get("read_opponent"):
        reading = reading_text(source.get("temper"), source.get("beta"))
        parts.append(f"where that belief is unsure, weighs it by the opponent's moves, {reading}")
        if source.get("read_draws"):
            parts.append(f"read on {source['read_draws']} draws of a sampled belief, resampled to those it values")
    if source.get("samples"):
        parts.append(
            f"a sampled belief draws {source['samples']} assignments (halved while they do not fit a move's time)"
        )
    if source.get("doubt"):
        parts.append(f"ranks its moves with doubt={source['doubt']:g} (a card it doubts is worth less in its hand)")
        if source.get("learn"):
            parts.append("counting what a Lay's answer would teach (learn=true)")
    if source.get("teach"):
        parts.append(f"ranks a Lay higher by what its answer would be worth (teach={source['teach']:g})")
    return ", ".join(parts)
