"""`rummy-vision play`: play matches on the local server or the online arena with a strategy or a bot file."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import logging
import os
import signal
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.logging import RichHandler

from bot.cli.recognize import TIER_HELP
from recognizers.registry import names_help
from rummy.terminal_text import escape
from strategies.registry import SPEC_HELP

# The width of `play`'s output when it goes to a file or a pipe (COLUMNS, when set, still decides).
PIPED_WIDTH = 200
GAME_TYPE_HELP = "Only list styles of this GameTypeId when choosing one (the local server's Rummy Vision is 15)."


def register(app: typer.Typer) -> None:
    app.command(name="play")(play)


# Long: a Typer command: 56 of its lines declare its options; its body parses them and calls _play.
def play(
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="The server's base URL, with or without /prod/ (default: config file, else http://127.0.0.1:8080/prod/).",
        ),
    ] = None,
    strategy: Annotated[str | None, typer.Option(help="Play one of our strategies: " + SPEC_HELP + ".")] = None,
    bot: Annotated[
        Path | None, typer.Option(help="Play a user's arena editor file defining calculate_move(gamestate).")
    ] = None,
    recognizer: Annotated[
        str | None,
        typer.Option(
            help="Recognizer for --strategy: "
            + names_help()
            + ". Default: oracle on a local referee (serve --oracle); on the arena, name one. One that cannot"
            " label live cards (stub, local with an empty gallery) is refused for a strategy that plays by labels."
        ),
    ] = None,
    tier: Annotated[str | None, typer.Option(help=TIER_HELP)] = None,
    nodes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Node budget per move for a search --strategy, instead of its time budget; the move's deadline "
            "still applies.",
        ),
    ] = None,
    game_style: Annotated[int | None, typer.Option(help="GameStyleId (default: the first free style).")] = None,
    game_type: Annotated[int | None, typer.Option(help=GAME_TYPE_HELP)] = None,
    opponent: Annotated[str | None, typer.Option(help="Play this bot, e.g. housebot-practise.")] = None,
    games: Annotated[int, typer.Option(min=1, help="Matches to play.")] = 1,
    forever: Annotated[bool, typer.Option("--forever", help="Keep offering games until Ctrl-C.")] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Send the bot's moves as they are, as the arena does: a malformed or illegal one is answered"
            " INVALID_MOVE and the bot asked again; with no valid move by the deadline it loses on time. Exits 1"
            " on any fault. Default: a safe move replaces a faulty one (the summary says how the arena would judge).",
        ),
    ] = False,
    record: Annotated[Path | None, typer.Option(help="Replay directory (default: user data dir/replays).")] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not write replay files.")] = False,
    bot_id: Annotated[str | None, typer.Option(help="Bot name (env RUMMY_VISION_BOT_ID, or config file).")] = None,
    password: Annotated[
        str | None, typer.Option(help="Bot password (env RUMMY_VISION_BOT_PASSWORD, or config file).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No status line or table; warnings only.")] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="JSON Lines on stdout: one per match, then a summary.")
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also log retries and protocol details.")] = False,
) -> None:
    """Offer games, play them with the bot under a deadline guard, record each match, show a summary."""

    from bot.client.config import ConfigError, redacting_filter, resolve_base_url, resolve_credentials
    from bot.client.protocol_client import ArenaClient
    from bot.client.runner import PlayOptions
    from bot.replay.recording import default_record_dir

    err = Console(stderr=True)
    _check_options(strategy, bot, recognizer, nodes, tier)
    try:
        credentials = resolve_credentials(bot_id, password)
        url = resolve_base_url(base_url)
    except ConfigError as error:
        err.print(f"[red]{escape(str(error))}[/]", soft_wrap=True, highlight=False)
        raise typer.Exit(2) from None
    _setup_logging(err, verbose=verbose, secret_filter=redacting_filter(credentials))
    match_bot = _match_bot(err, strategy, bot, recognizer, url, nodes)
    with ArenaClient(url, credentials) as client:
        style = _style(err, client, game_type, game_style)
        options = PlayOptions(
            game_style_id=style.style_id,
            opponent_id=opponent,
            games=None if forever else games,
            record_dir=None if no_record else (record or default_record_dir()),
            move_time_s=style.move_time_s,
            strict=strict,
        )
        _play(client, match_bot, options, err, quiet=quiet, json_output=json_output)


def _check_options(
    strategy: str | None, bot: Path | None, recognizer: str | None, nodes: int | None, tier: str | None
) -> None:
    """Refuse options that do not go together; a valid --tier is put in the environment."""
    if (strategy is None) == (bot is None):
        raise typer.BadParameter("give exactly one of --strategy NAME or --bot FILE.py")
    if bot is not None and recognizer is not None:
        raise typer.BadParameter("--recognizer is for --strategy; a bot file reads the gamestate itself")
    if bot is not None and nodes is not None:
        raise typer.BadParameter("--nodes is for --strategy; a bot file manages its own time")
    if tier is not None:
        from recognizers.tiers import TIER_ENV, parse_tier

        try:
            parse_tier(tier)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
        os.environ[TIER_ENV] = tier  # the recognizers built for each match read it, as they read the keys


def _match_bot(
    err: Any, strategy: str | None, bot: Path | None, recognizer: str | None, url: str, nodes: int | None
) -> Any:
    """The bot that plays: the bot file, or the strategy; exits 2 when it cannot be made."""
    from bot.players.match_bots import MatchBot, file_bot, strategy_bot
    from bot.players.user_bot import UserBotError

    try:
        # Exactly one of --bot and --strategy was given (checked by _check_options).
        match_bot: MatchBot = (
            file_bot(bot) if bot is not None else strategy_bot(strategy or "", recognizer, base_url=url, nodes=nodes)
        )
    except (UserBotError, ValueError, ImportError) as error:
        err.print(f"[red]{escape(str(error))}[/]", soft_wrap=True, highlight=False)
        raise typer.Exit(2) from None
    return match_bot


def _style(err: Any, client: Any, game_type: int | None, game_style: int | None) -> Any:
    """The game style to offer games in, from the server's list; exits 1 when there is none to choose."""
    from bot.client.protocol_client import ProtocolError
    from bot.client.runner import PlayError
    from bot.client.styles import StyleError, choose_style

    try:
        styles = client.game_styles(game_type)
        if styles.result != "SUCCESS":
            raise PlayError(f"could not list game styles: {styles.describe()}")
        return choose_style(styles, game_style)
    except (ProtocolError, PlayError, StyleError) as error:
        err.print(f"[red]{escape(str(error))}[/]", soft_wrap=True, highlight=False)
        raise typer.Exit(1) from None


