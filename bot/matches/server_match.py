"""A match between two contenders played through a referee server, over the arena protocol.

Both contenders get fresh bot accounts through the local referee's admin API (the protocol has no call
that makes an account), then each runs the ordinary bot client in its own thread, offering games that
name the other as `OpponentId`. The rounds come back from the server's records API (`GET /games/{id}`),
the decision times from the clients' replay files, and the run that groups them for the viewer goes
back through the admin API: this module reaches the server over HTTP only.
"""

from __future__ import annotations

import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient
from bot.client.runner import MatchSummary, PlayOptions, Runner
from bot.matches.local_match import Contender, MoveRecord, RoundResult
from bot.matches.run_spec import RunSpec, round_labels
from bot.matches.server_admin import ServerAdmin
from bot.players.match_bots import file_bot, strategy_bot
from bot.replay.recording import read_replay
from rummy import bounded_json
from rummy.capped_http import RECORD_BYTES, capped_client

ONE_ROUND_STYLE = 1


THROWAWAY_ITERATIONS = 10_000  # accounts that live for one local match need no slow password hash


def register_players(admin: ServerAdmin, contenders: Sequence[Contender]) -> list[tuple[str, str]]:
    """Fresh (bot id, password) pairs; the passwords live only in this process."""
    run = secrets.token_hex(3)
    names = [f"match-{run}-{seat}-{contender.name}"[:60] for seat, contender in enumerate(contenders)]
    registered: list[tuple[str, str]] = []
    try:
        for name in names:
            registered.append((name, admin.add_bot(name, user=name, iterations=THROWAWAY_ITERATIONS)))
    except BaseException:
        remove_players(admin, registered)
        raise
    return registered


def remove_players(admin: ServerAdmin, accounts: Sequence[tuple[str, str]]) -> None:
    for name, _password in accounts:
        admin.remove_bot(name)


def play_over_server(
    base_url: str,
    contenders: tuple[Contender, Contender],
    rounds: int,
    *,
    admin: ServerAdmin | None,
    accounts: Sequence[tuple[str, str]] | None = None,
    keep_accounts: bool = True,
    game_style_id: int = ONE_ROUND_STYLE,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[RoundResult, int]]:
    """(round, seat of the first contender) for each of `rounds` one-round matches, in the order played.

    The contenders play as `accounts` (bot id, password) when given; otherwise as two fresh accounts made
    through `admin`, which are removed afterwards unless `keep_accounts` (their recorded matches stay)."""
    if accounts is not None:
        return _play(base_url, contenders, rounds, list(accounts), game_style_id, progress)
    if admin is None:
        raise ValueError("playing over a server needs two accounts or the server's admin API to make them")
    made = register_players(admin, contenders)
    try:
        return _play(base_url, contenders, rounds, made, game_style_id, progress)
    finally:
        if not keep_accounts:
            remove_players(admin, made)


def group_rounds(
    admin: ServerAdmin, played: Sequence[tuple[RoundResult, int]], names: tuple[str, str], run: RunSpec
) -> list[int]:
    """Rounds the server played and recorded itself: group them under a run through its admin API."""
    labels = round_labels([(result.deal_seed, names if seat == 0 else (names[1], names[0])) for result, seat in played])
    games = [(result.game_id, label) for (result, _seat), label in zip(played, labels) if result.game_id is not None]
    starts = [result.started_at for result, _ in played if result.started_at]
    if games:
        admin.add_run(run, games, min(starts, default=time.time()))
    return [game_id for game_id, _label in games]


