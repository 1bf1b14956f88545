"""`rummy-vision check-recording FILE...`: replay recorded matches through the local rules, list divergences."""

# Imports inside functions: the command loads the replay and the rules' readings only when it runs, so that
# `rummy-vision --help` and the other commands do not.

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console


def register(app: typer.Typer) -> None:
    app.command(name="check-recording")(check_recording_command)


# Long: a Typer command: 37 of its lines declare its options; its body checks them and calls check_recording.
def check_recording_command(
    files: Annotated[list[Path], typer.Argument(help="Replay files written by `play` (JSON Lines).")],
    malformed_lay: Annotated[
        str, typer.Option(help="A Lay of the wrong size or naming a card not in the hand: refuse or waste.")
    ] = "refuse",
    draw_after_emptying: Annotated[
        bool, typer.Option("--draw-after-emptying", help="The mover draws even after a move that empties a hand.")
    ] = False,
    points_shown: Annotated[
        str, typer.Option(help="MyPoints during a round: sets (penalty at the end only) or net (sets minus 3 a card).")
    ] = "sets",
    my_score: Annotated[str, typer.Option(help="What MyScore counts: rounds (won) or points.")] = "rounds",
    match_decided: Annotated[
        str, typer.Option(help="Reading: the match is won by most rounds (rounds) or most total points (points).")
    ] = "rounds",
    tied_match: Annotated[
        str, typer.Option(help="Reading: equal rounds won make the match DRAWN (drawn), or total points decide.")
    ] = "drawn",
    remaining_rounds: Annotated[
        str,
        typer.Option(
            help="Reading: RemainingRounds counts the current round (with-current: 1 in the last round) or not"
            " (without-current)."
        ),
    ] = "with-current",
    draw: Annotated[
        str, typer.Option(help="Reading: the mover draws after its move (after) or as its turn starts (before).")
    ] = "after",
    all_readings: Annotated[
        bool,
        typer.Option(
            "--all-readings",
            help="Try every combination of the switches and readings: name those under which every file fits, or"
            " give the first divergence under each reading. Exit 0 when one fits.",
        ),
    ] = False,
) -> None:
    """Check recordings of games played online (or locally) against the local rules; exit 1 on any divergence.

    Each move the bot sent is replayed: its result, the hands, points, deck count, turns left, the end of
    the round, and the match's final score and status. The options switch the rules' open choices, so you
    can find the ones under which a recording has no divergence, then play locally by them.
    """
    from bot.replay.check_recording import Readings, check_recording
    from bot.replay.recording import ReplayError
    from rummy import RulesConfig

    out = Console()
    try:
        rules = RulesConfig.with_choices(
            malformed_lay=malformed_lay,
            draw_after_emptying=draw_after_emptying,
            points_shown=points_shown,
            my_score=my_score,
        )
        readings = Readings.named(match_decided, tied_match, remaining_rounds, draw)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    if all_readings:
        from bot.cli.check_readings import report_readings

        try:
            fits = report_readings(out, files)
        except (OSError, ReplayError, KeyError, TypeError, ValueError) as error:
            typer.echo(f"cannot be checked: {error}", err=True)
            raise typer.Exit(2) from None
        raise typer.Exit(0 if fits else 1)
    diverged = False
    for path in files:
        try:
            report = check_recording(path, rules, readings)
        except (OSError, ReplayError, KeyError, TypeError, ValueError) as error:
            typer.echo(f"{path}: cannot be checked: {error}", err=True)
            raise typer.Exit(2) from None
        diverged = _print_report(out, path, report) or diverged
    if diverged:
        raise typer.Exit(1)


def _print_report(out: Any, path: Path, report: Any) -> bool:
    """One file's result: what was checked and each divergence; True when it diverged."""
    notes = f"{report.moves_checked} moves checked"
    if report.unchecked_points:
        notes += f"; points of {report.unchecked_points} Lays not checked (cards without labels)"
    if report.skipped:
        notes += f"; {report.skipped} answers not recorded"
    if report.unchecked_status:
        notes += f"; the status not checked: {report.unchecked_status}"
    if not report.divergences:
        out.print(f"{path}: no divergence ({notes})", highlight=False, soft_wrap=True)
        return False
    out.print(f"{path}: {len(report.divergences)} divergences ({notes})", highlight=False, soft_wrap=True)
    for divergence in report.divergences:
        out.print(f"  {divergence.describe()}", highlight=False, soft_wrap=True)
    return True
