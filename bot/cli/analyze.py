"""`rummy-vision analyze`: rank the moves of positions from a file."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from rummy.belief import EXPECTED
from strategies.registry import SPEC_HELP


def register(app: typer.Typer) -> None:
    app.command()(analyze)


def analyze(
    file: Path = typer.Argument(..., help="A position (.json) or one position per line (.jsonl)."),
    strategy: str | None = typer.Option(
        None,
        help="Strategy that ranks the moves: "
        + SPEC_HELP
        + ". Default: perfect once `rummy-vision solve --margin-only` has built its table (1.1 GB, a few CPU minutes), "
        "else expectimax.",
    ),
    objective: str = typer.Option(
        "win",
        help="win (probability of winning the round: what the arena scores; the default) or margin (points).",
    ),
    time_ms: float = typer.Option(1000, help="Thinking time per position, in milliseconds."),
    nodes: int | None = typer.Option(
        None,
        min=1,
        help="Node budget per position instead of --time-ms: the same answer on any machine, under any load.",
    ),
    top: int = typer.Option(8, help="Moves shown in the table (the JSON lists all)."),
    json_output: bool = typer.Option(False, "--json", help="One JSON answer per position."),
    recognizer: str | None = typer.Option(
        None,
        "--recognizer",
        help="See the hand cards as a bot would through this recognizer (e.g. harsh:0.1, noisy:0.1; the position's "
        "labels are its true labels): moves are then decided on the belief, their values expected over it, and "
        "the cards it is unsure of are shown with their chances. Also as --strategy NAME@RECOGNIZER.",
    ),
) -> None:
    """Rank the moves of a position, best first, like a coach's suggestions."""

    from strategies.position import PositionError

    console = Console()
    errors = Console(stderr=True)
    strategy, recognizer = _split_recognizer(strategy, recognizer)
    strategy = _checked_strategy(objective, strategy, time_ms)
    failed = False
    for number, line in _lines(file, errors):
        where = f"{file.name}:{number}" if file.suffix == ".jsonl" else file.name
        try:
            position, analysis = _analysed(errors, line, strategy, objective, time_ms, nodes, recognizer)
        except PositionError as error:
            failed = True
            if json_output:
                print(json.dumps({"error": f"{where}: {error}"}), flush=True)
            else:
                errors.print(f"[red]{where}: {error}[/red]")
            continue
        if json_output:
            print(json.dumps({**analysis.to_json(), **_value_kind(analysis), "note": analysis.note()}), flush=True)
            continue
        _print_analysis(console, where, strategy, position, analysis, top)
    if failed:
        raise typer.Exit(1)


def _split_recognizer(strategy: str | None, recognizer: str | None) -> tuple[str | None, str | None]:
    """The strategy and the recognizer from --strategy NAME@RECOGNIZER or --recognizer (not both)."""
    from bot.players.labelling import split_player

    if strategy is None or "@" not in strategy:
        return strategy, recognizer
    try:
        name, own = split_player(strategy)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--strategy") from None
    if own is not None and recognizer is not None and own != recognizer:
        raise typer.BadParameter(f"two recognizers named: {own!r} and {recognizer!r}", param_hint="--recognizer")
    return name, own or recognizer


def _analysed(
    errors: Any, line: str, strategy: str, objective: str, time_ms: float, nodes: int | None, recognizer: str | None
) -> tuple[Any, Any]:
    """One line's position and its analysis; raises PositionError for a bad position, exits 2 when the
    strategy cannot value it at all (a table not built, a position the kernel does not take)."""
    from recognizers.registry import get_recognizer
    from rummy.bounded_json import loads
    from strategies.analyze import analyse, analyse_seen
    from strategies.kernel import KernelUnsupported
    from strategies.position import PositionError, parse_position
    from strategies.seen_position import position_truth
    from strategies.table import TableError

    try:
        try:
            raw = loads(line)
        except ValueError as error:
            raise PositionError(f"not valid JSON: {error}") from None
        position = parse_position(raw)
        if recognizer is not None:
            seeing = get_recognizer(recognizer, source=position_truth(raw), noise_seed=0)
            return position, analyse_seen(position, raw, seeing, recognizer, strategy, objective, time_ms, nodes)
        return position, analyse(position, strategy, objective, time_ms, nodes)
    except (TableError, KernelUnsupported) as error:
        errors.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    except (ValueError, OSError) as error:
        if isinstance(error, PositionError) or recognizer is None:
            raise
        errors.print(f"[red]recognizer {recognizer!r}: {error}[/red]")  # a bad spec or file, in one line
        raise typer.Exit(2) from None


