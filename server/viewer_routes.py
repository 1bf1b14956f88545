"""The browser viewer at /viewer: its static page and the JSON it reads.

The list is `GET /viewer/api/entries`: each `match` run and tournament once (see server/storage/runs.py), with
its standings, and every match outside them, newest first; `GET /viewer/api/runs/{id}` gives a run's
standings and its rounds in the order played, each with its start time.

Two JSON views of a match, both with card URLs as paths (`/cards/<token>.png`):

- `GET /viewer/api/games/{id}/live`: what a spectator of a running match may see, and no more:
  both hands as ids and image URLs (the pictures show no more than the players themselves see),
  points, rounds won, the deck count, whose turn, the turn within the round (`RoundTurn`; `Turn`
  counts the match's moves across rounds), the last applied move. Never a landmark name,
  the round's landmarks, the deck's cards or their order. Once the match is over it answers the
  match summary with `"Live": false`, so the page can switch to the step-through.
- `GET /viewer/api/games/{id}/steps`: a finished (or aborted) match rebuilt step by step by
  `rummy.rebuild.replay_record`, both seats' hands with each card's landmark. A running match answers
  409 and points at its live view, since its steps would reveal the deck. With `?pictures=N`, the
  answer also carries `"Pictures"`: the small pictures of step N's cards that are drawn already, as
  data URLs keyed by the picture URL the page would ask for, so the step the page opens on shows
  without 20 more requests (see `step_pictures`).

Step format (the page relies on it):

    {"Step": n, "Round": index of the round the move was played in, "ViewRound": round the hands
     belong to (the next round's deal after a round-ending move), "Mover": seat | null,
     "Player": name | null, "Move": the move as sent | null, "Result": "DEAL" | "SUCCESS" | ...,
     "Note": "+30" | "wasted turn" | "", "MoveCards": [{"Id", "Url", "Landmark"}] (the cards the move
     names, as they were before it), "RoundEnded": {"Round", "Points", "Winner"} | null,
     "Seats": [{"Name", "Hand": [{"Id", "Url", "Landmark"}], "Points", "Score", "IsMover",
                "GameStatus"}] * 2,
     "CardsInDeck", "RemainingMoves", "RemainingRounds",
     "Drawn": {"Id", "Url", "Landmark"} -- the card the mover drew after the move; absent when none,
     "Suggestions": [{"Move": {...}, "Value": number, "Label": str?, "Exact": bool?}]  -- only when recorded}

Suggestions are recorded by `rummy-vision match` for bots whose strategy ranks its moves (a move of
the match record, `Records.match_record()["Moves"][i]`, has a `Suggestions` list) and appear on that
move's step; the page calls a value without `"Exact": true` an estimate.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from rummy import Match
from rummy.cards import token_of
from rummy.moves import named_card_ids
from rummy.rebuild import ReplayError, replay_record
from server.cards.viewer_cards import opening_cards, shown_cards
from server.deps import ImagesDep, RecordsDep, RefereeDep, ReplayFilesDep
from server.http_io import RowId
from server.page_files import PageFiles
from server.storage.runs import grouped_game_ids, list_runs, run_detail, run_of_game

# The page's files, with the content types browsers need to run and style them.
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "viewer.css": "text/css; charset=utf-8",
}
# Mounted at /viewer/static by server.app.
VIEWER_FILES = PageFiles("server.viewer", STATIC_FILES, "viewer")
# The page's own tags that /viewer answers with the files' text in place.
PAGE_INLINED = {
    '<link rel="stylesheet" href="/viewer/static/viewer.css">': ("viewer.css", "<style>\n{}</style>"),
    '<script src="/viewer/static/viewer.js"></script>': ("viewer.js", "<script>\n{}</script>"),
}

MATCHES_DRAWN_AHEAD = 3  # the list's newest finished matches whose card pictures are drawn when it is asked

router = APIRouter(tags=["viewer"])


@router.get("/viewer", include_in_schema=False)
async def viewer_page(request: Request) -> Response:
    """The viewer's single page (the list of matches, live spectating and the step-through), its stylesheet
    and script inlined: a page opened on a match waits for one answer before its steps, not two in a row."""
    return VIEWER_FILES.inlined_page(request.scope, PAGE_INLINED)


@router.get("/viewer/", include_in_schema=False)
async def viewer_page_slash() -> Response:
    return RedirectResponse("/viewer", status_code=307)


@router.get("/viewer/api/entries")
async def entries_view(images: ImagesDep, records: RecordsDep, replay_files: ReplayFilesDep) -> JSONResponse:
    """The viewer's list, newest first: each `match` run and tournament as one entry, other matches one each,
    and each replay file sent to the viewer."""
    images.watch()  # a person's page: deals are drawn as they are made from now on
    runs = [{**run, "Entry": "run"} for run in list_runs(records.db)]
    grouped = grouped_game_ids(records.db)
    matches = records.list_matches()
    games = [{**game, "Entry": "game"} for game in matches if game["GameId"] not in grouped]
    # Replay files sent to the viewer (server/viewer_files.py), by when they were played (else when sent).
    files = [
        {**kept, "Entry": "file", "StartedAt": kept["StartedAt"] or kept["UploadedAt"]}
        for kept in replay_files.summaries()
    ]
    entries = sorted([*runs, *games, *files], key=lambda entry: entry["StartedAt"] or 0, reverse=True)
    # The newest finished matches are the likeliest to be opened next: their pictures are drawn meanwhile.
    cards = []
    for game in [game for game in matches if game["Status"] != "RUNNING"][:MATCHES_DRAWN_AHEAD]:
        record = records.match_record(game["GameId"])
        if record is not None:
            cards.extend(opening_cards(record))
    images.prerender(cards)
    return JSONResponse({"Entries": entries})


@router.get("/viewer/api/runs/{run_id}")
async def run_view(run_id: RowId, records: RecordsDep, images: ImagesDep) -> JSONResponse:
    """A `match` run or a tournament: its standings and its rounds in the order played, each with its start."""
    run = run_detail(records.db, run_id)
    if run is None:
        return JSONResponse({"ErrorMessage": f"no match run or tournament {run_id}"}, status_code=404)
    # Its rounds are opened from here: their opening steps are drawn meanwhile, in the order listed.
    cards = []
    for game in run["Games"]:
        record = records.match_record(game["GameId"])
        if record is not None and record["Status"] != "RUNNING":
            cards.extend(opening_cards(record))
    images.watch()  # a person's page
    await asyncio.to_thread(images.prerender, cards)  # reads the pictures' folder: off the loop
    return JSONResponse(run)


@router.get("/viewer/api/games/{game_id}/live")
async def live_view(game_id: RowId, images: ImagesDep, records: RecordsDep, referee: RefereeDep) -> JSONResponse:
    """A running match as a spectator sees it: hands as ids and images, never landmarks or the deck."""
    # An async route runs on the referee's event loop, so the match cannot change while it is read.
    images.watch()  # a spectator: the next rounds' pictures are drawn as they are dealt
    summary = match_summary(records, game_id)
    if isinstance(summary, JSONResponse):
        return summary
    live = referee.live.get(game_id)
    if summary["Status"] != "RUNNING" or live is None or live.match.over:
        if summary["Status"] == "RUNNING":
            # Recorded as running, but not played by this server (another process writes the same file).
            return JSONResponse(
                {**summary, "Live": False, "ErrorMessage": f"match {game_id} is not in play on this server"},
                status_code=404,
            )
        return JSONResponse({**summary, "Live": False})
    return JSONResponse(
        {
            **summary,
            **_public_view(live.match, summary["Players"]),
            "Live": True,
            "Turn": live.turn,
            # The turn being played within the current round (Turn counts the match's moves across rounds).
            "RoundTurn": _moves_in_round(records, game_id, live.match.round_index) + 1,
            "DeadlineMs": live.deadline_ms,
            "LastMove": _last_move(records, game_id, live.match),
        }
    )


@router.get("/viewer/api/games/{game_id}/steps")
async def steps_view(
    game_id: RowId, records: RecordsDep, images: ImagesDep, pictures: int | None = None
) -> JSONResponse:
    """A finished match rebuilt step by step, with every card's landmark; with `pictures`, that step's
    pictures drawn already, inline."""
    summary = finished_match_summary(
        records, game_id, "its steps would reveal the deck", Live=f"/viewer/api/games/{game_id}/live"
    )
    if isinstance(summary, JSONResponse):
        return summary
    record = records.match_record(game_id)
    if record is None:  # forgotten (admin /games/forget) since its summary was read
        return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
    summary["RunId"] = run_of_game(records.db, game_id)
    # Rebuilding and encoding the match (and reading its pictures) off the event loop: the page's script and
    # stylesheet, asked for at the same time, are answered meanwhile.
    return await asyncio.to_thread(_steps_answer, images, summary, record, pictures)


def _steps_answer(
    images: Any, summary: dict[str, Any], record: Mapping[str, Any], pictures: int | None
) -> JSONResponse:
    game_id = summary["GameId"]
    try:
        replay = replay_record(record)
    except ReplayError as error:
        return JSONResponse({**summary, "ErrorMessage": f"cannot rebuild match {game_id}: {error}"}, status_code=422)
    applied = [move for move in record["Moves"] if move.get("Applied")]
    rounds = [
        {key: round_[key] for key in ("RoundIndex", "Landmarks", "FirstMover", "Points", "Winner")}
        for round_ in record["Rounds"]
    ]
    steps = []
    for number, step in enumerate(replay.steps):
        previous = replay.steps[number - 1] if number else step
        recorded = applied[number - 1] if 0 < number <= len(applied) and step.move is not None else None
        steps.append(_step_json(step, previous, recorded, rounds, summary["NumberOfRounds"], replay.players))
    # The cards the page shows, the step it opens on first, drawn ahead unless drawn before (memory or disk).
    opening = steps[max(0, min(pictures or 0, len(steps) - 1))] if steps else None
    hands = [[card["Url"] for card in step_cards(step)] for step in ([opening] if opening else []) + steps]
    images.prerender(shown_cards(record, hands), first=True)
    answer = {**summary, "Rounds": rounds, "Mismatches": list(replay.mismatches), "Steps": steps}
    if pictures is not None and opening is not None:
        answer["Pictures"] = step_pictures(images, opening)
    return JSONResponse(answer)


SMALL_QUERY = {True: "?caption=1&small=1", False: "?small=1"}  # what the page asks for a card with/without its name


def step_cards(step: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards a step shows: both hands, the move's cards, the drawn card."""
    cards = [card for seat in step["Seats"] for card in seat["Hand"]] + list(step["MoveCards"])
    if "Drawn" in step:
        cards.append(step["Drawn"])
    return cards


