"""One player's view of a match, with exactly the keys of the arena's gamestate."""

from __future__ import annotations

from typing import Any

from rummy.engine import Match

GAMESTATE_KEYS = (
    "AllCardTypes",
    "MyHand",
    "OppHand",
    "MyPoints",
    "OppPoints",
    "MyScore",
    "OppScore",
    "RemainingRounds",
    "RemainingMoves",
    "CardsInDeck",
    "ResponseDeadline",
    "GameStatus",
    "IsMover",
    "GameId",
    "OpponentId",
)


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
    if match.rules.points_shown == "net" and not shown.over:
        points = [points[p] - match.rules.hand_penalty * len(shown.hands[p]) for p in (0, 1)]
    score = list(match.rounds_won)
    if match.rules.my_score == "points":
        score = [sum(done.points[p] for done in match.finished_rounds) for p in (0, 1)]
    return {
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
