"""`rummy-vision serve` and `rummy-vision bots ...`: run the referee and manage its bots."""

from __future__ import annotations

import errno
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import typer
import typer.core
from rich.console import Console
from rich.table import Table

from rummy import RulesConfig
from rummy.terminal_text import escape
from server.accounts import AccountError, Accounts, BotStatus
from server.records_lock import RecordsInUse, RecordsLock
from server.settings import Settings, default_db_path
from server.storage.records import connect

# Imports inside functions: the CLI registers these commands at every start; `serve` loads the referee
# (fastapi, uvicorn, the card renderer, the vision service: about 0.8 s) only when it runs.

DB_HELP = "SQLite records file (default: the user data dir, rummy-vision/records.sqlite3)."


class _ServeCommand(typer.core.TyperCommand):
    """`serve`, where `--vision` may come without its RECOGNIZER: a bare `--vision` means `--vision oracle`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        given = list(args)
        for index, arg in enumerate(given):
            if arg == "--":
                break
            if arg == "--vision" and (index + 1 == len(given) or given[index + 1].startswith("-")):
                given.insert(index + 1, "oracle")
                break
        return super().parse_args(ctx, given)


def register(app: typer.Typer) -> None:
    app.command(cls=_ServeCommand)(serve)
    bots = typer.Typer(help="Register and manage the bots allowed to play on the local server.", no_args_is_help=True)
    bots.command("add")(bots_add)
    bots.command("set")(bots_set)
    bots.command("list")(bots_list)
    bots.command("password")(bots_password)
    bots.command("remove")(bots_remove)
    app.add_typer(bots, name="bots")


def _db(db: Path | None) -> Path:
    return db if db is not None else default_db_path()


# Long: a Typer command: 57 of its lines declare its options; its body checks them, builds Settings and serves.
def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
    port: int = typer.Option(8080, help="TCP port (0 picks a free one)."),
    db: Path | None = typer.Option(None, help=DB_HELP),
    images: Path | None = typer.Option(
        None, help="Serve real photos from IMAGES/LANDMARK/* (one folder per landmark name) instead of drawn cards."
    ),
    oracle: bool = typer.Option(False, help="Serve GET /oracle/labels/{GameId} (true labels, for local play)."),
    captions: bool = typer.Option(
        False,
        "--captions",
        help="Print the landmark's name on every drawn card, bots' cards included (demos, teaching). "
        "Without it only people's pages get names (/cards/TOKEN.png?caption=1).",
    ),
    move_time_ms: int | None = typer.Option(None, help="Replace every style's move time (ms)."),
    seed: int | None = typer.Option(None, help="Seed match deals (replayable); random otherwise."),
    log_level: str = typer.Option("info", help="uvicorn log level."),
    access_log: bool = typer.Option(
        False, "--access-log/--no-access-log", help="Log every HTTP request (one line each; off by default)."
    ),
    malformed_lay: str = typer.Option("refuse", help="Open choice: a malformed Lay is refused or wasted (waste)."),
    draw_after_emptying: bool = typer.Option(
        False, "--draw-after-emptying", help="Open choice: the mover draws even after emptying a hand."
    ),
    points_shown: str = typer.Option("sets", help="Open choice: MyPoints as set points (sets) or net of the -3s."),
    my_score: str = typer.Option("rounds", help="Open choice: MyScore counts rounds won (rounds) or points."),
    host_name: list[str] = typer.Option(
        [],
        "--host-name",
        help="A name this server is reached by, besides 127.0.0.1, localhost and --host (repeatable): requests"
        " naming any other host in their Host header are refused (DNS rebinding).",
    ),
    forwarded_allow_ips: str = typer.Option(
        "",
        "--forwarded-allow-ips",
        help="Comma-separated addresses (a proxy in front) whose X-Forwarded-For is believed; none by default,"
        " so no caller can claim another address.",
    ),
    vision: str | None = typer.Option(
        None,
        "--vision",
        metavar="[RECOGNIZER]",
        help="Also answer the starter templates' Azure Computer Vision and Custom Vision calls for this referee's"
        " cards, with the true landmark (`--vision` alone, or `--vision oracle`) or an error model (noisy:0.1,"
        " harsh:0.1): the"
        " templates then play with labels offline. It prints the environment to give them.",
    ),
    vision_key: str = typer.Option(
        "rummy-vision-local-key", help="The key the --vision service accepts (a wrong one gets Azure's 401)."
    ),
    admin_remote: bool = typer.Option(
        False,
        "--admin-remote",
        help="Accept admin calls (/admin: bot accounts, runs) from other machines too, with the token from"
        " RECORDS.admin-token; by default only this machine's may make them.",
    ),
) -> None:
    """Run the local referee: the arena's REST protocol at http://HOST:PORT/prod/, docs at /docs.

    The open-choice options play by another reading of the arena's help (see `check-recording`).
    """
    err = Console(stderr=True, highlight=False)
    rules = _rules(malformed_lay, draw_after_emptying, points_shown, my_score)
    vision = _checked_vision(vision)
    if images is not None and not images.is_dir():
        raise typer.BadParameter(f"{images} is not a directory", param_hint="--images")
    # Take the port before anything else, so a port in use costs one line and leaves no --db file behind.
    try:
        listening = _listen(host, port)
    except OSError as error:
        err.print(f"[red]Cannot listen on {host}:{port}: {_socket_reason(error)}[/]", soft_wrap=True)
        raise typer.Exit(1) from None
    port = listening.getsockname()[1]
    settings = Settings(
        db_path=_db(db),
        images_dir=images,
        oracle=oracle,
        captions=captions,
        move_time_ms=move_time_ms,
        seed=seed,
        rules=rules,
        admin_remote=admin_remote,
        host_names=(host, *host_name),
        forwarded_allow_ips=forwarded_allow_ips,
        vision=vision,
        vision_key=vision_key,
    )
    _serve_locked(err, settings, listening, host=host, port=port, log_level=log_level, access_log=access_log)


def _serve_locked(
    err: Any, settings: Any, listening: socket.socket, *, host: str, port: int, log_level: str, access_log: bool
) -> None:
    """Serve the app on the listening socket, holding the records' lock (exits 1 when another server holds it)."""
    from server.app import create_app
    from server.serving import serve_app

    try:
        records_lock = RecordsLock(settings.db_path, port)
    except RecordsInUse as error:
        listening.close()
        err.print(f"[red]Cannot serve: {error}[/]", soft_wrap=True)
        raise typer.Exit(1) from None
    with records_lock:
        from server.cards import drawing_process

        # The card drawing process starts beside the app's start-up, not at the first page's pictures.
        threading.Thread(target=drawing_process.start, name="start-card-drawing", daemon=True).start()
        from server.play.views import warm

        # The strategies' tables load now, not in the first /play visitor's request.
        threading.Thread(target=warm, name="build-strategies", daemon=True).start()
        # The app (and so the admin token beside the records) exists before the server says where it listens.
        app = create_app(settings)
        _print_where(err, f"http://{host}:{port}", settings)
        try:
            serve_app(app, host=host, port=port, log_level=log_level, sockets=[listening], access_log=access_log)
        finally:
            drawing_process.stop()


