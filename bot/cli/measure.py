"""`rummy-vision measure NAME`: the measurements behind the README's figures (bot.measure).

Every subcommand prints its figures and writes them, with the command line, commit, seeds, machine
and load, to `measurements/NAME.json` (`--name` to name the run, `--out` for another folder,
`--no-save` to only print).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer

from bot.measure.record import DEFAULT_FOLDER, Run, start_run, write_result

measure_app = typer.Typer(
    name="measure",
    help="Measurements behind the README's figures; each writes its result to measurements/NAME.json.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)

NAME_HELP = "Run name: the result goes to OUT/NAME.json (default: named for the command and its players)."
OUT_HELP = "Folder for the result file."
SAVE_HELP = "Write the result file (--no-save only prints)."


def register(app: typer.Typer) -> None:
    app.add_typer(measure_app, name="measure")


def emit(line: str) -> None:
    typer.echo(line)


def _save(
    ctx: typer.Context,
    name: str,
    figures: Any,
    run: Run,
    *,
    seeds: Any,
    settings: dict[str, Any],
    out: Path,
    save: bool,
) -> None:
    if not save:
        return
    try:
        path = write_result(
            name,
            figures,
            run=run,
            seeds=seeds,
            settings=settings,
            folder=out,
            argv=command_line(ctx),
        )
    except (OSError, ValueError) as error:
        typer.echo(f"cannot write the result: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"result written to {path}")


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


def _bad(error: Exception, hint: str) -> typer.BadParameter:
    return typer.BadParameter(str(error), param_hint=hint)


def _check_player(spec: str, hint: str) -> None:
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


@measure_app.command()
def search(
    ctx: typer.Context,
    positions: int = typer.Option(20, min=1, help="Positions (turns left 8-20) for the node counts."),
    depth: int = typer.Option(3, min=1, help="Search depth of the node counts, in turns."),
    decisions: int = typer.Option(40, min=1, help="Decisions timed at the default 1000 ms budget."),
    exact_max: int = typer.Option(5, min=1, help="Time the exact solver up to this many turns left."),
    seed: int = typer.Option(7, help="Seed of the position sets."),
    name: str = typer.Option("search", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Searcher figures: node counts per pruning variant, nodes per second, decision times, exact-solver times.

    Decision times depend on the machine and its load (the result records both).
    """
    from bot.measure.search import report, search_figures

    run = start_run()
    figures = search_figures(positions, depth, decisions, exact_max, seed)
    for line in report(figures):
        emit(line)
    settings = {"positions": positions, "depth": depth, "decisions": decisions, "exact_max": exact_max}
    seeds = {"node_counts": seed, "decisions": seed + 1, "exact": f"{seed + 101}..{seed + 100 + exact_max}"}
    _save(ctx, name, figures, run, seeds=seeds, settings=settings, out=out, save=save)


