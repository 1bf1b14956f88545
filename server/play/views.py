"""The JSON the /play page and `play-human` read: the person's view of the game, in landmark names."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from server.house_agents import HOUSE_BOTS
from server.http_io import without_folders
from server.play.hall import PlayHall, PlaySession, no_limit
from server.play.ledger import PlayedMove
from server.styles import GameStyle
from strategies.coaching.coach import VALUED
from strategies.coaching.selection import describe_cards, set_name
from strategies.registry import get_strategy
from strategies.table.perfect import default_valuer

OPPONENT_NOTES = {
    "housebot-practise": "random moves, like the arena's template bot",
    "housebot-greedy": "lays its best set, else takes what it collects",
    "housebot-expert": "the strongest strategy that answers in time",
    "housebot-easy": "character: one turn of lookahead, noisy",
    "housebot-medium": "character: two turns of lookahead, a little noise",
    "housebot-hard": "character: searches a second a move",
    "housebot-perfect": "plays for the best chance to win the round: exact where its tables reach"
    " (`rummy-vision solve` builds them: 1.1 GB and a few CPU minutes, then 2.73 GB, about 22 CPU minutes),"
    " estimates beyond",
}


def style_json(style: GameStyle) -> dict[str, Any]:
    seconds = style.move_time_ms / 1000
    time_text = "no limit" if no_limit(style) else (f"{seconds:g} s a move")
    rounds = "1 round" if style.rounds == 1 else f"{style.rounds} rounds"
    return {
        "GameStyleId": style.style_id,
        "Rounds": style.rounds,
        "MoveTimeMs": style.move_time_ms,
        "NoLimit": no_limit(style),
        "ForPeople": style.for_people,
        "Stake": style.stake,
        "Text": f"{rounds}, {time_text}" + (f", stake {style.stake}" if style.stake else ""),
    }


def unavailable(make: Callable[[], object]) -> str | None:
    """Why a strategy cannot be built here (e.g. `perfect` without its table), or None when it can."""
    try:
        make()
    except Exception as error:  # a strategy's own reason, shown to the person choosing it
        return without_folders(str(error).splitlines()[0]) if str(error) else type(error).__name__
    return None


# What was built once here. Building a strategy the first time loads its tables (seconds, up to a minute
# beside busy searches); after one success the answer cannot change, while a failure (a table not built yet)
# is tried again at the next request, so that a table solved while the server runs is offered.
_built: set[tuple[object, tuple[str, ...]]] = set()
_built_lock = threading.Lock()


def unavailable_once(make: Callable[..., object], *args: str) -> str | None:
    """`unavailable` for `make(*args)`, remembered once it succeeds; one build at a time."""
    with _built_lock:
        if (make, args) in _built:
            return None
        problem = unavailable(functools.partial(make, *args))
        if problem is None:
            _built.add((make, args))
        return problem


def options_json(
    styles: Sequence[GameStyle], coaches: Sequence[str], withdrawn: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The /play page's choices; a house bot that cannot be built, or that could not choose a move on this
    server (`withdrawn`), is listed unavailable with its reason."""
    people_first = sorted(styles, key=lambda style: (not style.for_people, style.style_id))
    opponents = []
    for name, make in HOUSE_BOTS.items():
        problem = (withdrawn or {}).get(name) or unavailable_once(make)
        opponents.append(
            {
                "Name": name,
                "Short": name.removeprefix("housebot-"),
                "Note": problem or OPPONENT_NOTES.get(name, ""),
                "Available": problem is None,
            }
        )
    return {
        "Opponents": opponents,
        "Styles": [style_json(style) for style in people_first if not style.stake],
        "Coaches": [name for name in coaches if unavailable_once(get_strategy, name) is None],
        "DefaultCoach": default_valuer(),
    }


def warm() -> None:
    """Build every house bot and coach once (at `serve` start, in a thread), so the first visitor does not wait."""
    options_json([], VALUED)