def _rules(malformed_lay: str, draw_after_emptying: bool, points_shown: str, my_score: str) -> Any:
    """The rules with the open choices as given."""
    try:
        return RulesConfig.with_choices(
            malformed_lay=malformed_lay,
            draw_after_emptying=draw_after_emptying,
            points_shown=points_shown,
            my_score=my_score,
        )
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


def _checked_vision(vision: str | None) -> str | None:
    """--vision's recognizer, checked (None without --vision)."""
    if vision is None:
        return None
    from server.vision import check_spec

    try:
        return check_spec(vision)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--vision") from None


def _print_where(err: Any, base: str, settings: Any) -> None:
    """Where the referee listens and keeps its records, and (with --vision) how to point the templates at it."""
    err.print(
        f"Rummy Vision referee on {base}/prod/, records in {settings.db_path}"
        + (", oracle on" if settings.oracle else "")
        + (", captioned cards" if settings.captions else ""),
        soft_wrap=True,
    )
    err.print(
        f"  replays and results: {base}/viewer   play yourself: {base}/play   API docs: {base}/docs",
        soft_wrap=True,
    )
    if settings.vision is not None:
        from server.vision import how_to_point_bots

        err.print(f"  vision service ({settings.vision}) for the starter templates: run them with", soft_wrap=True)
        err.print("    " + " ".join(how_to_point_bots(base, settings.vision_key)), soft_wrap=True)


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on HOST:PORT, set up as uvicorn sets up its own."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(2048)
    except OSError:
        listening.close()
        raise
    listening.set_inheritable(True)
    return listening


