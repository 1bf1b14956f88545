"""The recipes of search and play: searcher benchmarks, node rates, the baseline bot, the curated suite,
and the starter templates (`python tools/measure.py search | node-rate | baseline-bot | suite | strong-template |
templates`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from bot.cli.measuring import NAME_HELP, SaveOption, bad, check_player, emit
from bot.templates import TEMPLATES
from tools.recipes.baseline_bot import FIRST_SEED, baseline_duel
from tools.recipes.node_rate import node_rate as rate_of
from tools.recipes.record import REPOSITORY
from tools.recipes.running import MEASUREMENTS, OutOption, run_recipe
from tools.recipes.search import report, search_figures
from tools.recipes.strong_template import strong_template as measure_strong
from tools.recipes.suite import build, write_suite
from tools.recipes.templates_table import templates_table

recipes = typer.Typer()


@recipes.command()
def search(
    ctx: typer.Context,
    positions: int = typer.Option(20, min=1, help="Positions (turns left 8-20) for the node counts."),
    depth: int = typer.Option(3, min=1, help="Search depth of the node counts, in turns."),
    decisions: int = typer.Option(40, min=1, help="Decisions timed at the default 1000 ms budget."),
    exact_max: int = typer.Option(5, min=1, help="Time the exact solver up to this many turns left."),
    seed: int = typer.Option(7, help="Seed of the position sets."),
    name: str = typer.Option("search", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Searcher figures: node counts per pruning variant, nodes per second, decision times, exact-solver times.

    Decision times depend on the machine and its load (the result records both).
    """

    def work() -> Any:
        figures = search_figures(positions, depth, decisions, exact_max, seed)
        for line in report(figures):
            emit(line)
        return figures

    settings = {"positions": positions, "depth": depth, "decisions": decisions, "exact_max": exact_max}
    seeds = {"node_counts": seed, "decisions": seed + 1, "exact": f"{seed + 101}..{seed + 100 + exact_max}"}
    run_recipe(ctx, name, work, seeds=seeds, settings=settings, out=out, save=save)


@recipes.command("node-rate")
def node_rate(
    ctx: typer.Context,
    players: list[str] = typer.Argument(..., help="Players as in `measure duel` (NAME:key=value,...)."),
    positions: int = typer.Option(40, min=1, help="Decisions measured (turns left 8-20)."),
    seed: int = typer.Option(4242, help="Seed of the position set."),
    time_ms: float = typer.Option(1000.0, min=1, help="The time budget to translate into nodes."),
    name: str = typer.Option("node-rate", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Nodes per CPU second of searchers: the node budget that equals a time budget on this machine, idle."""
    for spec in players:
        check_player(spec, "PLAYERS")

    def work() -> Any:
        rows = []
        for spec in players:
            try:
                rate, decisions = rate_of(spec, positions, seed)
            except ValueError as error:
                raise bad(error, "PLAYERS") from None
            budget = round(rate * time_ms / 1000, -3)
            rows.append({"player": spec, "nodes_per_cpu_second": rate, "decisions": decisions, "nodes_budget": budget})
            emit(
                f"{spec}: {rate:,.0f} nodes per CPU second over {decisions} searched decisions; "
                f"{time_ms:.0f} ms is about nodes={budget:.0f}"
            )
        return {"players": rows}

    settings = {"positions": positions, "time_ms": time_ms}
    run_recipe(ctx, name, work, seeds={"positions": seed}, settings=settings, out=out, save=save)


@recipes.command("baseline-bot")
def baseline_bot(
    ctx: typer.Context,
    player: str = typer.Option("heuristic", help="Our strategy, NAME or NAME:KEY=VALUE,..., to play against the bot."),
    deals: int = typer.Option(200, min=1, help="Duplicate deals (two rounds each)."),
    first_seed: int | None = typer.Option(None, help="First deal seed (default 70000)."),
    name: str = typer.Option("baseline-bot", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """A strategy against the 40-line "lay any set, else give the rarest card" bot (fixtures/strategies)."""
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
    run_recipe(ctx, name, work, seeds={"deals": [seed, seed + deals - 1]}, settings=settings, out=out, save=save)


@recipes.command()
def suite(
    ctx: typer.Context,
    positions: Path = typer.Option(
        REPOSITORY / "fixtures" / "strategies" / "positions.jsonl",
        help="Where the suite's positions go (one JSON a line).",
    ),
    count: int = typer.Option(24, min=1, help="Positions in the suite."),
    seed: int = typer.Option(2024, help="Seed of the decisions drawn."),
    name: str = typer.Option("suite", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Build the curated suite: endgames whose best move the exact solver finds by a clear gap, each commented."""

    def work() -> Any:
        built = build(count, seed)
        try:
            write_suite(built, positions)
        except OSError as error:
            raise bad(error, "--positions") from None
        emit(f"wrote {len(built)} positions to {positions}")
        objectives = [position["Objective"] for position in built]
        return {"file": str(positions), "positions": len(built)} | {
            objective: objectives.count(objective) for objective in sorted(set(objectives))
        }

    run_recipe(ctx, name, work, seeds={"decisions": seed}, settings={"count": count}, out=out, save=save)


@recipes.command("strong-template")
def strong_template(
    ctx: typer.Context,
    rounds: int = typer.Option(100, min=1, help="Duplicate rounds against greedy (two per deal, seats swapped)."),
    seed: str = typer.Option("strong-vs-greedy", help="Seed of the deals."),
    nodes: int = typer.Option(3000, min=1, help="The template's node budget per move in the win-rate rounds."),
    timing_rounds: int = typer.Option(20, min=1, help="Rounds timed under the template's own default budgets."),
    name: str = typer.Option("strong_template", help=NAME_HELP),
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """The `strong` starter template against `greedy` (true labels) and its time per move under its own budgets."""
    settings = {"rounds": rounds, "nodes": nodes, "timing_rounds": timing_rounds}
    seeds = {"deals": seed, "timing_deals": f"{seed}:timing"}
    run_recipe(
        ctx,
        name,
        lambda: measure_strong(rounds, seed, nodes, timing_rounds, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
    )


@recipes.command("templates")
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
    out: OutOption = MEASUREMENTS,
    save: SaveOption = True,
) -> None:
    """Every starter template against reference strategies over duplicate rounds (true labels).

    An opponent that cannot play here (perfect without its table) is left out, and the result says why.
    """
    chosen = [item.strip() for item in template.split(",") if item.strip()]
    unknown = sorted(set(chosen) - set(TEMPLATES))
    if unknown:
        raise typer.BadParameter(
            f"unknown template(s) {', '.join(unknown)}; choose from {', '.join(TEMPLATES)}", param_hint="--template"
        )
    separator = ";" if ";" in opponents else ","
    specs = [item.strip() for item in opponents.split(separator) if item.strip()]
    for spec in specs:
        check_player(spec, "--opponents")
    settings = {"templates": chosen, "opponents": specs, "rounds": rounds, "nodes": nodes}
    seeds = {"deals": f"{seed}:OPPONENT", "rule": "bot.matches.local_match.schedule (duplicate)"}
    run_recipe(
        ctx,
        name,
        lambda: templates_table(chosen, specs, rounds, seed, nodes, emit),
        seeds=seeds,
        settings=settings,
        out=out,
        save=save,
    )
