"""A match between two contenders played through a referee server, over the arena protocol.

Both contenders get fresh bot accounts in the server's database (so this works with a local server
whose records file is reachable), then each runs the ordinary bot client in its own thread,
offering games that name the other as `OpponentId`. The rounds come back from the server's records,
the decision times from the clients' replay files. The accounts are removed afterwards (their
passwords lived only in this process), and without `keep_records` so are the matches the server
recorded.
"""

from __future__ import annotations

import secrets
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient
from bot.client.runner import MatchSummary, PlayOptions, Runner
from bot.matches.local_match import Contender, MoveRecord, RoundResult
from bot.players.match_bots import file_bot, strategy_bot
from bot.replay.recording import read_replay
from rummy.records import Records, connect
from server.accounts import Accounts

ONE_ROUND_STYLE = 1


def register_players(db: Path, contenders: Sequence[Contender]) -> list[tuple[str, str]]:
    """Fresh (bot id, password) pairs; the passwords live only in this process."""
    connection = connect(db)
    try:
        accounts = Accounts(connection)
        run = secrets.token_hex(3)
        return [
            (name, accounts.add_bot(name, user=name, iterations=10_000))
            for name in (f"match-{run}-{seat}-{contender.name}"[:60] for seat, contender in enumerate(contenders))
        ]
    finally:
        connection.close()


def play_over_server(
    base_url: str,
    contenders: tuple[Contender, Contender],
    rounds: int,
    *,
    db: Path,
    game_style_id: int = ONE_ROUND_STYLE,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = True,
) -> list[tuple[RoundResult, int]]:
    """(round, seat of the first contender) for each of `rounds` one-round matches, in the order played."""
    accounts = register_players(db, contenders)
    try:
        return _play_rounds(base_url, contenders, rounds, accounts, db, game_style_id, progress, keep_records)
    finally:
        remove_players(db, [bot_id for bot_id, _password in accounts])


def remove_players(db: Path, bot_ids: Sequence[str]) -> None:
    """Forget the accounts `register_players` made: nobody knows their passwords any more."""
    connection = connect(db)
    try:
        accounts = Accounts(connection)
        for bot_id in bot_ids:
            if accounts.get(bot_id) is not None:
                accounts.remove_bot(bot_id)
    finally:
        connection.close()


def _play_rounds(
    base_url: str,
    contenders: tuple[Contender, Contender],
    rounds: int,
    accounts: list[tuple[str, str]],
    db: Path,
    game_style_id: int,
    progress: Callable[[int], None] | None,
    keep_records: bool,
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
    records = Records(db)
    try:
        played = []
        for summary in summaries[0]:
            if summary.game_id is None:
                continue
            record = records.match_record(summary.game_id)
            if record is None:
                raise RuntimeError(f"the server has no record of match {summary.game_id}")
            played.append(_round_of(record, names, contenders, think))
            if progress:
                progress(1)
        if not keep_records:
            records.forget_matches([result.game_id for result, _seat in played if result.game_id is not None])
        return played
    finally:
        records.close()


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