def _checked_strategy(objective: str, strategy: str | None, time_ms: float) -> str:
    """The strategy to rank with (the default one when none was named), the options checked."""
    from strategies.registry import parse_spec, strategy_names
    from strategies.search import Objective

    if objective not in {item.value for item in Objective}:
        raise typer.BadParameter(f"objective must be win or margin, got {objective!r}", param_hint="--objective")
    if strategy is None:
        from strategies.table.perfect import default_valuer

        strategy = default_valuer()
    if parse_spec(strategy)[0] not in strategy_names():
        raise typer.BadParameter(
            f"unknown strategy; choose one of {', '.join(strategy_names())}", param_hint="--strategy"
        )
    if time_ms <= 0:
        raise typer.BadParameter("must be positive", param_hint="--time-ms")
    return strategy


def _lines(file: Path, errors: Any) -> list[tuple[int, str]]:
    """The file's positions with their line numbers (a .json file is one position); exits 2 when unreadable."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        errors.print(f"[red]cannot read {file}: {error.strerror}[/red]")
        raise typer.Exit(2) from None
    if file.suffix == ".jsonl":
        return [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    return [(1, text)]


def _print_analysis(console: Any, where: str, strategy: str, position: Any, analysis: Any, top: int) -> None:
    """One position's ranked moves as a table, with where the values came from."""

    from strategies.search import Objective

    kind = "P(win)" if analysis.objective is Objective.WIN else "exp. margin"
    depth = "exact" if analysis.exact else f"{analysis.depth} turns deep"
    if analysis.how:
        depth = analysis.how  # `perfect` says where this position's values came from
    if analysis.expected:
        kind += f", {EXPECTED}"
    table = Table(title=f"{where}: {strategy}, {kind}, {depth}")
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("landmarks (as believed)" if analysis.expected else "landmarks")
    table.add_column("chance of a set" if analysis.expected else "by type")
    table.add_column(kind, justify="right")
    legend = ", ".join(f"{chr(65 + t)}={name}" for t, name in enumerate(position.types))
    for rank, ranked in enumerate(analysis.moves[:top], 1):
        win = analysis.objective is Objective.WIN
        shown = "-" if ranked.value is None else f"{ranked.value:.3f}" if win else f"{ranked.value:+.1f}"
        table.add_row(str(rank), json.dumps(ranked.move), ranked.landmarks, ranked.label, shown)
    table.caption = legend
    console.print(table)
    if analysis.source is not None:
        from strategies.provenance import source_text

        console.print(f"Values by {source_text(analysis.source)}", highlight=False, soft_wrap=True, markup=False)
    if analysis.expected:
        console.print(analysis.note(), highlight=False, soft_wrap=True, markup=False)
    if analysis.expected and analysis.assignments_exact:
        console.print(EXPECTED_EXACT, highlight=False, soft_wrap=True)
    elif not analysis.exact:
        console.print(f"Values are estimates. {EXACT_HINT_ANALYZE}", highlight=False, soft_wrap=True)


EXACT_HINT_ANALYZE = (
    "For exact ones run `rummy-vision solve` once (the perfect-play tables: margin, 1.1 GB and a few CPU minutes, "
    "then win, 2.73 GB, about 22 CPU minutes), then --strategy perfect."
)


# A table cannot make an expectation over misread cards exact, so its hint would send the user to solve for nothing.
EXPECTED_EXACT = (
    "Values are expectations over the belief: each assignment of the cards is valued exactly, but which one is "
    "true is not known, so no table makes them exact."
)


def _value_kind(analysis: Any) -> dict[str, object]:
    """'exact', 'expected' (over the belief, each assignment exact) or 'estimate' (with how to get exact ones).

    An expectation over an uncertain belief is 'expected' even when worked out exactly (every assignment
    enumerated): it is not the position's value, which depends on the assignment that is true."""
    if analysis.expected and (analysis.exact or analysis.assignments_exact):
        return {"values": "expected", "exact_hint": None}
    if analysis.exact:
        return {"values": "exact", "exact_hint": None}
    return {"values": "estimate", "exact_hint": EXACT_HINT_ANALYZE}