def _card(card: Sequence[Any], labels: dict[int, str | None]) -> dict[str, Any]:
    return {"Id": card[0], "Url": card[1], "Landmark": labels.get(card[0])}


def move_text(played: PlayedMove, you: int, opponent: str) -> str:
    who = "You" if played.seat == you else opponent
    names = [card["Landmark"] for card in played.cards]
    if played.kind == "lay":
        counts = [names.count(name) for name in set(names)]
        return f"{who} laid {describe_cards(names)} ({set_name(counts)}): +{played.points}"
    if played.kind == "waste":
        return f"{who} laid {describe_cards(names)}: no set, a wasted turn (a pass)"
    card = names[0] if names else "a card"
    if played.kind == "take":
        return f"{who} took {card} from " + ("them" if played.seat == you else "you")
    return f"{who} gave " + (f"them {card}" if played.seat == you else f"you {card}")


def round_text(result: dict[str, Any], you: int, opponent: str) -> str:
    mine, theirs = result["Points"][you], result["Points"][1 - you]
    winner = "you win" if result["Winner"] == you else f"{opponent} wins"
    tie = " (equal scores go to the second mover)" if mine == theirs else ""
    return f"Round {result['Round'] + 1}: you {mine}, {opponent} {theirs} after -3 a card left in hand; {winner}{tie}"


RESULT_TEXT = {
    "WON": "You won the match",
    "LOST": "You lost the match",
    "DRAWN": "The match is drawn",
    "WON_BY_TIMEOUT": "You won: the opponent missed its deadline",
    "LOST_BY_TIMEOUT": "You lost on time: your deadline passed",
}


def state_json(hall: PlayHall, session: PlaySession) -> dict[str, Any]:
    state = session.gamestate
    labels = hall.labels(session)
    you = session.seat
    moves, rounds = hall.played(session)
    ended = {result["Round"]: result for result in rounds if result["Winner"] is not None}
    last_of_round = {played.round_index: played.step for played in moves}
    events = []
    for played in moves:
        event: dict[str, Any] = {
            "Step": played.step,
            "Round": played.round_index,
            "IsYou": played.seat == you,
            "Player": played.player,
            "Kind": played.kind,
            "Move": played.move,
            "Cards": list(played.cards),
            "Points": played.points,
            "Text": move_text(played, you, session.opponent),
        }
        if played.round_index in ended and last_of_round[played.round_index] == played.step:
            result = ended[played.round_index]
            event["RoundEnded"] = {**result, "Text": round_text(result, you, session.opponent)}
        events.append(event)
    status = state["GameStatus"]
    running = status == "RUNNING"
    return {
        "Session": session.token,
        "GameId": session.game_id,
        "Version": session.version,
        "You": session.name,
        "Opponent": session.opponent,
        "Style": style_json(session.style),
        "Coach": session.coach.to_json(),
        "GameStatus": status,
        "Running": running,
        "IsMover": bool(state["IsMover"]) and running,
        "ResponseDeadline": state["ResponseDeadline"] if running else 0,
        "ServerNowMs": round(hall.referee.settings.clock() * 1000),
        "Round": session.round_index,
        "Rounds": session.style.rounds,
        "RemainingMoves": state["RemainingMoves"],
        "CardsInDeck": state["CardsInDeck"],
        "Points": [state["MyPoints"], state["OppPoints"]],
        "RoundsWon": [state["MyScore"], state["OppScore"]],
        "MyHand": [_card(card, labels) for card in state["MyHand"]],
        "OppHand": [_card(card, labels) for card in state["OppHand"]],
        "Events": events,
        # When the house bot could not choose its moves: said to the person as to the bot's records.
        "OpponentNote": hall.referee.house.note_of(session.game_id),
        "Result": None if running else RESULT_TEXT.get(status, status),
        "Viewer": f"/viewer#game/{session.game_id}",
    }
