"""`rummy-vision measure NAME`: measure your own bots and recognizers (bot.measure).

Strength and duels on duplicate deals, what recognition errors cost, what a player gives up by the
review, regret against exact values, and recognizers' accuracy. Every subcommand prints its figures and
writes them, with the command line, seeds, machine and load, the package's version and (run inside a
git checkout) its commit, to `measurements/NAME.json` under the current directory (`--name` to name the
run, `--out` for another folder, `--no-save` to only print). The recipes behind this repository's own
figures (table and server timings, the starter templates, ...) are not installed: `python
tools/measure.py` in a checkout.
"""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer

from bot.cli import measure_errors
from bot.cli.measure_rows import measure_rows
from bot.cli.measuring import (
    NAME_HELP,
    SaveOption,
    bad,
    check_player,
    emit,
    measure_run,
    spec_list,
    table_errors,
)
from bot.measure.record import DEFAULT_FOLDER

measure_app = typer.Typer(
    name="measure",
    help="Measure your own bots and recognizers; each run writes its result to measurements/NAME.json under "
    "the current directory (--out for another folder).",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)

OUT_HELP = "Folder for the result file (a relative one is under the current directory)."
# Every subcommand takes --out the same way; the recipes in tools/ default it to the repository instead.
OutOption = Annotated[Path, typer.Option(help=OUT_HELP)]


def register(app: typer.Typer) -> None:
    app.add_typer(measure_app, name="measure")


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
    measure_run(
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

    chosen, labellers, against = (spec_list(text) for text in (players, recognizers, opponents))
    for item in chosen + [opponent for opponent in against if opponent != SAME]:
        check_player(item, "--players/--opponents")
    for item in labellers:
        try:
            get_recognizer(item, source=dict)
        except (ValueError, OSError) as error:
            raise bad(error, "--recognizers") from None
    return chosen, labellers, against


def _noise_cost_line(row: Any) -> str:
    told = {"own": " (told its own hand)", "opp": " (told its opponent's hand)"}.get(row.reveal, "")
    return (
        f"{row.player}@{row.recognizer}{told} vs {row.opponent}: {row.wins}/{row.rounds} = {row.rate:.1%} "
        f"(95% CI {row.low:.1%}-{row.high:.1%}), margin {row.mean_margin:+.1f}, "
        f"Lays refused {row.refused}/{row.lays} ({row.passes} meant as passes; {row.expected_refused:.0f} expected), "
        f"{row.mean_move_ms:.0f} ms a move "
        f"(p95 {row.p95_move_ms:.0f})" + (f", {row.asks} second opinions asked" if row.asks else "")
    )


@measure_app.command("noise-cost")
def noise_cost(
    ctx: typer.Context,
    players: str = typer.Option(
        "perfect,expectimax:nodes=459000",
        help="Players measured, comma separated (each as in `match`; `perfect:doubt=0.1,learn=true` is one).",
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
    reveal: str = typer.Option(
        "",
        help="A diagnostic, not play: tell each measured player the true landmark of every card in its own "
        "hand (own) or in its opponent's (opp), to show which hand's misread cards cost.",
    ),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: OutOption = DEFAULT_FOLDER,
    save: SaveOption = True,
) -> None:
    """What recognition errors cost: each player through each recognizer against an opponent with the true
    labels, on duplicate deals, through the card-level path of `match` (labels, belief, strategy)."""
    from bot.matches.local_match import REVEALED_HANDS
    from bot.measure.noise_cost import noise_cost as measure_row

    chosen, labellers, against = _noise_cost_lists(players, recognizers, opponents)
    if reveal and reveal not in REVEALED_HANDS:
        hands = " or ".join(REVEALED_HANDS)
        raise typer.BadParameter(f"choose {hands} (or leave it out), not {reveal!r}", param_hint="--reveal")
    deals = max(1, (rounds + 1) // 2)

    plans = [(player, labeller, opponent) for player in chosen for opponent in against for labeller in labellers]

    def work(keep: Callable[[Any], Path | None]) -> Any:
        def row(plan: tuple[str, str, str], progress: Any) -> Any:
            return measure_row(*plan, deals, seed=seed, workers=workers, reveal=reveal, progress=progress)

        label = "{0}@{1} against {2}".format
        return measure_rows(
            plans, row, label=lambda plan: label(*plan), line=_noise_cost_line, keep=keep, rounds=2 * deals
        )

    settings = {"players": chosen, "recognizers": labellers, "opponents": against, "rounds": rounds}
    settings |= {"workers": workers} | ({"reveal": reveal} if reveal else {})
    measure_run(
        ctx,
        name or "noise-cost",
        work,
        seeds={"deals": f"{seed}:0..{seed}:{deals - 1}", "noise": "seeded from each deal and seat"},
        settings=settings,
        out=out,
        save=save,
        keeps=True,
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
        raise bad(error, "A/B") from None

    def work() -> Any:
        losses, grader = measure_losses(contenders[0], contenders[1], rounds, seed, objective)
        for loss in losses:
            emit(
                f"{loss.player}: {loss.best_moves} of {loss.decisions} decisions the best, {objective} given up "
                f"{loss.total_loss:.6f} in all ({len(loss.rounds_with_loss)} rounds with a loss), {loss.exact} "
                f"exact, {loss.expected} valued as expectations"
            )
        return {"grader": grader, "players": [asdict(loss) for loss in losses]}

    measure_run(
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
    except table_errors() as error:  # a table that says it is whole but does not load
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

    check_player(player, "PLAYER")
    check_player(opponent, "OPPONENT")
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

    measure_run(
        ctx,
        name or f"duel-{player}-vs-{opponent}",
        work,
        seeds={"deals": f"{seed}..{seed + deals - 1}", "rule": "rummy.deals.make_deal"},
        settings={"player": player, "opponent": opponent, "rounds": rounds, "workers": workers, "judge": judge},
        out=out,
        save=save,
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
        raise bad(error, "--turns") from None
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
            raise bad(error, "--compare") from None
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
    measure_run(ctx, name, work, seeds={"positions": seed}, settings=settings, out=out, save=save)


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
    measure_run(ctx, name, work, seeds=seeds, settings={"rounds": rounds, "rate": rate}, out=out, save=save)


measure_errors.add_to(measure_app)


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
    measure_run(
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
    measure_run(
        ctx,
        name,
        lambda: measure_unseen(chosen, test_matches, emit=emit),
        seeds={"referee": chosen, "tuning": 777},
        settings={"test_matches": test_matches},
        out=out,
        save=save,
    )
