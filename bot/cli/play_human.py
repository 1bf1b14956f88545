"""`rummy-vision play-human`: play a house bot or a character yourself, in the terminal."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console


def register(app: typer.Typer) -> None:
    app.command(name="play-human")(play_human)


def _opponent_name(opponent: str) -> str:
    return opponent if opponent.startswith("housebot-") else f"housebot-{opponent}"


def _referee_in_process(console: Any, db: Path | None) -> tuple[Any, Any, Path]:
    """A referee in this process on DB (default: play's own records file), holding the records' lock."""
    from server.embedded import EmbeddedServer
    from server.records_lock import RecordsInUse, RecordsLock
    from server.settings import Settings

    own_db = db if db is not None else own_records_path()
    try:
        records_lock = RecordsLock(own_db)
    except RecordsInUse as error:
        console.print(f"[red]{error}[/red]", soft_wrap=True)
        raise typer.Exit(1) from None
    embedded = EmbeddedServer(Settings(db_path=own_db))
    records_lock.announce(int(embedded.base.rsplit(":", 1)[-1]))
    console.print(f"Playing on a referee in this process, recording to {own_db}.", soft_wrap=True)
    return embedded, records_lock, own_db


# Long: a Typer command: 31 of its lines declare its options; its body picks the referee and hands over to TerminalGame.
def play_human(
    opponent: Annotated[
        str,
        typer.Option(help="easy, medium, hard, perfect, practise, greedy or expert (a house bot's name works too)."),
    ] = "medium",
    style: Annotated[
        int, typer.Option(help="GameStyleId: 5 is one round with 120 s a move, 6 three rounds, 7 no limit.")
    ] = 5,
    coach: Annotated[
        str | None,
        typer.Option(
            help="The coach's strategy for hints and the review. Default: perfect once "
            "`rummy-vision solve --margin-only` has built its table (1.1 GB, a few CPU minutes), else expectimax."
        ),
    ] = None,
    objective: Annotated[
        str, typer.Option(help="The coach's values: win (chance to win the round) or margin (expected final points).")
    ] = "win",
    name: Annotated[str, typer.Option(help="The name your games are recorded under.")] = "human",
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="A running referee (http://host:port). Default: the local `serve` at port 8080 if it answers, "
            "else a referee in this process.",
        ),
    ] = None,
    db: Annotated[
        Path | None, typer.Option("--db", help="Play on a referee in this process that records to this file.")
    ] = None,
) -> None:
    """Play a match against a bot yourself: landmark names instead of pictures, a coach (hint), a review at the end.

    Your seat plays through the referee under the style's deadline; the viewer and `replay` show the match.
    """

    from bot.client.play_human import PlayApi, PlayApiError, TerminalGame

    console = Console()
    embedded = None
    if base_url is None and db is None and _answers(LOCAL_SERVE):
        # A second referee on the same records file would mark the running one's matches ABORTED at start.
        base_url = LOCAL_SERVE
        console.print(f"Playing on the referee at {LOCAL_SERVE}.")
    records_lock = None
    own_db: Path | None = None
    if base_url is None:
        embedded, records_lock, own_db = _referee_in_process(console, db)
        base_url = embedded.base
    api = PlayApi(base_url.removesuffix("/prod/").removesuffix("/prod"))
    try:
        # With a referee of its own, the links work once `rummy-vision serve` runs on the same records file.
        viewer_base = base_url.rstrip("/") if embedded is None else LOCAL_SERVE
        game = TerminalGame(
            api,
            console,
            console.input,
            viewer_base=viewer_base,
            own_server=embedded is not None,
            records_file="" if own_db is None else str(own_db),
        )
        game.play(_opponent_name(opponent), style, coach, name, objective)
    except PlayApiError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(1) from None
    except httpx_errors() as error:
        console.print(f"[red]cannot reach the referee at {base_url}: {error}[/red]")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("Interrupted: you left the match.")
        raise typer.Exit(130) from None
    finally:
        api.close()
        if embedded is not None:
            embedded.stop()
        if records_lock is not None:
            records_lock.release()


LOCAL_SERVE = "http://127.0.0.1:8080"


def own_records_path() -> Path:
    """play-human's own records file, beside `serve`'s: its referee never shares a file with a running `serve`."""
    from server.settings import default_db_path

    return default_db_path().with_name("play-human.sqlite3")


def _answers(base: str) -> bool:
    import httpx

    try:
        return httpx.get(base + "/play/api/options", timeout=1.0).status_code == 200
    except httpx.HTTPError:
        return False


def httpx_errors() -> type[Exception]:
    import httpx

    return httpx.TransportError
