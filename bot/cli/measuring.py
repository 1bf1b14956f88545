"""What every measurement command shares: timing its work, storing the result, checking players, the options.

`rummy-vision measure` (bot/cli/measure.py) uses it; so do the repository's recipes (tools/recipes/app.py),
which pass their own result folder and checkout.
"""

# Imports inside functions: the duel's, the table's and the registry's modules load numba and every
# strategy, which `rummy-vision --help` and the commands that need none of them should not wait for.

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from bot.measure.record import start_run, write_result

NAME_HELP = "Run name: the result goes to OUT/NAME.json (default: named for the command and its players)."
SAVE_HELP = "Write the result file (--no-save only prints)."
SaveOption = Annotated[bool, typer.Option(help=SAVE_HELP)]
TableOption = Annotated[
    Path | None, typer.Option(help="Table file (default: RUMMY_VISION_TABLE or the user data directory).")
]


def emit(line: str) -> None:
    typer.echo(line)


def measure_run(
    ctx: typer.Context,
    name: str,
    work: Callable[..., Any],
    *,
    seeds: Any,
    settings: dict[str, Any],
    out: Path,
    save: bool,
    refused: tuple[type[Exception], ...] = (),
    checkout: Path | None = None,
    keeps: bool = False,
) -> Any:
    """Time `work`, then store the figures it returns in OUT/NAME.json, recording the commit of `checkout`
    (default: the current directory's, if it is a git checkout); an error of a `refused` kind (a missing or
    foreign table, an unreadable file) ends the command with its own one line and exit code 2, nothing stored.

    With `keeps`, `work` is called with `keep(figures)`, which stores the figures so far in the same file (with
    `save`; else it does nothing) and returns its path: a run of hours keeps what it finished if it is cut short.
    Its figures should say they are unfinished; the last write, of what `work` returns, replaces them."""
    run = start_run()

    def store(figures: Any) -> Path:
        return write_result(
            name,
            figures,
            run=run,
            seeds=seeds,
            settings=settings,
            folder=out,
            argv=command_line(ctx),
            checkout=checkout,
        )

    def stored(figures: Any) -> Path:
        try:
            return store(figures)
        except (OSError, ValueError) as error:
            typer.echo(f"cannot write the result: {error}", err=True)
            raise typer.Exit(1) from None

    def keep(figures: Any) -> Path | None:
        return stored(figures) if save else None

    try:
        figures = work(keep) if keeps else work()
    except refused as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    if not save:
        return figures
    typer.echo(f"result written to {stored(figures)}")
    return figures


def table_errors() -> tuple[type[Exception], ...]:
    from strategies.table import TableError

    return (TableError, OSError)


def command_line(ctx: typer.Context) -> list[str]:
    """The running command with every option spelled out, defaults included: it repeats the run exactly."""
    line = ctx.command_path.split()
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if value is None:
            continue
        argument = param.param_type_name == "argument"
        values = list(value) if param.multiple or (argument and param.nargs != 1) else [value]
        if argument:
            line += [str(item) for item in values]
        elif getattr(param, "is_bool_flag", False):
            names = param.opts if value else param.secondary_opts
            if names:
                line.append(names[0])
        else:
            for item in values:
                line += [param.opts[0], str(item)]
    return line


def spec_list(text: str) -> list[str]:
    """Comma-separated specs, where a piece that is only `OPT=VAL` continues the spec before it: so
    "perfect:doubt=0.1,learn=true,greedy" is two players, as a spec alone writes its options."""
    specs: list[str] = []
    for piece in (item.strip() for item in text.split(",")):
        if not piece:
            continue
        key, equals, _rest = piece.partition("=")
        if specs and equals and key.strip().isidentifier():
            specs[-1] += f",{piece}"
        else:
            specs.append(piece)
    return specs


def bad(error: Exception, hint: str) -> typer.BadParameter:
    return typer.BadParameter(str(error), param_hint=hint)


def check_player(spec: str, hint: str) -> None:
    """A player spec names a registered strategy and only options it takes (checked before any work starts)."""
    from bot.measure.duel import parse_player
    from strategies.registry import strategy_names, takes_option

    name, options = parse_player(spec)
    if name not in strategy_names():
        raise typer.BadParameter(
            f"unknown strategy {name!r}; choose from {', '.join(strategy_names())}", param_hint=hint
        )
    unknown = sorted(option for option in options if not takes_option(name, option))
    if unknown:
        raise typer.BadParameter(f"{name} does not take the option(s) {', '.join(unknown)}", param_hint=hint)