def _play(
    base_url: str,
    contenders: tuple[Contender, Contender],
    rounds: int,
    accounts: list[tuple[str, str]],
    game_style_id: int,
    progress: Callable[[int], None] | None,
) -> list[tuple[RoundResult, int]]:
    replays = Path(tempfile.mkdtemp(prefix="rummy-vision-match-"))
    summaries: list[list[MatchSummary]] = [[], []]
    errors: list[BaseException] = []

    def play(seat: int) -> None:
        bot_id, password = accounts[seat]
        contender = contenders[seat]
        bot: Any = (
            file_bot(contender.spec)
            if contender.is_file
            else strategy_bot(contender.spec, contender.recognizer, base_url=base_url)
        )
        options = PlayOptions(
            game_style_id=game_style_id, opponent_id=accounts[1 - seat][0], games=rounds, record_dir=replays / str(seat)
        )
        try:
            with ArenaClient(base_url, Credentials(bot_id, password)) as client:
                runner = Runner(client, bot, options)
                summaries[seat] = runner.run()
        except BaseException as error:  # noqa: BLE001 - reported to the caller below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(seat,), daemon=True) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"a player stopped: {errors[0]}") from errors[0]
    names = {accounts[seat][0]: seat for seat in (0, 1)}
    think = {seat: _think_times(replays / str(seat)) for seat in (0, 1)}
    played = []
    with capped_client(RECORD_BYTES, whole_s=120.0, timeout=30) as http:
        for summary in summaries[0]:
            if summary.game_id is None:
                continue
            record = match_record(http, base_url, summary.game_id)
            played.append(_round_of(record, names, contenders, think))
            if progress:
                progress(1)
    return played


def match_record(http: httpx.Client, base_url: str, game_id: int) -> dict[str, Any]:
    """A finished match's full record from the server's records API, beside its protocol base (`.../prod/`)."""
    url = httpx.URL(base_url).join(f"../games/{game_id}")
    try:
        answer = http.get(url)
        record = bounded_json.loads(answer.content)
    except (httpx.HTTPError, ValueError) as error:
        raise RuntimeError(f"cannot read match {game_id} from {url}: {error}") from None
    if answer.status_code != 200 or not isinstance(record, dict) or "Rounds" not in record:
        said = record.get("ErrorMessage") if isinstance(record, dict) else None
        raise RuntimeError(
            f"the server has no finished record of match {game_id} at {url}: {said or answer.status_code}"
        )
    return record


def _think_times(directory: Path) -> dict[int, list[tuple[float, str]]]:
    """Per GameId, the (think ms, fault) of each move the client sent."""
    found: dict[int, list[tuple[float, str]]] = {}
    for path in sorted(directory.glob("*.jsonl")):
        lines = read_replay(path)
        header = lines[0]
        moves = [line for line in lines if line.get("type") == "move" and line.get("applied", True)]
        found[int(header["game_id"])] = [
            (float(line.get("think_ms") or 0.0), "" if line.get("source") == "bot" else str(line.get("reason")))
            for line in moves
        ]
    return found


def _round_of(
    record: dict[str, Any],
    names: dict[str, int],
    contenders: tuple[Contender, Contender],
    think: dict[int, dict[int, list[tuple[float, str]]]],
) -> tuple[RoundResult, int]:
    contender_at = [names[record["Players"][0]], names[record["Players"][1]]]  # seat -> contender index
    first_round = record["Rounds"][0]
    timing = {seat: iter(think[contender_at[seat]].get(record["GameId"], [])) for seat in (0, 1)}
    moves = []
    for move in record["Moves"]:
        if not move["Applied"]:
            continue
        think_ms, fault = next(timing[move["Seat"]], (0.0, ""))
        moves.append(MoveRecord(move["Seat"], move["Move"], think_ms, fault, 0, False))
    points = first_round["Points"]
    winner = first_round["Winner"]
    if winner is None:  # the match ended by timeout during the round
        winner = record["GameStatus"].index("WON_BY_TIMEOUT")
    result = RoundResult(
        deal_seed=str(record["Seed"]),
        players=(contenders[contender_at[0]].name, contenders[contender_at[1]].name),
        first_mover=first_round["FirstMover"],
        points=(points[0] or 0, points[1] or 0),
        winner=winner,
        moves=tuple(moves),
        kinds=tuple(first_round["Landmarks"]),
        started_at=float(first_round.get("StartedAt") or 0.0),
        game_id=int(record["GameId"]),
    )
    return result, contender_at.index(0)
