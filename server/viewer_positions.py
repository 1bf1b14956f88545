"""The viewer's "analyse this position": a finished match's step as an `analyze` position, and its moves ranked.

GET /viewer/api/games/{game_id}/steps/{step}/position is the position of the player to move after that step,
exactly what `rummy-vision replay GAME --turn STEP --position OUT.json` writes; .../analysis ranks its moves
with the strategy named (default expectimax at a node budget: the same ranking as `analyze OUT.json
--strategy expectimax --nodes N`, on any machine).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from rummy.rebuild import ReplayError, replay_record
from rummy.step_positions import step_position
from server.deps import RecordsDep
from server.viewer_routes import finished_match_summary
from strategies.analyze import analyse
from strategies.position import PositionError, parse_position
from strategies.registry import parse_spec, strategy_names

router = APIRouter(tags=["viewer"])
DEFAULT_STRATEGY = "expectimax"
DEFAULT_NODES = 20_000
MAX_NODES = 200_000  # a page's request must not hold a core for long


def _position(records: Any, game_id: int, step: int) -> dict[str, Any] | JSONResponse:
    summary = finished_match_summary(records, game_id, "its positions would reveal the deck")
    if isinstance(summary, JSONResponse):
        return summary
    try:
        return step_position(replay_record(records.match_record(game_id)), step)
    except ReplayError as error:
        return JSONResponse({"ErrorMessage": f"match {game_id}, step {step}: {error}"}, status_code=422)


@router.get("/viewer/api/games/{game_id}/steps/{step}/position")
async def step_position_view(game_id: int, step: int, records: RecordsDep) -> JSONResponse:
    """The `analyze` position of the player to move after `step` (as `replay GAME --turn STEP --position`)."""
    found = await asyncio.to_thread(_position, records, game_id, step)
    return found if isinstance(found, JSONResponse) else JSONResponse(found)


@router.get("/viewer/api/games/{game_id}/steps/{step}/analysis")
async def step_analysis_view(
    game_id: int,
    step: int,
    records: RecordsDep,
    strategy: str = DEFAULT_STRATEGY,
    nodes: int = DEFAULT_NODES,
    objective: str = "win",
) -> JSONResponse:
    """That position's moves, best first, with values (as `analyze OUT.json --strategy S --nodes N --json`)."""
    if objective not in ("win", "margin") or not 1 <= nodes <= MAX_NODES:
        return JSONResponse({"ErrorMessage": f"objective is win or margin; nodes 1 to {MAX_NODES}"}, status_code=400)
    if parse_spec(strategy)[0] not in strategy_names():
        return JSONResponse({"ErrorMessage": f"unknown strategy {strategy!r}"}, status_code=400)
    found = await asyncio.to_thread(_position, records, game_id, step)
    if isinstance(found, JSONResponse):
        return found
    return await asyncio.to_thread(_analysis, found, strategy, nodes, objective)


def _analysis(position: dict[str, Any], strategy: str, nodes: int, objective: str) -> JSONResponse:
    try:
        analysis = analyse(parse_position(position), strategy, objective, 1000, nodes)
    except (PositionError, ValueError) as error:
        return JSONResponse({"ErrorMessage": str(error)}, status_code=422)
    return JSONResponse({**analysis.to_json(), "strategy": strategy, "nodes": nodes, "Position": position})