def _socket_reason(error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return "in use (another server running? choose another --port)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "no such address on this machine (try --host 127.0.0.1)"
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges)"
    return error.strerror or str(error)


def bots_add(
    name: str = typer.Argument(..., help="The bot's BotId."),
    user: str | None = typer.Option(None, help="Owner, for DontPlayAgainstSameUser (default: the name)."),
    balance: int = typer.Option(1000, help="Starting balance for staked styles."),
    db: Path | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Register a bot and print its password (only once: the server keeps a salted hash)."""
    connection = connect(_db(db))
    try:
        password = Accounts(connection).add_bot(name, user=user, balance=balance)
    except AccountError as error:
        raise typer.BadParameter(str(error), param_hint="--balance" if "balance" in str(error) else "NAME") from None
    finally:
        connection.close()
    console = Console()
    console.print(
        f"Registered bot [bold]{escape(name.strip())}[/bold]. Its BotPassword (shown only now):", highlight=False
    )
    print(password)


def bots_set(
    name: str = typer.Argument(..., help="The bot's BotId."),
    status: str | None = typer.Option(None, help="active, suspended or inactive."),
    balance: int | None = typer.Option(None, help="New balance."),
    db: Path | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Change a bot's status (suspended/inactive bots cannot offer games) or balance."""
    chosen = None
    if status is not None:
        try:
            chosen = BotStatus(status.upper())
        except ValueError:
            raise typer.BadParameter("choose active, suspended or inactive", param_hint="--status") from None
    connection = connect(_db(db))
    try:
        bot = Accounts(connection).set_bot(name, status=chosen, balance=balance)
    except AccountError as error:
        raise typer.BadParameter(str(error), param_hint="--balance" if "balance" in str(error) else "NAME") from None
    finally:
        connection.close()
    print(f"{bot.name}: user {bot.user}, {bot.status.value}, balance {bot.balance}")


def bots_list(db: Path | None = typer.Option(None, help=DB_HELP)) -> None:
    """List registered bots (never passwords)."""
    connection = connect(_db(db))
    try:
        bots = Accounts(connection).all()
    finally:
        connection.close()
    table = Table("bot", "user", "status", "balance")
    for bot in bots:
        table.add_row(escape(bot.name), escape(bot.user), bot.status.value, str(bot.balance))
    Console().print(table)


def bots_password(
    name: str = typer.Argument(..., help="The bot's BotId."),
    db: Path | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Give a bot a new password and print it (only once); the old one stops working."""
    connection = connect(_db(db))
    try:
        password = Accounts(connection).new_password(name)
    except AccountError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    finally:
        connection.close()
    print(f"New BotPassword of {name} (shown only now):", file=sys.stderr)
    print(password)


def bots_remove(
    name: str = typer.Argument(..., help="The bot's BotId."),
    db: Path | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Remove a bot: it can no longer log in. Its recorded matches stay in the records file."""
    connection = connect(_db(db))
    try:
        Accounts(connection).remove_bot(name)
    except AccountError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    finally:
        connection.close()
    print(f"Removed bot {name}; its recorded matches stay.")