def step_pictures(images: Any, step: Mapping[str, Any]) -> dict[str, str]:
    """The small pictures of a step's cards (both hands, the move's cards, the drawn card) that are drawn
    already (in memory or on disk: nothing is drawn here), as data URLs keyed by the URL the page asks for."""
    found: dict[str, str] = {}
    for card in step_cards(step):
        if card["Url"] is None:
            continue  # a card a replay file never labelled: it has no picture
        url = card["Url"] + SMALL_QUERY[bool(card["Landmark"])]
        cached = images.cached(token_of(card["Url"]), caption=bool(card["Landmark"]), small=True)
        if cached is not None and url not in found:
            found[url] = f"data:{cached[1]};base64," + base64.b64encode(cached[0]).decode("ascii")
    return found


def match_summary(records: Any, game_id: int) -> dict[str, Any] | JSONResponse:
    """The match's summary, or a 404 answer when there is no such match."""
    summary = records.match_summary(game_id)
    if summary is None:
        return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
    return dict(summary)


def finished_match_summary(
    records: Any, game_id: int, why_not_running: str, **running: Any
) -> dict[str, Any] | JSONResponse:
    """The summary of a match that is over, or a 404 (no such match) or 409 answer (still running: `why_not_running`
    says why that matters; `running` adds fields to the 409 answer)."""
    summary = match_summary(records, game_id)
    if isinstance(summary, JSONResponse) or summary["Status"] != "RUNNING":
        return summary
    message = f"match {game_id} is still running: {why_not_running}"
    return JSONResponse({**summary, "ErrorMessage": message, **running}, status_code=409)