@measure_app.command()
def strength(
    ctx: typer.Context,
    player: str = typer.Option("expectimax", help="The strategy measured."),
    opponents: str = typer.Option("random,greedy,heuristic", help="Opponents, comma separated."),
    rounds: int = typer.Option(1000, min=1, help="Rounds per pair (two per deal, seats swapped)."),
    nodes: int | None = typer.Option(
        None, min=1, help="Node budget per move of every searcher: the same moves on any machine, under any load."
    ),
    time_ms: float | None = typer.Option(None, min=1, help="Time budget per move of the searchers (load-dependent)."),
    max_depth: int | None = typer.Option(None, min=1, help="Depth cap of expectimax, in turns."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
    seed: int = typer.Option(0, help="First deal seed."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Duplicate-deal win rates of one strategy against several, with Wilson 95% intervals."""
    from bot.measure.strength import run_pair
    from strategies.registry import strategy_names

    names = [item.strip() for item in opponents.split(",") if item.strip()]
    for item in [player, *names]:
        if item not in strategy_names():
            raise typer.BadParameter(
                f"unknown strategy {item!r}; choose from {', '.join(strategy_names())}",
                param_hint="--player/--opponents",
            )
    run = start_run()
    deals = max(1, (rounds + 1) // 2)
    results = []
    for opponent in names:
        result = run_pair(
            player, opponent, deals, time_ms=time_ms, max_depth=max_depth, nodes=nodes, workers=workers, first_seed=seed
        )
        results.append(asdict(result))
        emit(
            f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
            f"(95% CI {result.low:.3f}-{result.high:.3f}), mean margin {result.mean_margin:+.1f}, "
            f"{result.seconds:.0f} s"
        )
    budget = f"-nodes{nodes}" if nodes else f"-{time_ms:g}ms" if time_ms else ""
    settings = {"player": player, "opponents": names, "rounds": rounds, "nodes": nodes, "time_ms": time_ms}
    settings |= {"max_depth": max_depth, "workers": workers}
    _save(
        ctx,
        name or f"strength-{player}{budget}",
        {"pairs": results},
        run,
        seeds={"deals": f"{seed}..{seed + deals - 1}", "rule": "rummy.deals.make_deal"},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command()
def duel(
    ctx: typer.Context,
    player: str = typer.Argument(..., help="First player: NAME or NAME:key=value,... (e.g. expectimax:nodes=449000)."),
    opponent: str = typer.Argument(..., help="Second player, written the same way."),
    rounds: int = typer.Option(200, min=1, help="Rounds (two per deal, seats swapped)."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
    seed: int = typer.Option(0, help="First deal seed."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Duplicate-deal duel between two configured players; give searchers `nodes=N` to make it replayable."""
    from bot.measure.duel import duel as play_duel

    _check_player(player, "PLAYER")
    _check_player(opponent, "OPPONENT")
    run = start_run()
    deals = max(1, (rounds + 1) // 2)
    result = play_duel(player, opponent, deals, workers=workers, first_seed=seed, tally=emit)
    emit(
        f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
        f"(Wilson 95% {result.low:.3f}-{result.high:.3f}), mean margin {result.mean_margin:+.2f}, "
        f"{result.seconds:.0f} s"
    )
    _save(
        ctx,
        name or f"duel-{player}-vs-{opponent}",
        asdict(result),
        run,
        seeds={"deals": f"{seed}..{seed + deals - 1}", "rule": "rummy.deals.make_deal"},
        settings={"player": player, "opponent": opponent, "rounds": rounds, "workers": workers},
        out=out,
        save=save,
    )


@measure_app.command("node-rate")
def node_rate(
    ctx: typer.Context,
    players: list[str] = typer.Argument(..., help="Players as in `measure duel` (NAME:key=value,...)."),
    positions: int = typer.Option(40, min=1, help="Decisions measured (turns left 8-20)."),
    seed: int = typer.Option(4242, help="Seed of the position set."),
    time_ms: float = typer.Option(1000.0, min=1, help="The time budget to translate into nodes."),
    name: str = typer.Option("node-rate", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Nodes per CPU second of searchers: the node budget that equals a time budget on this machine, idle."""
    from bot.measure.node_rate import node_rate as rate_of

    for spec in players:
        _check_player(spec, "PLAYERS")
    run = start_run()
    rows = []
    for spec in players:
        try:
            rate, decisions = rate_of(spec, positions, seed)
        except ValueError as error:
            raise _bad(error, "PLAYERS") from None
        budget = round(rate * time_ms / 1000, -3)
        rows.append({"player": spec, "nodes_per_cpu_second": rate, "decisions": decisions, "nodes_budget": budget})
        emit(
            f"{spec}: {rate:,.0f} nodes per CPU second over {decisions} searched decisions; "
            f"{time_ms:.0f} ms is about nodes={budget:.0f}"
        )
    settings = {"positions": positions, "time_ms": time_ms}
    _save(ctx, name, {"players": rows}, run, seeds={"positions": seed}, settings=settings, out=out, save=save)


@measure_app.command()
def calibrate(
    ctx: typer.Context,
    positions: int = typer.Option(40, min=1, help="Positions per number of turns left."),
    max_turns: int = typer.Option(6, min=1, help="Positions from 1 to this many turns left."),
    name: str = typer.Option("calibrate", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Fit the margin-to-win mapping on exact endgame values (needs the perfect-play table)."""
    from bot.measure.calibrate import CHECK_SEED, FIT_SEED
    from bot.measure.calibrate import calibrate as fit
    from strategies.table import TableError

    run = start_run()
    try:
        figures = fit(positions, max_turns, emit)
    except TableError as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    seeds = {"fit": f"{FIT_SEED}+turns", "held_out": f"{CHECK_SEED}+turns"}
    settings = {"positions": positions, "max_turns": max_turns}
    _save(ctx, name, figures, run, seeds=seeds, settings=settings, out=out, save=save)


@measure_app.command()
def regret(
    ctx: typer.Context,
    turns: str = typer.Option("1,2,3,4", help="Turns-left values of the positions (1,2,3 or 1-20)."),
    per_turn: int = typer.Option(100, min=1, help="Positions per turns-left value."),
    seed: int = typer.Option(2026, help="Seed of the position set."),
    compare: list[str] = typer.Option(
        ["greedy,heuristic"],
        help="Other strategies on the same set (NAME:key=value,...; repeat, or commas for plain names).",
    ),
    weights: str | None = typer.Option(None, help="Weights file of `learned` (default: the shipped weights)."),
    stages: str = typer.Option(
        "1-2,3-6,7-9,10-12,13-16,17-20", help="Stages of the round to total, as FIRST-LAST turns left, comma separated."
    ),
    name: str = typer.Option("regret", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """How far strategies' moves are from perfect play, by turns left (regret in points against exact values)."""
    import time

    from bot.measure.regret import compare_rows, stage_rows
    from bot.measure.sampling import parse_turns
    from rummy import DEFAULT_RULES
    from strategies.learning.exact_values import solved_positions

    try:
        wanted = parse_turns(turns)
    except ValueError as error:
        raise _bad(error, "--turns") from None
    try:
        bounds = [tuple(int(part) for part in stage.split("-", 1)) for stage in stages.split(",") if stage.strip()]
        if any(len(pair) != 2 or pair[0] > pair[1] for pair in bounds):
            raise ValueError
    except ValueError:
        raise typer.BadParameter(f"stages look like 1-2,3-6; got {stages!r}", param_hint="--stages") from None
    run = start_run()
    began = time.perf_counter()
    positions = solved_positions(wanted, per_turn, seed=seed, rules=DEFAULT_RULES)
    emit(f"solved {len(positions)} positions in {time.perf_counter() - began:.0f} s")
    try:
        rows = compare_rows(positions, compare, weights)
    except ValueError as error:
        raise _bad(error, "--compare") from None
    for row in rows:
        emit(
            f"{row.strategy:10s} turns left {row.turns_left}: {row.positions} positions, mean regret "
            f"{row.mean_regret:.2f} points, optimal {row.optimal_share:.1%}"
        )
    by_stage = stage_rows(rows, [(first, last) for first, last in bounds])
    for stage in by_stage:
        emit(
            f"{stage['strategy']:10s} turns left {stage['turns_left']}: mean regret {stage['mean_regret']:.2f} points,"
            f" optimal {stage['optimal_share']:.1%}"
        )
    settings = {"turns": list(wanted), "per_turn": per_turn, "compare": compare, "weights": weights}
    _save(
        ctx,
        name,
        {"rows": [asdict(row) for row in rows], "stages": by_stage},
        run,
        seeds={"positions": seed},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command()
def correction(
    ctx: typer.Context,
    rounds: int = typer.Option(1000, min=1, help="Simulated rounds."),
    rate: float = typer.Option(0.1, min=0.0, max=1.0, help="Error rate of the noisy recognizer."),
    model: list[str] | None = typer.Option(None, help="Noise model (repeat for several; default: all)."),
    start_seed: int | None = typer.Option(
        None, help="First deal seed (default: the report seeds, which no tuning has seen)."
    ),
    name: str = typer.Option("correction", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Label accuracy before and after deck-constraint correction, on noisy labels of simulated rounds."""
    from bot.measure.correction import REPORT_START_SEED, measure
    from recognizers.noisy import NOISE_MODELS

    models = model or list(NOISE_MODELS)
    unknown = sorted(set(models) - set(NOISE_MODELS))
    if unknown:
        raise typer.BadParameter(
            f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(NOISE_MODELS)}", param_hint="--model"
        )
    first = REPORT_START_SEED if start_seed is None else start_seed
    run = start_run()
    emit(f"noisy:{rate:g} over {rounds} rounds (deal seeds {first}..{first + rounds - 1})")
    emit(f"{'noise model':<12} {'view':<22} {'cards':>7} {'before':>8} {'after':>8} {'rounds >= 99%':>14}")
    rows = []
    for each in models:
        for first_view, view in ((False, "whole round (40)"), (True, "first gamestate (20)")):
            result = measure(rounds, rate, each, first_view=first_view, start_seed=first)
            rows.append(
                {"model": each, "view": view, "cards": result.cards, "before": result.raw}
                | {"after": result.corrected, "rounds_99": result.round_share}
            )
            emit(
                f"{each:<12} {view:<22} {result.cards:>7} {result.raw:>8.2%} {result.corrected:>8.2%}"
                f" {result.round_share:>14.1%}"
            )
    seeds = {"deals": f"{first}..{first + rounds - 1}"}
    _save(ctx, name, {"rows": rows}, run, seeds=seeds, settings={"rounds": rounds, "rate": rate}, out=out, save=save)


@measure_app.command("local-recognizer")
def local_recognizer(
    ctx: typer.Context,
    seed: int | None = typer.Option(None, help="The referee's --seed (default: the reported one, not tuned on)."),
    test_matches: int = typer.Option(25, min=1, help="Matches whose 40 cards are the test set."),
    matches: int = typer.Option(100, min=1, help="Matches for the calls-saved measurement."),
    sweep: bool = typer.Option(False, help="Only precision/coverage per margin (a tuning aid)."),
    name: str = typer.Option("local-recognizer", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """The `local` recognizer on captionless cards of a referee: accuracy per gallery size, calls saved, time."""
    from bot.measure.local_recognizer import DEFAULT_SEED, measure_local

    chosen = DEFAULT_SEED if seed is None else seed
    run = start_run()
    figures = measure_local(chosen, test_matches, matches, sweep=sweep, emit=emit)
    settings = {"test_matches": test_matches, "matches": matches, "sweep": sweep}
    _save(ctx, name, figures, run, seeds={"referee": chosen}, settings=settings, out=out, save=save)


@measure_app.command()
def server(
    ctx: typer.Context,
    levels: str = typer.Option("1,10,50", help="Concurrent matches to measure, comma separated."),
    min_moves: int = typer.Option(600, min=1, help="Moves to time at each level (at least)."),
    client_processes: int = typer.Option(4, min=1, help="Processes the bots are spread over."),
    name: str = typer.Option("server", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Referee throughput and GM-MakeMove latency over loopback HTTP at several loads, against in-process work."""
    from bot.measure.server_load import server_load

    try:
        wanted = [int(level) for level in levels.split(",")]
    except ValueError:
        raise typer.BadParameter(f"a comma-separated list of numbers, got {levels!r}", param_hint="--levels") from None
    run = start_run()
    figures = server_load(wanted, min_moves, client_processes, emit)
    settings = {"levels": wanted, "min_moves": min_moves, "client_processes": client_processes}
    _save(
        ctx, name, figures, run, seeds={"random_moves": "wave * 1000 + client"}, settings=settings, out=out, save=save
    )


@measure_app.command("server-processes")
def server_processes(
    ctx: typer.Context,
    matches: int = typer.Option(50, min=1, help="Matches played at once."),
    clients: int = typer.Option(4, min=1, help="Client processes the bots are spread over."),
    min_moves: int = typer.Option(2000, min=1, help="Moves to time (at least)."),
    login_flood: float = typer.Option(0.0, min=0.0, help="Wrong-password logins per second meanwhile."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """GM-MakeMove latency with many matches at once, bots in separate processes, optionally under a login flood."""
    from bot.measure.server_processes import server_processes as measure_processes

    run = start_run()
    figures = measure_processes(matches, clients, min_moves, login_flood, emit)
    settings = {"matches": matches, "clients": clients, "min_moves": min_moves, "login_flood": login_flood}
    flood = f"-flood{login_flood:g}" if login_flood else ""
    _save(
        ctx,
        name or f"server-processes-{matches}{flood}",
        figures,
        run,
        seeds={"random_moves": "wave * clients + client"},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command("table-build")
def table_build(
    ctx: typer.Context,
    table: Path | None = typer.Option(
        None, help="Table file (default: RUMMY_VISION_TABLE or the user data directory)."
    ),
    name: str = typer.Option("table-build", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """The perfect-play table's build figures per layer, as the build recorded them in the table's header."""
    from bot.measure.table import build_figures
    from strategies.table import TableError

    run = start_run()
    try:
        figures = build_figures(table, emit)
    except (TableError, OSError) as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    _save(ctx, name, figures, run, seeds="none: a built table", settings={"table": str(table)}, out=out, save=save)


@measure_app.command("table-lookup")
def table_lookup(
    ctx: typer.Context,
    table: Path | None = typer.Option(
        None, help="Table file (default: RUMMY_VISION_TABLE or the user data directory)."
    ),
    positions: int = typer.Option(20, min=1, help="Look-ups timed, in fifties (20: 1000 positions)."),
    name: str = typer.Option("table-lookup", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Time reading exact values from the perfect-play table: one state's, and every move's."""
    from bot.measure.table import lookup
    from strategies.table import TableError

    run = start_run()
    try:
        figures = lookup(table, positions * 50, emit)
    except (TableError, OSError) as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    settings = {"table": str(table), "positions": positions * 50}
    _save(ctx, name, figures, run, seeds={"positions": 77}, settings=settings, out=out, save=save)


@measure_app.command("table-verify")
def table_verify(
    ctx: typer.Context,
    table: Path | None = typer.Option(
        None, help="Table file (default: RUMMY_VISION_TABLE or the user data directory)."
    ),
    samples: int = typer.Option(200, min=1, help="States a layer (as `rummy-vision solve --verify N`)."),
    seed: int = typer.Option(0, help="Seed of the sampled states."),
    name: str = typer.Option("table-verify", help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Check the built table against the independent solver (as `solve --verify`) and keep the result."""
    from bot.measure.table import verify_figures
    from strategies.table import TableError

    run = start_run()
    try:
        figures = verify_figures(table, samples, seed, emit)
    except (TableError, ValueError, OSError) as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    if save:
        settings = {"table": str(table), "samples": samples}
        path = write_result(
            name, figures, run=run, seeds={"states": seed}, settings=settings, folder=out, argv=command_line(ctx)
        )
        typer.echo(f"result written to {path}")
    if not figures["passed"]:
        raise typer.Exit(1)


@measure_app.command("table-solve")
def table_solve(
    ctx: typer.Context,
    objective: str = typer.Option("margin", help="margin or win."),
    turns: str = typer.Option("1-8", help="Turns left, e.g. 1-8 or 4,6,8."),
    positions: int = typer.Option(20, min=1, help="Positions per row."),
    seed: int = typer.Option(900, help="Positions of row T come from seed SEED + T."),
    method: str = typer.Option("auto", help="auto, or sorted: the sort-based solver."),
    table_top: int | None = typer.Option(
        None, min=1, help="margin: read the table's layers 1..N below the enumeration."
    ),
    limit_s: float = typer.Option(10.0, min=0.0, help="Stop once the median solve takes more CPU seconds than this."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help=OUT_HELP),
    save: bool = typer.Option(True, help=SAVE_HELP),
) -> None:
    """Time the kernel's on-demand exact solver by turns left (wall p50/p95, CPU, states enumerated)."""
    from bot.measure.sampling import parse_turns
    from bot.measure.table import solve_times
    from strategies.table import TableError

    if objective not in ("margin", "win"):
        raise typer.BadParameter(f"margin or win, got {objective!r}", param_hint="--objective")
    if method not in ("auto", "sorted"):
        raise typer.BadParameter(f"auto or sorted, got {method!r}", param_hint="--method")
    try:
        wanted = list(parse_turns(turns))
    except ValueError as error:
        raise _bad(error, "--turns") from None
    run = start_run()
    try:
        figures = solve_times(
            objective, wanted, positions, limit_s, method=method, table_top=table_top, seed=seed, emit=emit
        )
    except TableError as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    top = f"-top{table_top}" if table_top else ""
    settings = {"objective": objective, "turns": wanted, "positions": positions, "method": method}
    settings |= {"table_top": table_top, "limit_s": limit_s}
    _save(
        ctx,
        name or f"table-solve-{objective}-{method}{top}",
        figures,
        run,
        seeds={"positions": f"{seed}+turns left"},
        settings=settings,
        out=out,
        save=save,
    )
