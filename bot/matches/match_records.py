"""Store rounds played in process in the referee's SQLite records, so replays and the viewer show them.

Each round is stored as a one-round match (style 0, "in process"). The engine is deterministic
given the deal seed, so replaying the recorded moves on a fresh `Match` rebuilds every gamestate.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from bot.matches.local_match import RoundResult
from bot.matches.run_spec import RunSpec, round_labels
from rummy import Match, parse_move, render_gamestate
from server.settings import default_db_path as server_default
from server.storage.records import Records
from server.storage.runs import store_run

IN_PROCESS_STYLE = 0


def default_db_path() -> Path:
    return Path(server_default())


def store_rounds(
    db: Path | None,
    played: Sequence[tuple[RoundResult, int]],
    names: tuple[str, str],
    *,
    run: RunSpec | None = None,
) -> tuple[Path, list[int]]:
    """Store each (round, seat of the first name) as a one-round match; with `run`, group them under it."""
    seated = [(names[0], names[1]) if seat_of_a == 0 else (names[1], names[0]) for _result, seat_of_a in played]
    return store_seated(db, [(result, seats) for (result, _), seats in zip(played, seated)], run=run)


def store_seated(
    db: Path | None, played: Sequence[tuple[RoundResult, tuple[str, str]]], *, run: RunSpec | None = None
) -> tuple[Path, list[int]]:
    """Store each round with the names of its seats; with `run`, group them under it."""
    path = Path(db) if db is not None else default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    records = Records(path)
    game_ids = []
    try:
        for result, seated in played:
            game_ids.append(_store_round(records, result, seated))
        if run is not None:
            labels = round_labels([(result.deal_seed, seated) for result, seated in played])
            starts = [result.started_at for result, _ in played if result.started_at]
            store_run(
                records.db,
                kind=run.kind,
                title=run.title,
                created_at=min(starts, default=time.time()),
                players=run.players,
                standings=run.standings,
                games=list(zip(game_ids, labels)),
                tournament_id=run.tournament_id,
                head_to_head=run.head_to_head,
            )
    finally:
        records.close()
    return path, game_ids


def _store_round(records: Records, result: RoundResult, seated: tuple[str, str]) -> int:
    # The round's real start; each move is dated by the thinking time before it, so the record reads as played.
    now = result.started_at or time.time()
    match = Match(seed=result.deal_seed)
    game_id = records.create_match(
        style_id=IN_PROCESS_STYLE,
        rounds=1,
        move_time_ms=0,
        seed=result.deal_seed,
        players=seated,
        stake=0,
        prize=0,
        now=now,
    )
    records.start_round(game_id, 0, match.current, now)
    for move in result.moves:
        now += move.think_ms / 1000
        if move.result != "SUCCESS":  # --strict: the arena's INVALID_MOVE, or no move at all; nothing changes
            records.record_move(
                game_id=game_id,
                round_index=0,
                seat=move.seat,
                bot=seated[move.seat],
                received_at=now,
                move=move.move,
                result=move.result,
                applied=False,
                error=move.fault or None,
                gamestate=None,
                log=move.log,
            )
            continue
        match.apply(move.seat, parse_move(move.move))
        finished = (0, match.finished_rounds[-1]) if match.over else None
        records.record_move(
            game_id=game_id,
            round_index=0,
            seat=move.seat,
            bot=seated[move.seat],
            received_at=now,
            move=move.move,
            result="SUCCESS",
            applied=True,
            error=move.fault or None,
            gamestate=render_gamestate(match, move.seat, game_id=game_id, opponent_id=seated[1 - move.seat]),
            finished_round=finished,
            suggestions=list(move.suggestions),
            finished_match=(match, "completed") if match.over else None,
            log=move.log,
        )
    if result.lost_on_time is not None:  # --strict: no valid move by the deadline, as the arena ends it
        match.forfeit(result.lost_on_time)
        records.finish_match(game_id, match, "timeout", now)
    elif not match.over:  # a round cut short still gets its end written
        records.finish_match(game_id, match, "completed", now)
    return game_id
