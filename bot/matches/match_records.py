"""Store rounds played in process in the referee's SQLite records, so replays and the viewer show them.

Each round is stored as a one-round match (style 0, "in process"). The engine is deterministic
given the deal seed, so replaying the recorded moves on a fresh `Match` rebuilds every gamestate.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from bot.matches.local_match import RoundResult
from rummy import Match, parse_move, render_gamestate
from rummy.records import Records

IN_PROCESS_STYLE = 0


def default_db_path() -> Path:
    from server.settings import default_db_path as server_default

    return Path(server_default())


def store_rounds(
    db: Path | None, played: Sequence[tuple[RoundResult, int]], names: tuple[str, str]
) -> tuple[Path, list[int]]:
    path = Path(db) if db is not None else default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    records = Records(path)
    game_ids = []
    try:
        for result, seat_of_a in played:
            seated = (names[0], names[1]) if seat_of_a == 0 else (names[1], names[0])
            game_ids.append(_store_round(records, result, seated))
    finally:
        records.close()
    return path, game_ids


def _store_round(records: Records, result: RoundResult, seated: tuple[str, str]) -> int:
    now = time.time()
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
        )
    if not match.over:  # a round cut short still gets its end written
        records.finish_match(game_id, match, "completed", now)
    return game_id
