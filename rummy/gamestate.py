"""One player's view of a match, with exactly the keys of the arena's gamestate (declared in rummy.messages)."""

from __future__ import annotations

from typing import Any, cast

from rummy.config import MyScore, PointsShown
from rummy.engine import Match
from rummy.messages import GAMESTATE_KEYS, Gamestate

__all__ = ["GAMESTATE_KEYS", "Gamestate", "render_gamestate"]  # the keys and their types: rummy.messages


def render_gamestate(
    match: Match,
    player: int,
    *,
    game_id: int = 0,
    opponent_id: str = "",
    response_deadline_ms: int = 0,
    url_prefix: str = "",
) -> dict[str, Any]:
    """The gamestate `player` sees: card ids and URLs only, never a card's landmark or the deck."""
    shown = match.current
    opponent = 1 - player
    points = list(shown.points)
    if match.rules.points_shown == PointsShown.NET and not shown.over:
        points = [points[p] - match.rules.hand_penalty * len(shown.hands[p]) for p in (0, 1)]
    score = list(match.rounds_won)
    if match.rules.my_score == MyScore.POINTS:
        score = [sum(done.points[p] for done in match.finished_rounds) for p in (0, 1)]
    view: Gamestate = {
        "AllCardTypes": list(match.rules.catalog),
        "MyHand": [[card.id, url_prefix + card.url] for card in shown.hands[player]],
        "OppHand": [[card.id, url_prefix + card.url] for card in shown.hands[opponent]],
        "MyPoints": points[player],
        "OppPoints": points[opponent],
        "MyScore": score[player],
        "OppScore": score[opponent],
        "RemainingRounds": match.remaining_rounds,
        "RemainingMoves": shown.turns_left,
        "CardsInDeck": len(shown.deck),
        "ResponseDeadline": response_deadline_ms,
        "GameStatus": match.status[player].value,
        "IsMover": match.mover == player,
        "GameId": game_id,
        "OpponentId": opponent_id,
    }
    # Passed on as a plain dict: a bot's calculate_move(gamestate) takes one, and may change its copy.
    return cast(dict[str, Any], view)