def _play(client: Any, match_bot: Any, options: Any, err: Any, *, quiet: bool, json_output: bool) -> None:

    from bot.cli.play_interrupt import CtrlC
    from bot.cli.play_output import JsonLines, LiveStatus
    from bot.client.runner import Runner, SilentObserver

    out = Console()
    if not out.is_terminal and not os.environ.get("COLUMNS"):
        out = Console(width=PIPED_WIDTH)  # piped: Rich's 80 columns would cut the names in the table
    stop = threading.Event()
    json_lines = JsonLines() if json_output else None
    live = LiveStatus(err) if not (quiet or json_output) else None
    runner = Runner(client, match_bot, options, observer=json_lines or live or SilentObserver(), stop=stop)

    ctrl_c = CtrlC(runner, stop, err)
    previous = signal.signal(signal.SIGINT, ctrl_c) if threading.current_thread() is threading.main_thread() else None
    summaries, code = _run(runner, live, err, ctrl_c, previous)
    summaries = summaries or runner.finished
    _report(out, err, summaries, match_bot, options, json_lines=json_lines, quiet=quiet, faults=runner.faults)
    if not code and options.strict and any(summary.faults for summary in summaries):
        code = 1
    if code:
        raise typer.Exit(code)


def _run(runner: Any, live: Any, err: Any, ctrl_c: Any, previous: Any) -> tuple[list[Any], int]:
    """The matches' summaries and the exit code (0, 1 on an error, 130 on Ctrl-C); puts back the SIGINT handler."""

    from bot.client.protocol_client import ProtocolError
    from bot.client.runner import PlayError
    from rummy.terminal_text import escape

    summaries = []
    code = 0
    try:
        if live:
            with live:
                summaries = runner.run()
        else:
            summaries = runner.run()
    except KeyboardInterrupt:
        err.print("[yellow]stopped (a waiting game offer was cancelled)[/]")
        code = 130
    except (PlayError, ProtocolError) as error:
        err.print(f"[red]{escape(str(error))}[/]", soft_wrap=True, highlight=False)
        if "Check of OpponentId failed" in str(error):
            from server.house_agents import HOUSE_BOTS

            err.print(
                f"No bot of that name on this server. The local referee's house bots: {', '.join(HOUSE_BOTS)}"
                " (`rummy-vision bots list` shows the registered ones).",
                soft_wrap=True,
                highlight=False,
                markup=False,
            )
        code = 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        ctrl_c.flush()
    if ctrl_c.interrupted.is_set() and not code:
        err.print("[yellow]stopped by Ctrl-C[/]")
        code = 130
    return summaries, code


def _report(
    out: Any, err: Any, summaries: list[Any], match_bot: Any, options: Any, *, json_lines: Any, quiet: bool, faults: Any
) -> None:
    """The summary (a table, or the JSON Lines' last line), the notes and warnings."""
    from bot.cli.match_output import blindness_warning, contradiction_warning
    from bot.cli.play_output import arena_judgement, blindness, replay_lines, summary_table

    if json_lines:
        json_lines.summary(summaries, faults.to_json())
    elif not quiet and summaries:
        out.print(summary_table(summaries))
        for line in replay_lines(summaries):
            out.print(line, soft_wrap=True, highlight=False, markup=False)
    for index, summary in enumerate(summaries, start=1):
        if summary.opponent_note and not json_lines:  # its result is not the house bot's play
            err.print(
                f"note on #{index} (game {summary.game_id}): {summary.opponent_note}",
                style="yellow",
                soft_wrap=True,
                highlight=False,
                markup=False,
            )
    if summaries and not json_lines:
        warning = blindness_warning(match_bot.label, blindness(summaries))
        if warning:
            err.print(warning, style="yellow", soft_wrap=True, highlight=False, markup=False)
        note = next((summary.contradiction for summary in summaries if summary.contradicted), "")
        bent = contradiction_warning(match_bot.label, sum(summary.contradicted for summary in summaries), note)
        if bent:
            err.print(bent, style="yellow", soft_wrap=True, highlight=False, markup=False)
    judged = arena_judgement(summaries, strict=options.strict)
    if judged:
        err.print(judged, style="yellow", soft_wrap=True, highlight=False, markup=False)


def _setup_logging(console: Any, *, verbose: bool, secret_filter: logging.Filter) -> None:

    handler = RichHandler(console=console, show_path=False, rich_tracebacks=False)
    handler.addFilter(secret_filter)
    logger = logging.getLogger("bot")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
