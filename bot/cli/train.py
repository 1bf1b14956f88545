"""`rummy-vision train`: TD(lambda) self-play with a progress bar, writing weights and a learning curve.

Only typer is imported at module level, so registering the command costs the CLI nothing; numpy and
the learner load when the command runs.
"""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console


def register(app: typer.Typer) -> None:
    app.command()(train)


def train(
    episodes: int = typer.Option(20000, min=1, help="Self-play rounds to learn from."),
    seed: int = typer.Option(0, help="Seed of everything random in training: the same seed gives the same weights."),
    out: Path = typer.Option(Path("training"), help="Folder for weights.npz, curve.csv and curve.png."),
    hidden: int = typer.Option(32, min=0, help="Hidden units of the value model (0: linear)."),
    alpha: float = typer.Option(0.003, min=0.0, help="Step size (in units of 50 points)."),
    alpha_decay: int = typer.Option(
        0, min=0, help="Step size falls as alpha*D/(D+episodes) with D this many episodes (0: constant)."
    ),
    lam: float = typer.Option(0.7, "--lambda", min=0.0, max=1.0, help="Trace decay lambda."),
    epsilon: float = typer.Option(0.05, min=0.0, max=1.0, help="Share of random exploratory moves."),
    opponent: str = typer.Option("heuristic", help="Fixed opponent the curve's win rate is measured against."),
    eval_every: int = typer.Option(
        1000, min=0, help="Measure the curve every this many episodes (0: only at the end)."
    ),
    eval_deals: int = typer.Option(100, min=1, help="Duplicate deals (two rounds each) per curve point."),
    positions: int = typer.Option(25, min=1, help="Solved positions per turns-left value (1-4) for the regret."),
) -> None:
    """Learn a value model by self-play (TD(lambda)) and write its weights and learning curve.

    The curve measures, every --eval-every episodes, the win rate against --opponent on the same
    duplicate deals and the mean regret (points lost per decision) against exact values on the same
    solved positions. Play with the result: `get_strategy("learned", weights="training/weights.npz")`.
    """

    from strategies.registry import strategy_names
    from strategies.training.learner import Evaluation, TrainSettings

    console = Console()
    if opponent not in strategy_names():
        raise typer.BadParameter(
            f"unknown strategy; choose one of {', '.join(strategy_names())}", param_hint="--opponent"
        )
    if alpha <= 0:
        raise typer.BadParameter("must be positive", param_hint="--alpha")
    settings = TrainSettings(
        episodes=episodes, seed=seed, hidden=hidden, alpha=alpha, alpha_decay=alpha_decay, lam=lam, epsilon=epsilon
    )
    with console.status("solving the regret positions exactly ..."):
        evaluation = Evaluation.build(
            settings.rules, opponent=opponent, deals=eval_deals, per_turn=positions, seed=seed
        )
    started = time.perf_counter()
    learner, curve = _train_with_progress(console, settings, evaluation, opponent, eval_every)
    wall = time.perf_counter() - started
    _write_and_report(console, learner, curve, out, opponent, seed, episodes, wall)


def _figures(opponent: str, point: Any) -> str:
    return (
        f"win rate vs {opponent} {point.win_rate:.1%} ({point.win_low:.0%}-{point.win_high:.0%}), "
        f"regret {point.mean_regret:.2f}"
    )


def _train_with_progress(
    console: Any, settings: Any, evaluation: Any, opponent: str, eval_every: int
) -> tuple[Any, list[Any]]:
    """Train under a progress bar that shows the curve's latest point; the learner and its curve."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from strategies.training.learner import CurvePoint, EpisodeStats
    from strategies.training.learner import train as run_training

    with Progress(
        TextColumn("[bold]training"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(
            "train", total=settings.episodes, status=f"win rate vs {opponent}: measuring episode 0"
        )

        def on_measure(point: CurvePoint) -> None:
            figures = _figures(opponent, point)
            progress.console.print(f"episode {point.episodes}: {figures}, optimal {point.optimal_share:.0%}")
            progress.update(task, status=figures)

        def on_episode(stats: EpisodeStats, point: CurvePoint | None) -> None:
            progress.advance(task)

        return run_training(
            settings, evaluation=evaluation, eval_every=eval_every, on_episode=on_episode, on_measure=on_measure
        )


def _write_and_report(
    console: Any, learner: Any, curve: list[Any], out: Path, opponent: str, seed: int, episodes: int, wall: float
) -> None:
    """Write the weights, the curve (CSV and plot), and say where they are and what they reached."""
    from strategies.training.curve import plot, write_csv

    # weights.npz is the checkpoint with the lowest regret on the curve's solved positions; the last one is
    # kept beside it, since later episodes need not be better.
    weights, last_weights = out / "weights.npz", out / "weights-last.npz"
    learner.best_model().save(weights)
    learner.model.save(last_weights)
    write_csv(curve, out / "curve.csv")
    plot(curve, out / "curve.png", opponent=opponent, title=f"TD(lambda) self-play, seed {seed}")
    last = curve[-1]
    best = learner.best.point if learner.best is not None else last
    console.print(
        f"{episodes} episodes in {learner.model.meta['training_seconds']:.0f} s of training "
        f"({wall:.0f} s with the curve's measurements); at the end: {_figures(opponent, last)} points, "
        f"optimal moves {last.optimal_share:.0%}"
    )
    console.print(
        f"weights: {weights} (episode {best.episodes}, the lowest regret on the curve: {best.mean_regret:.2f}; "
        f"chosen on the curve's own positions, so measure it on others)\n"
        f"last weights: {last_weights} (episode {last.episodes}, regret {last.mean_regret:.2f})\n"
        f"curve: {out / 'curve.csv'}, {out / 'curve.png'}",
        soft_wrap=True,
    )
