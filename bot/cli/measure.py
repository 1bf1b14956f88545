"""`rummy-vision measure NAME`: the measurements behind the figures of docs/ (bot.measure).

Every subcommand prints its figures and writes them, with the command line, commit, seeds, machine
and load, to `measurements/NAME.json` (`--name` to name the run, `--out` for another folder,
`--no-save` to only print).
"""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer

from bot.measure.record import DEFAULT_FOLDER, REPOSITORY, start_run, write_result

measure_app = typer.Typer(
    name="measure",
    help="Measurements behind the docs' figures (docs/); each writes its result to measurements/NAME.json.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)

NAME_HELP = "Run name: the result goes to OUT/NAME.json (default: named for the command and its players)."
OUT_HELP = "Folder for the result file."
SAVE_HELP = "Write the result file (--no-save only prints)."
# Every subcommand takes these two the same way.
OutOption = Annotated[Path, typer.Option(help=OUT_HELP)]
SaveOption = Annotated[bool, typer.Option(help=SAVE_HELP)]
TableOption = Annotated[
    Path | None, typer.Option(help="Table file (default: RUMMY_VISION_TABLE or the user data directory).")
]


def register(app: typer.Typer) -> None:
    app.add_typer(measure_app, name="measure")


def emit(line: str) -> None:
    typer.echo(line)


def _measure(
    ctx: typer.Context,
    name: str,
    work: Callable[[], Any],
    *,
    seeds: Any,
    settings: dict[str, Any],
    out: Path,
    save: bool,
    refused: tuple[type[Exception], ...] = (),
) -> Any:
    """Time `work`, then store the figures it returns; an error of a `refused` kind (a missing or foreign
    table, an unreadable file) ends the command with its own one line and exit code 2, nothing stored."""
    run = start_run()
    try:
        figures = work()
    except refused as error:
        typer.echo(f"{error}", err=True)
        raise typer.Exit(2) from None
    if not save:
        return figures
    try:
        path = write_result(name, figures, run=run, seeds=seeds, settings=settings, folder=out, argv=command_line(ctx))
    except (OSError, ValueError) as error:
        typer.echo(f"cannot write the result: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"result written to {path}")
    return figures


def _table_errors() -> tuple[type[Exception], ...]:
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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Searcher figures: node counts per pruning variant, nodes per second, decision times, exact-solver times.

    Decision times depend on the machine and its load (the result records both).
    """
    from bot.measure.search import report, search_figures

    def work() -> Any:
        figures = search_figures(positions, depth, decisions, exact_max, seed)
        for line in report(figures):
            emit(line)
        return figures

    settings = {"positions": positions, "depth": depth, "decisions": decisions, "exact_max": exact_max}
    seeds = {"node_counts": seed, "decisions": seed + 1, "exact": f"{seed + 101}..{seed + 100 + exact_max}"}
    _measure(ctx, name, work, seeds=seeds, settings=settings, out=out, save=save)


def _strategy_names(player: str, opponents: str) -> list[str]:
    """The comma-separated opponents, each (and the player) checked to be a strategy's name."""
    from strategies.registry import strategy_names

    names = [item.strip() for item in opponents.split(",") if item.strip()]
    for item in [player, *names]:
        if item not in strategy_names():
            raise typer.BadParameter(
                f"unknown strategy {item!r}; choose from {', '.join(strategy_names())}",
                param_hint="--player/--opponents",
            )
    return names


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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Duplicate-deal win rates of one strategy against several, with Wilson 95% intervals."""
    from bot.measure.strength import run_pair

    names = _strategy_names(player, opponents)
    deals = max(1, (rounds + 1) // 2)

    def work() -> Any:
        results = []
        for opponent in names:
            result = run_pair(
                player,
                opponent,
                deals,
                time_ms=time_ms,
                max_depth=max_depth,
                nodes=nodes,
                workers=workers,
                first_seed=seed,
            )
            results.append(asdict(result))
            emit(
                f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
                f"(95% CI {result.low:.3f}-{result.high:.3f}), mean margin {result.mean_margin:+.1f}, "
                f"{result.seconds:.0f} s"
            )
        return {"pairs": results}

    budget = f"-nodes{nodes}" if nodes else f"-{time_ms:g}ms" if time_ms else ""
    settings = {"player": player, "opponents": names, "rounds": rounds, "nodes": nodes, "time_ms": time_ms}
    settings |= {"max_depth": max_depth, "workers": workers}
    _measure(
        ctx,
        name or f"strength-{player}{budget}",
        work,
        seeds={"deals": f"{seed}..{seed + deals - 1}", "rule": "rummy.deals.make_deal"},
        settings=settings,
        out=out,
        save=save,
    )


def _noise_cost_lists(players: str, recognizers: str, opponents: str) -> tuple[list[str], list[str], list[str]]:
    """The comma-separated players, recognizers and opponents, each checked."""
    from bot.measure.noise_cost import SAME
    from recognizers.registry import get_recognizer

    chosen = [item.strip() for item in players.split(",") if item.strip()]
    labellers = [item.strip() for item in recognizers.split(",") if item.strip()]
    against = [item.strip() for item in opponents.split(",") if item.strip()]
    for item in chosen + [opponent for opponent in against if opponent != SAME]:
        _check_player(item, "--players/--opponents")
    for item in labellers:
        try:
            get_recognizer(item, source=dict)
        except (ValueError, OSError) as error:
            raise _bad(error, "--recognizers") from None
    return chosen, labellers, against


@measure_app.command("noise-cost")
def noise_cost(
    ctx: typer.Context,
    players: str = typer.Option(
        "perfect,expectimax:nodes=459000", help="Players measured, comma separated (each as in `match`)."
    ),
    recognizers: str = typer.Option(
        "noisy:0.1,noisy:0.2,harsh:0.05,harsh:0.1,harsh:0.2",
        help="The recognizers each player labels through, comma separated.",
    ),
    opponents: str = typer.Option(
        "same,greedy", help="Opponents with the true labels, comma separated; `same` is the player itself."
    ),
    rounds: int = typer.Option(1000, min=2, help="Rounds per row (two per deal, seats swapped)."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
    seed: str = typer.Option("noise", help="Seed of the deals (deal i is SEED:i)."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """What recognition errors cost: each player through each recognizer against an opponent with the true
    labels, on duplicate deals, through the card-level path of `match` (labels, belief, strategy)."""
    from bot.measure.noise_cost import noise_cost as measure_row

    chosen, labellers, against = _noise_cost_lists(players, recognizers, opponents)
    deals = max(1, (rounds + 1) // 2)

    def work() -> Any:
        rows = []
        for player in chosen:
            for opponent in against:
                for labeller in labellers:
                    row = measure_row(player, labeller, opponent, deals, seed=seed, workers=workers)
                    rows.append(asdict(row))
                    emit(
                        f"{player}@{labeller} vs {opponent}: {row.wins}/{row.rounds} = {row.rate:.1%} "
                        f"(95% CI {row.low:.1%}-{row.high:.1%}), margin {row.mean_margin:+.1f}, "
                        f"Lays refused {row.refused}/{row.lays} ({row.passes} meant as passes), "
                        f"{row.mean_move_ms:.0f} ms a move "
                        f"(p95 {row.p95_move_ms:.0f})" + (f", {row.asks} second opinions asked" if row.asks else "")
                    )
        return {"rows": rows}

    settings = {"players": chosen, "recognizers": labellers, "opponents": against, "rounds": rounds}
    settings |= {"workers": workers}
    _measure(
        ctx,
        name or "noise-cost",
        work,
        seeds={"deals": f"{seed}:0..{seed}:{deals - 1}", "noise": "seeded from each deal and seat"},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command("review-loss")
def review_loss(
    ctx: typer.Context,
    player_a: str = typer.Argument(..., metavar="A", help="A player as in `match` (PLAYER@RECOGNIZER too)."),
    player_b: str = typer.Argument(..., metavar="B", help="Its opponent."),
    rounds: int = typer.Option(20, min=2, help="Rounds (two per deal, seats swapped)."),
    seed: str = typer.Option("88", help="Seed of the deals, as `match --seed`."),
    objective: str = typer.Option("win", help="win or margin: what the review grades."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """What each player gives up, graded by `review` on every decision of a duplicate match played as `match`
    plays it (card level, through the recognizers and the belief), from both seats."""
    from bot.matches.local_match import contender_for
    from bot.measure.review_loss import review_loss as measure_losses

    if objective not in ("win", "margin"):
        raise typer.BadParameter("choose win or margin", param_hint="--objective")
    try:
        contenders = [contender_for(spec, None) for spec in (player_a, player_b)]
        for contender in contenders:
            contender.check()
    except (ValueError, OSError) as error:
        raise _bad(error, "A/B") from None

    def work() -> Any:
        losses, grader = measure_losses(contenders[0], contenders[1], rounds, seed, objective)
        for loss in losses:
            emit(
                f"{loss.player}: {loss.best_moves} of {loss.decisions} decisions the best, {objective} given up "
                f"{loss.total_loss:.6f} in all ({len(loss.rounds_with_loss)} rounds with a loss), {loss.exact} "
                f"exact, {loss.expected} valued as expectations"
            )
        return {"grader": grader, "players": [asdict(loss) for loss in losses]}

    _measure(
        ctx,
        name or f"review-loss-{player_a}-{player_b}-{objective}".replace("@", "-at-").replace(":", "-"),
        work,
        seeds={"deals": f"{seed}:0..{seed}:{(rounds + 1) // 2 - 1}", "rule": "bot.matches.local_match.schedule"},
        settings={"rounds": rounds, "objective": objective},
        out=out,
        save=save,
    )


def _luck_judge(luck: bool | None) -> Any:
    """What values the duel's decisions for the luck-adjusted figure: the whole win table's name, or None when
    it is not built (then --luck-adjusted exits 2); says which it is."""
    from bot.measure.luck import win_table_judge

    try:
        found = win_table_judge()
    except _table_errors() as error:  # a table that says it is whole but does not load
        typer.echo(f"cannot value the duel's decisions: {error}", err=True)
        raise typer.Exit(2) from None
    if found is None and luck:
        typer.echo(
            "--luck-adjusted needs the whole win table: run `rummy-vision solve` (2.73 GB, about 22 CPU minutes)",
            err=True,
        )
        raise typer.Exit(2)
    judge = None if found is None else found[1]
    emit(
        f"luck-adjusted figure from exact values of {judge}"
        if judge
        else "no luck-adjusted figure: the whole win table is not built (`rummy-vision solve` builds it: "
        "2.73 GB, about 22 CPU minutes)"
    )
    return judge


@measure_app.command()
def duel(
    ctx: typer.Context,
    player: str = typer.Argument(..., help="First player: NAME or NAME:key=value,... (e.g. expectimax:nodes=449000)."),
    opponent: str = typer.Argument(..., help="Second player, written the same way."),
    rounds: int = typer.Option(200, min=1, help="Rounds (two per deal, seats swapped)."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
    seed: int = typer.Option(0, help="First deal seed."),
    luck: bool | None = typer.Option(
        None,
        "--luck-adjusted/--no-luck-adjusted",
        help="Also value every decision from the whole win table and give the luck-adjusted expected win "
        "rate (default: when the whole win table is built).",
    ),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Duplicate-deal duel between two configured players; give searchers `nodes=N` to make it replayable.

    With the whole win table built, every decision is also valued exactly: the luck-adjusted figure is the
    first player's expected win rate with the deck's luck taken out (0.5 plus the P(win) its opponent gave
    up, minus its own, averaged over the two seatings), with a far narrower interval than the results'.
    """
    from bot.measure.duel import duel as play_duel

    _check_player(player, "PLAYER")
    _check_player(opponent, "OPPONENT")
    deals = max(1, (rounds + 1) // 2)
    judge = None if luck is False else _luck_judge(luck)

    def work() -> Any:
        result = play_duel(player, opponent, deals, workers=workers, first_seed=seed, tally=emit, judge=judge)
        emit(
            f"{result.player} vs {result.opponent}: {result.wins}/{result.rounds} = {result.rate:.3f} "
            f"(Wilson 95% {result.low:.3f}-{result.high:.3f}), mean margin {result.mean_margin:+.2f}, "
            f"{result.seconds:.0f} s"
        )
        adjusted = result.luck_adjusted
        if adjusted is not None:
            emit(
                f"luck-adjusted expected win rate {adjusted.rate:.4f} (95% {adjusted.low:.4f}-{adjusted.high:.4f}"
                f" over {adjusted.deals} deals); P(win) given up a round: {result.player} "
                f"{adjusted.player_regret:.4f}, {result.opponent} {adjusted.opponent_regret:.4f}"
            )
        return asdict(result)

    _measure(
        ctx,
        name or f"duel-{player}-vs-{opponent}",
        work,
        seeds={"deals": f"{seed}..{seed + deals - 1}", "rule": "rummy.deals.make_deal"},
        settings={"player": player, "opponent": opponent, "rounds": rounds, "workers": workers, "judge": judge},
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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Nodes per CPU second of searchers: the node budget that equals a time budget on this machine, idle."""
    from bot.measure.node_rate import node_rate as rate_of

    for spec in players:
        _check_player(spec, "PLAYERS")

    def work() -> Any:
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
        return {"players": rows}

    settings = {"positions": positions, "time_ms": time_ms}
    _measure(ctx, name, work, seeds={"positions": seed}, settings=settings, out=out, save=save)


@measure_app.command()
def calibrate(
    ctx: typer.Context,
    positions: int = typer.Option(40, min=1, help="Positions per number of turns left."),
    max_turns: int = typer.Option(6, min=1, help="Positions from 1 to this many turns left."),
    name: str = typer.Option("calibrate", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Fit the margin-to-win mapping on exact endgame values (needs the perfect-play table)."""
    from bot.measure.calibrate import CHECK_SEED, FIT_SEED
    from bot.measure.calibrate import calibrate as fit

    seeds = {"fit": f"{FIT_SEED}+turns", "held_out": f"{CHECK_SEED}+turns"}
    settings = {"positions": positions, "max_turns": max_turns}
    _measure(
        ctx,
        name,
        lambda: fit(positions, max_turns, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
        refused=_table_errors(),
    )


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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """How far strategies' moves are from perfect play, by turns left (regret in points against exact values)."""

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

    def work() -> Any:
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
                f"{stage['strategy']:10s} turns left {stage['turns_left']}: mean regret"
                f" {stage['mean_regret']:.2f} points, optimal {stage['optimal_share']:.1%}"
            )
        return {"rows": [asdict(row) for row in rows], "stages": by_stage}

    settings = {"turns": list(wanted), "per_turn": per_turn, "compare": compare, "weights": weights}
    _measure(ctx, name, work, seeds={"positions": seed}, settings=settings, out=out, save=save)


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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
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

    def work() -> Any:
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
        return {"rows": rows}

    seeds = {"deals": f"{first}..{first + rounds - 1}"}
    _measure(ctx, name, work, seeds=seeds, settings={"rounds": rounds, "rate": rate}, out=out, save=save)


@measure_app.command("local-recognizer")
def local_recognizer(
    ctx: typer.Context,
    seed: int | None = typer.Option(None, help="The referee's --seed (default: the reported one, not tuned on)."),
    test_matches: int = typer.Option(25, min=1, help="Matches whose cards in view are the test set."),
    matches: int = typer.Option(100, min=1, help="Matches for the calls-saved measurement."),
    sweep: bool = typer.Option(False, help="Only precision/coverage per margin (a tuning aid)."),
    name: str = typer.Option("local-recognizer", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """The `local` recognizer on captionless cards of a referee: accuracy per gallery size, calls saved, time."""
    from bot.measure.local_recognizer import DEFAULT_SEED, measure_local

    chosen = DEFAULT_SEED if seed is None else seed
    settings = {"test_matches": test_matches, "matches": matches, "sweep": sweep}
    _measure(
        ctx,
        name,
        lambda: measure_local(chosen, test_matches, matches, sweep=sweep, emit=emit),
        seeds={"referee": chosen},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command("local-unseen")
def local_unseen(
    ctx: typer.Context,
    seed: int | None = typer.Option(None, help="The referee's --seed (default: the reported one; 777 tuned it)."),
    test_matches: int = typer.Option(25, min=1, help="Matches whose cards in view are the test set."),
    name: str = typer.Option("local-unseen", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """The `local` recognizer's false accepts on landmarks absent from its gallery (half the catalog each way)."""
    from bot.measure.local_recognizer import UNSEEN_SEED, measure_unseen

    chosen = UNSEEN_SEED if seed is None else seed
    _measure(
        ctx,
        name,
        lambda: measure_unseen(chosen, test_matches, emit=emit),
        seeds={"referee": chosen, "tuning": 777},
        settings={"test_matches": test_matches},
        out=out,
        save=save,
    )


@measure_app.command("baseline-bot")
def baseline_bot(
    ctx: typer.Context,
    player: str = typer.Option("heuristic", help="Our strategy, NAME or NAME:KEY=VALUE,..., to play against the bot."),
    deals: int = typer.Option(200, min=1, help="Duplicate deals (two rounds each)."),
    first_seed: int | None = typer.Option(None, help="First deal seed (default 70000)."),
    name: str = typer.Option("baseline-bot", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """A strategy against the 40-line "lay any set, else give the rarest card" bot (fixtures/strategies)."""
    from bot.measure.baseline_bot import FIRST_SEED, baseline_duel

    seed = FIRST_SEED if first_seed is None else first_seed

    def work() -> Any:
        figures = baseline_duel(player, deals, seed)
        low, high = figures["wilson95"]
        emit(
            f"{player} vs {figures['opponent']}: {figures['won']}/{figures['rounds']} rounds won "
            f"({figures['win_rate']:.1%}, Wilson 95% {low:.1%}-{high:.1%}), mean margin {figures['mean_margin']:+.1f}"
        )
        return figures

    settings = {"player": player, "deals": deals}
    _measure(ctx, name, work, seeds={"deals": [seed, seed + deals - 1]}, settings=settings, out=out, save=save)


@measure_app.command()
def server(
    ctx: typer.Context,
    levels: str = typer.Option("1,10,50", help="Concurrent matches to measure, comma separated."),
    min_moves: int = typer.Option(600, min=1, help="Moves to time at each level (at least)."),
    client_processes: int = typer.Option(4, min=1, help="Processes the bots are spread over."),
    name: str = typer.Option("server", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Referee throughput and GM-MakeMove latency over loopback HTTP at several loads, against in-process work."""
    from bot.measure.server_load import server_load

    try:
        wanted = [int(level) for level in levels.split(",")]
    except ValueError:
        raise typer.BadParameter(f"a comma-separated list of numbers, got {levels!r}", param_hint="--levels") from None
    settings = {"levels": wanted, "min_moves": min_moves, "client_processes": client_processes}
    _measure(
        ctx,
        name,
        lambda: server_load(wanted, min_moves, client_processes, emit),
        seeds={"random_moves": "wave * 1000 + client"},
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command("viewer-load")
def viewer_load(
    ctx: typer.Context,
    repeats: int = typer.Option(5, min=1, max=10, help="Cold-browser visits per case (each a different step)."),
    seed: int = typer.Option(1, help="Seed of the two random bots' moves."),
    name: str = typer.Option("viewer-load-cases", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """A viewer step of 20 cards in a cold chromium (fresh profile) on loopback: time until every card shows,
    for a match the server dealt, after a restart, recorded by `match`, and drawn by nobody before."""
    from bot.measure.browser import BrowserMissing
    from bot.measure.viewer_load import CASES, MATCH_ROUNDS
    from bot.measure.viewer_load import viewer_load as measure_viewer

    _measure(
        ctx,
        name,
        lambda: measure_viewer(repeats, seed, emit),
        seeds={"random_moves": seed},
        settings={
            "repeats": repeats,
            "server": "in this process, 127.0.0.1",
            "viewport": "1280x900",
            "cases": list(CASES),
            "match": f"greedy vs random, {MATCH_ROUNDS} rounds",
        },
        out=out,
        save=save,
        refused=(BrowserMissing,),
    )


@measure_app.command("server-processes")
def server_processes(
    ctx: typer.Context,
    matches: int = typer.Option(50, min=1, help="Matches played at once."),
    clients: int = typer.Option(4, min=1, help="Client processes the bots are spread over."),
    min_moves: int = typer.Option(2000, min=1, help="Moves to time (at least)."),
    login_flood: float = typer.Option(0.0, min=0.0, help="Wrong-password logins per second meanwhile."),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """GM-MakeMove latency with many matches at once, bots in separate processes, optionally under a login flood."""
    from bot.measure.server_processes import server_processes as measure_processes

    settings = {"matches": matches, "clients": clients, "min_moves": min_moves, "login_flood": login_flood}
    flood = f"-flood{login_flood:g}" if login_flood else ""
    _measure(
        ctx,
        name or f"server-processes-{matches}{flood}",
        lambda: measure_processes(matches, clients, min_moves, login_flood, emit),
        seeds={"random_moves": "wave * clients + client"},
        settings=settings,
        out=out,
        save=save,
    )


OBJECTIVE_HELP = (
    "Which table: margin (RUMMY_VISION_TABLE) or win (RUMMY_VISION_WIN_TABLE, the one default `perfect` plays from)."
)


def _is_win(objective: str) -> bool:
    from strategies.search import Objective

    if objective not in {item.value for item in Objective}:
        raise typer.BadParameter(f"must be margin or win, got {objective!r}", param_hint="--objective")
    return Objective(objective) is Objective.WIN


@measure_app.command("table-build")
def table_build(
    ctx: typer.Context,
    table: TableOption = None,
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """A table's build figures per layer (time, CPU; for the win table its values and peak memory too), as
    the build recorded them in the table's header, and its size on disk."""
    from bot.measure.table import build_figures
    from bot.measure.win_table import win_build_figures

    win = _is_win(objective)
    figures = win_build_figures if win else build_figures
    _measure(
        ctx,
        name or ("win-table-build" if win else "table-build"),
        lambda: figures(table, emit),
        seeds="none: a built table",
        settings={"table": str(table), "objective": objective},
        out=out,
        save=save,
        refused=_table_errors(),
    )


@measure_app.command("table-lookup")
def table_lookup(
    ctx: typer.Context,
    table: TableOption = None,
    positions: int = typer.Option(
        20, min=1, help="Look-ups timed, in fifties (20: 1000 positions; with --objective win, per turns left)."
    ),
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Time reading exact values from a perfect-play table: one state's, and every move's (for the win
    table, by turns left)."""
    from bot.measure.table import lookup
    from bot.measure.win_table import LOOKUP_SEED, win_lookup

    win = _is_win(objective)
    settings = {"table": str(table), "positions": positions * 50, "objective": objective}
    _measure(
        ctx,
        name or ("win-table-lookup" if win else "table-lookup"),
        (lambda: win_lookup(table, positions * 50, emit)) if win else (lambda: lookup(table, positions * 50, emit)),
        seeds={"positions": f"{LOOKUP_SEED} + turns left"} if win else {"positions": 77},
        settings=settings,
        out=out,
        save=save,
        refused=_table_errors(),
    )


@measure_app.command("table-verify")
def table_verify(
    ctx: typer.Context,
    table: TableOption = None,
    samples: int = typer.Option(200, min=1, help="States a layer (as `rummy-vision solve --verify N`)."),
    seed: int = typer.Option(0, help="Seed of the sampled states."),
    objective: str = typer.Option("margin", help=OBJECTIVE_HELP),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Check a built table against the independent solver (as `solve --verify`) and keep the result: the
    margin table, or with --objective win the win table (states of each layer that a deal can reach, at
    several banked differences each)."""
    from bot.measure.table import verify_figures
    from bot.measure.win_table import win_verify_figures
    from strategies.table import TableError

    win = _is_win(objective)
    figures = _measure(
        ctx,
        name or ("win-table-verify" if win else "table-verify"),
        (lambda: win_verify_figures(table, samples, seed, emit))
        if win
        else (lambda: verify_figures(table, samples, seed, emit)),
        seeds={"states": seed},
        settings={"table": str(table), "samples": samples, "objective": objective},
        out=out,
        save=save,
        refused=(TableError, ValueError, OSError),
    )
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
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Time the kernel's on-demand exact solver by turns left (wall p50/p95, CPU, states enumerated)."""
    from bot.measure.sampling import parse_turns
    from bot.measure.table import solve_times

    if objective not in ("margin", "win"):
        raise typer.BadParameter(f"margin or win, got {objective!r}", param_hint="--objective")
    if method not in ("auto", "sorted"):
        raise typer.BadParameter(f"auto or sorted, got {method!r}", param_hint="--method")
    try:
        wanted = list(parse_turns(turns))
    except ValueError as error:
        raise _bad(error, "--turns") from None
    top = f"-top{table_top}" if table_top else ""
    settings = {"objective": objective, "turns": wanted, "positions": positions, "method": method}
    settings |= {"table_top": table_top, "limit_s": limit_s}
    _measure(
        ctx,
        name or f"table-solve-{objective}-{method}{top}",
        lambda: solve_times(
            objective, wanted, positions, limit_s, method=method, table_top=table_top, seed=seed, emit=emit
        ),
        seeds={"positions": f"{seed}+turns left"},
        settings=settings,
        out=out,
        save=save,
        refused=_table_errors(),
    )


@measure_app.command("win-count")
def win_count(
    ctx: typer.Context,
    workers: int = typer.Option(2, min=1, help="Threads of the swing-bound passes."),
    top: int | None = typer.Option(None, min=1, help="Count layers 1..TOP only (default: every layer)."),
    name: str = typer.Option("win_table_count", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Open (state, banked difference) pairs of an exact win table per layer, and its size per storage choice.

    Counted over every canonical state of the arena's rules, then within the laid-cards bound (the D
    the cards laid so far can make); both are upper bounds on what a deal can reach.
    """
    from bot.measure.win_count import count_pairs
    from rummy import DEFAULT_RULES

    def work() -> Any:
        figures = count_pairs(DEFAULT_RULES, workers=workers, top=top, emit=emit)
        layers = figures["layers"]
        states = sum(layer["states"] for layer in layers)
        for count, meaning in figures["counts"].items():
            emit(f"{sum(layer[count] for layer in layers):,} pairs over {states:,} states: {meaning}")
        return figures

    settings = {"workers": workers, "top": top, "rules": "the arena's (rummy.DEFAULT_RULES)"}
    _measure(ctx, name, work, seeds="none: every canonical state is counted", settings=settings, out=out, save=save)


@measure_app.command()
def lockout(
    ctx: typer.Context,
    duration_s: float = typer.Option(900.0, min=1.0, help="How long the attack runs, in seconds."),
    rate: float = typer.Option(1.0, min=0.01, help="Wrong-password logins per second."),
    name: str = typer.Option("lockout", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """A real `serve` and `play --forever` under a wrong-password attack on the player's BotId.

    Exits 1 (after storing the result) when the victim lost a match on time or its client stopped.
    """

    from bot.measure.lockout import measure, survived

    def work() -> Any:
        with tempfile.TemporaryDirectory(prefix="lockout-") as workdir:
            figures = measure(duration_s, rate, Path(workdir))
        emit(json.dumps(figures, indent=2))
        return figures

    seeds = "none: the server deals at random; the attack and the count do not depend on the deal"
    figures = _measure(
        ctx, name, work, seeds=seeds, settings={"duration_s": duration_s, "rate": rate}, out=out, save=save
    )
    if not survived(figures):
        typer.echo("the attack cost the victim a match or stopped its client", err=True)
        raise typer.Exit(1)


@measure_app.command()
def suite(
    ctx: typer.Context,
    positions: Path = typer.Option(
        REPOSITORY / "fixtures" / "strategies" / "positions.jsonl",
        help="Where the suite's positions go (one JSON a line).",
    ),
    count: int = typer.Option(24, min=1, help="Positions in the suite."),
    seed: int = typer.Option(2024, help="Seed of the decisions drawn."),
    name: str = typer.Option("suite", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Build the curated suite: endgames whose best move the exact solver finds by a clear gap, each commented."""
    from bot.measure.suite import build, write_suite

    def work() -> Any:
        built = build(count, seed)
        try:
            write_suite(built, positions)
        except OSError as error:
            raise _bad(error, "--positions") from None
        emit(f"wrote {len(built)} positions to {positions}")
        objectives = [position["Objective"] for position in built]
        return {"file": str(positions), "positions": len(built)} | {
            objective: objectives.count(objective) for objective in sorted(set(objectives))
        }

    _measure(ctx, name, work, seeds={"decisions": seed}, settings={"count": count}, out=out, save=save)


@measure_app.command("azure-pace")
def azure_pace(
    ctx: typer.Context,
    latency_ms: int = typer.Option(200, min=0, help="The fake endpoint's answer time per call, in ms."),
    budget_s: float = typer.Option(
        4.0,
        min=0.1,
        max=59.0,
        help="The free tier's time for a hand, in s: a 5 s move less the answer's margin. Below the rate "
        "limit's 60 s window, so a second match in the same minute still finds the calls spent.",
    ),
    name: str = typer.Option("azure_pace", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Azure labelling of a first hand of 20 unseen cards per tier, and the free tier's fallback to the local gallery.

    Against a fake Azure endpoint on loopback (no key, no internet); wall times depend on the machine's load.
    """
    from bot.measure.azure_pace import azure_pace as measure_pace

    seeds = "none: fixed card pictures (variants pace-ID) and fixed card ids"
    _measure(
        ctx,
        name,
        lambda: measure_pace(latency_ms, emit, budget_s),
        seeds=seeds,
        settings={"latency_ms": latency_ms, "budget_s": budget_s},
        out=out,
        save=save,
    )


@measure_app.command("strong-template")
def strong_template(
    ctx: typer.Context,
    rounds: int = typer.Option(100, min=1, help="Duplicate rounds against greedy (two per deal, seats swapped)."),
    seed: str = typer.Option("strong-vs-greedy", help="Seed of the deals."),
    nodes: int = typer.Option(3000, min=1, help="The template's node budget per move in the win-rate rounds."),
    timing_rounds: int = typer.Option(20, min=1, help="Rounds timed under the template's own default budgets."),
    name: str = typer.Option("strong_template", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """The `strong` starter template against `greedy` (true labels) and its time per move under its own budgets."""
    from bot.measure.strong_template import strong_template as measure_strong

    settings = {"rounds": rounds, "nodes": nodes, "timing_rounds": timing_rounds}
    seeds = {"deals": seed, "timing_deals": f"{seed}:timing"}
    _measure(
        ctx,
        name,
        lambda: measure_strong(rounds, seed, nodes, timing_rounds, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
    )


@measure_app.command("templates")
def templates(
    ctx: typer.Context,
    template: str = typer.Option("random,vision,customvision,strong", help="Starter templates, comma separated."),
    opponents: str = typer.Option(
        "greedy,expectimax:nodes=3000,perfect",
        help="Opponents as in `measure duel`, comma separated (';' when one takes several options).",
    ),
    rounds: int = typer.Option(1000, min=1, help="Duplicate rounds per pair (two per deal, seats swapped)."),
    seed: str = typer.Option("templates", help="Seed of the deals (each opponent gets SEED:OPPONENT)."),
    nodes: int = typer.Option(3000, min=1, help="The `strong` template's node budget per move."),
    name: str = typer.Option("templates", help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """Every starter template against reference strategies over duplicate rounds (true labels).

    An opponent that cannot play here (perfect without its table) is left out, and the result says why.
    """
    from bot.measure.templates_table import templates_table
    from bot.templates import TEMPLATES

    chosen = [item.strip() for item in template.split(",") if item.strip()]
    unknown = sorted(set(chosen) - set(TEMPLATES))
    if unknown:
        raise typer.BadParameter(
            f"unknown template(s) {', '.join(unknown)}; choose from {', '.join(TEMPLATES)}", param_hint="--template"
        )
    separator = ";" if ";" in opponents else ","
    specs = [item.strip() for item in opponents.split(separator) if item.strip()]
    for spec in specs:
        _check_player(spec, "--opponents")
    settings = {"templates": chosen, "opponents": specs, "rounds": rounds, "nodes": nodes}
    seeds = {"deals": f"{seed}:OPPONENT", "rule": "bot.matches.local_match.schedule (duplicate)"}
    _measure(
        ctx,
        name,
        lambda: templates_table(chosen, specs, rounds, seed, nodes, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
    )