# --- live -------------------------------------------------------------------------------------


def _public_view(match: Match, players: Sequence[str]) -> dict[str, Any]:
    shown = match.current
    seats = [
        {
            "Name": players[seat],
            "Hand": [{"Id": card.id, "Url": card.url} for card in shown.hands[seat]],
            "Points": shown.points[seat],
            "Score": match.rounds_won[seat],
            "IsMover": match.mover == seat,
        }
        for seat in (0, 1)
    ]
    return {
        "Round": match.round_index,
        "Seats": seats,
        "Mover": match.mover,
        "CardsInDeck": len(shown.deck),
        "RemainingMoves": shown.turns_left,
        "RemainingRounds": match.remaining_rounds,
    }


def _moves_in_round(records: Any, game_id: int, round_index: int) -> int:
    row = records.db.execute(
        "SELECT COUNT(*) FROM moves WHERE game_id=? AND round_index=? AND applied=1", (game_id, round_index)
    ).fetchone()
    return int(row[0])


def _last_move(records: Any, game_id: int, match: Match) -> dict[str, Any] | None:
    row = records.db.execute(
        "SELECT round_index, seat, bot, move FROM moves WHERE game_id=? AND applied=1 ORDER BY move_seq DESC LIMIT 1",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    move = json.loads(row["move"])
    index, seat = int(row["round_index"]), int(row["seat"])
    ended = index < len(match.finished_rounds)
    played = match.finished_rounds[index] if ended else match.current
    # Only cards both players have seen: the hands and the laid sets of the round the move was played in.
    visible = {card.id: card for card in [*played.hands[0], *played.hands[1], *played.laid]}
    ids = named_card_ids(move)
    cards = [{"Id": card_id, "Url": visible[card_id].url} for card_id in ids if card_id in visible]
    note = ""
    if isinstance(move, Mapping) and "Lay" in move and ids:
        if all(card_id in {card.id for card in played.hands[seat]} for card_id in ids):
            note = "wasted turn"
        elif all(card_id in visible for card_id in ids):
            # The players saw these points appear; the landmarks themselves stay on the server.
            kinds = Counter(visible[card_id].kind for card_id in ids)
            note = f"+{match.rules.set_points(tuple(kinds.values()))}"
    round_ended = None
    if ended:
        round_ended = {"Round": index, "Points": list(played.points), "Winner": played.winner()}
    return {
        "Round": index,
        "Mover": seat,
        "Player": row["bot"],
        "Move": move,
        "Note": note,
        "MoveCards": cards,
        "RoundEnded": round_ended,
    }


# --- steps ------------------------------------------------------------------------------------


def _seats(step: Any, players: tuple[str, str]) -> list[dict[str, Any]]:
    """Each seat's name, hand (with the landmarks known at the step), points, score and status."""
    return [
        {
            "Name": players[seat],
            "Hand": [
                {"Id": card_id, "Url": url, "Landmark": step.labels.get(card_id)} for card_id, url in view["MyHand"]
            ],
            "Points": view["MyPoints"],
            "Score": view["MyScore"],
            "IsMover": view["IsMover"],
            "GameStatus": view["GameStatus"],
        }
        for seat, view in enumerate(step.views)
    ]


def _move_cards(step: Any, previous: Any) -> list[dict[str, Any]]:
    """The cards the step's move names, as they were in the hands before it."""
    if step.move is None:
        return []
    before = {card_id: url for view in previous.views if view is not None for card_id, url in view["MyHand"]}
    return [
        {"Id": card_id, "Url": before[card_id], "Landmark": previous.labels.get(card_id)}
        for card_id in named_card_ids(step.move)
        if card_id in before
    ]


def _step_json(
    step: Any,
    previous: Any,
    recorded: Mapping[str, Any] | None,
    rounds: Sequence[Mapping[str, Any]],
    number_of_rounds: int,
    players: tuple[str, str],
) -> dict[str, Any]:
    views = step.views
    over = views[0]["GameStatus"] != "RUNNING"
    view_round = step.round_index if over else number_of_rounds - int(views[0]["RemainingRounds"])
    ended = step.move is not None and (view_round != step.round_index or over)
    round_ended = None
    if ended and step.round_index < len(rounds) and rounds[step.round_index]["Winner"] is not None:
        finished = rounds[step.round_index]
        round_ended = {"Round": step.round_index, "Points": finished["Points"], "Winner": finished["Winner"]}
    seats = _seats(step, players)
    move_cards = _move_cards(step, previous)
    result: dict[str, Any] = {
        "Step": step.number,
        "Round": step.round_index,
        "ViewRound": view_round,
        "Mover": step.mover,
        "Player": players[step.mover] if step.mover is not None else None,
        "Move": step.move,
        "Result": step.result,
        "Note": step.note,
        "MoveCards": move_cards,
        "RoundEnded": round_ended,
        "Seats": seats,
        "CardsInDeck": views[0]["CardsInDeck"],
        "RemainingMoves": views[0]["RemainingMoves"],
        "RemainingRounds": views[0]["RemainingRounds"],
    }
    drawn = step.drawn
    # A card drawn on a round's last turn is not in the next deal's hands (an id there is another round's card).
    if drawn is not None and step.mover is not None and step.move_labels is None:
        urls = {card_id: url for card_id, url in views[step.mover]["MyHand"]}
        if drawn in urls:
            result["Drawn"] = {"Id": drawn, "Url": urls[drawn], "Landmark": step.labels.get(drawn)}
    if step.log:
        result["Log"] = step.log  # what the mover's bot printed while choosing (the arena's editor shows it)
    suggestions = recorded.get("Suggestions") if recorded is not None else None
    if isinstance(suggestions, list) and suggestions:
        result["Suggestions"] = suggestions
    return result
