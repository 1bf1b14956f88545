"""The viewer's files and JSON over real HTTP: finished matches step by step, running ones without secrets."""

from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path

from viewer_testkit import HttpMatch

from rummy import DEFAULT_RULES
from rummy.rebuild import replay_record
from server.storage.records import Records
from server.viewer_routes import STATIC_FILES, _step_json


def _record(db_path: Path, game_id: int) -> dict:
    records = Records(db_path)
    try:
        record = records.match_record(game_id)
        assert record is not None
        return record
    finally:
        records.close()


def test_viewer_static_files_are_served_with_their_content_types(start_viewer_server) -> None:
    server = start_viewer_server()
    page = server.get("/viewer")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    # One answer: the page's stylesheet and script are inlined (and served on their own too, below).
    package = resources.files("server.viewer")
    assert package.joinpath("viewer.js").read_text() in page.text and "/viewer/static/" not in page.text
    assert package.joinpath("viewer.css").read_text() in page.text
    again = server.client.get("/viewer", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304 and page.headers["cache-control"] == "no-cache"
    for name, content_type in STATIC_FILES.items():
        response = server.get(f"/viewer/static/{name}")
        assert response.status_code == 200, name
        assert response.headers["content-type"] == content_type
        # Served from the installed package (an editable install points at the source tree).
        assert response.content == resources.files("server.viewer").joinpath(name).read_bytes()
    missing = server.get("/viewer/static/secrets.py")
    assert missing.status_code == 404
    assert "no viewer file secrets.py" in missing.json()["ErrorMessage"]
    slash = httpx_get_no_redirect(server.base + "/viewer/")
    assert slash.status_code == 307 and slash.headers["location"] == "/viewer"


def httpx_get_no_redirect(url: str):
    import httpx

    return httpx.get(url, follow_redirects=False, timeout=15)


def test_viewer_steps_rebuild_a_finished_match(start_viewer_server, finished_game, db_path) -> None:
    server = start_viewer_server()
    response = server.get(f"/viewer/api/games/{finished_game}/steps")
    assert response.status_code == 200
    data = response.json()
    record = _record(db_path, finished_game)
    replay = replay_record(record)
    applied = [move for move in record["Moves"] if move["Applied"]]
    assert data["Status"] == "FINISHED" and data["Players"] == ["greedy", "random"]
    assert data["Mismatches"] == []
    assert len(data["Steps"]) == len(applied) + 1 == len(replay.steps)
    landmarks = set(record["Rounds"][0]["Landmarks"])
    for step, rebuilt in zip(data["Steps"], replay.steps, strict=True):
        for seat in (0, 1):
            shown = step["Seats"][seat]
            view = rebuilt.views[seat]
            assert [[card["Id"], card["Url"]] for card in shown["Hand"]] == view["MyHand"]
            assert shown["Points"] == view["MyPoints"] and shown["IsMover"] == view["IsMover"]
            assert all(card["Landmark"] in landmarks for card in shown["Hand"])
            assert all(card["Url"].startswith("/cards/") for card in shown["Hand"])
        assert step["Move"] == rebuilt.move and step["Note"] == rebuilt.note
        assert "Suggestions" not in step  # none recorded: nothing to show
    deal = data["Steps"][0]
    assert deal["Result"] == "DEAL" and deal["Move"] is None and deal["MoveCards"] == []
    assert [len(seat["Hand"]) for seat in deal["Seats"]] == [10, 10] and deal["CardsInDeck"] == 20
    for step, move in zip(data["Steps"][1:], applied, strict=True):
        assert step["Move"] == move["Move"]
        named = move["Move"].get("Lay") or [next(iter(move["Move"].values()))]
        assert [card["Id"] for card in step["MoveCards"]] == named
    last = data["Steps"][-1]
    assert last["RoundEnded"] == {
        "Round": 0,
        "Points": record["Rounds"][0]["Points"],
        "Winner": record["Rounds"][0]["Winner"],
    }
    assert [seat["GameStatus"] for seat in last["Seats"]] == record["GameStatus"]
    assert [seat["Points"] for seat in last["Seats"]] == record["Rounds"][0]["Points"]
    assert all(step["RoundEnded"] is None for step in data["Steps"][:-1])


def test_viewer_steps_follow_the_rounds_of_a_multi_round_match(start_viewer_server, arena_bots, db_path) -> None:
    server = start_viewer_server(seed=5, move_time_ms=60_000)
    match = HttpMatch(server, arena_bots, style=2, seed=3)  # style 2: five rounds
    while match.seats[0].state["RemainingRounds"] == 5:
        match.play(moves=1)
    # Spectators learn how the round just finished ended, and see the next deal.
    live = server.get(f"/viewer/api/games/{match.game_id}/live").json()
    first_round = _record(db_path, match.game_id)["Rounds"][0]
    assert live["Round"] == 1 and live["CardsInDeck"] == 20
    # The turn shown is the round's: the second round's first turn, though the match has seen many moves.
    assert live["Turn"] == match.moves > 1 and live["RoundTurn"] == 1
    assert live["LastMove"]["RoundEnded"] == {
        "Round": 0,
        "Points": first_round["Points"],
        "Winner": first_round["Winner"],
    }
    match.play()
    data = server.get(f"/viewer/api/games/{match.game_id}/steps").json()
    record = _record(db_path, match.game_id)
    assert data["NumberOfRounds"] == 5 and len(data["Rounds"]) == 5
    assert len(data["Steps"]) == match.moves + 1
    ended = [step for step in data["Steps"] if step["RoundEnded"]]
    assert [step["RoundEnded"]["Round"] for step in ended] == [0, 1, 2, 3, 4]
    for step in ended:
        round_ = record["Rounds"][step["RoundEnded"]["Round"]]
        assert step["RoundEnded"]["Points"] == round_["Points"] and step["RoundEnded"]["Winner"] == round_["Winner"]
        # After a round-ending move the hands shown are the next round's deal (the last round keeps its own).
        assert step["ViewRound"] == min(step["Round"] + 1, 4)
    for step in data["Steps"]:
        round_landmarks = set(record["Rounds"][step["ViewRound"]]["Landmarks"])
        assert all(card["Landmark"] in round_landmarks for seat in step["Seats"] for card in seat["Hand"])
    assert [seat["Score"] for seat in data["Steps"][-1]["Seats"]] == record["RoundsWon"]


def test_viewer_live_view_shows_what_players_see_and_never_the_deck(start_viewer_server, arena_bots, db_path) -> None:
    server = start_viewer_server(seed=9, move_time_ms=60_000)
    match = HttpMatch(server, arena_bots, style=1)
    match.play(moves=3)
    assert match.running
    listed = {game["GameId"]: game for game in server.get("/games").json()["Games"]}
    assert listed[match.game_id]["Status"] == "RUNNING"

    response = server.get(f"/viewer/api/games/{match.game_id}/live")
    assert response.status_code == 200
    live = response.json()
    assert live["Live"] is True and live["Status"] == "RUNNING" and live["Turn"] == 3
    assert live["RoundTurn"] == 4  # three moves played in this round: the fourth turn is on
    by_name = {seat.name: seat.state for seat in match.seats}
    for seat_index, seat in enumerate(live["Seats"]):
        state = by_name[seat["Name"]]
        assert [card["Id"] for card in seat["Hand"]] == [card[0] for card in state["MyHand"]]
        assert set(seat["Hand"][0]) == {"Id", "Url"}  # no landmark field at all
        assert seat["Points"] == state["MyPoints"] and seat["IsMover"] == state["IsMover"]
        assert (live["Mover"] == seat_index) == state["IsMover"]
    assert live["CardsInDeck"] == match.seats[0].state["CardsInDeck"] == 17
    last_recorded = [move for move in _record(db_path, match.game_id)["Moves"] if move["Applied"]][-1]
    assert live["LastMove"]["Move"] == last_recorded["Move"] and live["LastMove"]["Player"] == last_recorded["Bot"]
    assert live["LastMove"]["RoundEnded"] is None
    note = live["LastMove"]["Note"]
    if "Lay" in last_recorded["Move"]:
        mover_points = live["Seats"][live["LastMove"]["Mover"]]["Points"]
        assert note == "wasted turn" or (note.startswith("+") and 0 < int(note[1:]) <= mover_points)
    else:
        assert note == ""

    record = _record(db_path, match.game_id)
    text = response.text.lower()
    for landmark in DEFAULT_RULES.catalog:
        assert landmark.lower() not in text, f"the live view names {landmark!r}"
    deck = record["Rounds"][0]["Deck"]
    shown_ids = {card["Id"] for seat in live["Seats"] for card in seat["Hand"]}
    shown_ids |= {card["Id"] for card in live["LastMove"]["MoveCards"]}
    # The first 3 deck cards were drawn into hands; the other 17 must stay unseen, by id and by URL.
    for card in deck[3:]:
        assert card["Id"] not in shown_ids
        assert card["Url"].rsplit("/", 1)[-1] not in text
    assert "Deck" not in live and "Landmarks" not in live and "AllCardTypes" not in live

    steps = server.get(f"/viewer/api/games/{match.game_id}/steps")
    assert steps.status_code == 409
    assert steps.json()["Live"] == f"/viewer/api/games/{match.game_id}/live"
    assert "still running" in steps.json()["ErrorMessage"]
    assert not any(landmark.lower() in steps.text.lower() for landmark in DEFAULT_RULES.catalog)

    match.play()
    ended = server.get(f"/viewer/api/games/{match.game_id}/live").json()
    assert ended["Live"] is False and ended["Status"] == "FINISHED"
    assert server.get(f"/viewer/api/games/{match.game_id}/steps").status_code == 200


def test_viewer_unknown_match_is_a_clear_404(start_viewer_server) -> None:
    server = start_viewer_server()
    for view in ("steps", "live"):
        response = server.get(f"/viewer/api/games/4242/{view}")
        assert response.status_code == 404
        assert response.json()["ErrorMessage"] == "no match 4242"
    assert server.get("/viewer/api/games/abc/steps").status_code in (400, 422)


def test_viewer_suggestions_appear_only_when_recorded(finished_game, db_path) -> None:
    record = _record(db_path, finished_game)
    replay = replay_record(record)
    rounds = record["Rounds"]
    suggestions = [{"Move": {"Take": 1}, "Value": 12.5, "Label": "expectimax"}, {"Move": {"Give": 2}, "Value": -3}]
    move = {**record["Moves"][0], "Suggestions": suggestions}
    with_them = _step_json(replay.steps[1], replay.steps[0], move, rounds, 1, replay.players)
    without = _step_json(replay.steps[1], replay.steps[0], record["Moves"][0], rounds, 1, replay.players)
    empty = _step_json(replay.steps[1], replay.steps[0], {**move, "Suggestions": []}, rounds, 1, replay.players)
    assert with_them["Suggestions"] == suggestions
    assert "Suggestions" not in without and "Suggestions" not in empty
    json.dumps(with_them)  # the step is plain JSON


def test_viewer_steps_through_an_aborted_match(start_viewer_server, arena_bots, db_path) -> None:
    server = start_viewer_server(seed=4, move_time_ms=60_000)
    match = HttpMatch(server, arena_bots, style=1)
    match.play(moves=3)
    server.stop()  # the match can never finish now
    restarted = start_viewer_server()
    live = restarted.get(f"/viewer/api/games/{match.game_id}/live").json()
    assert live["Live"] is False and live["Status"] == "ABORTED"
    data = restarted.get(f"/viewer/api/games/{match.game_id}/steps").json()
    assert data["EndReason"] == "aborted" and len(data["Steps"]) == 4
    assert all(step["RoundEnded"] is None for step in data["Steps"])
    assert data["Steps"][-1]["CardsInDeck"] == 17


def test_viewer_steps_end_with_the_timeout(start_viewer_server, arena_bots) -> None:
    server = start_viewer_server(seed=6, move_time_ms=300)
    match = HttpMatch(server, arena_bots, style=1)  # and nobody moves: no race with the short deadline
    late = next(seat.name for seat in match.seats if seat.state["IsMover"])
    deadline = time.monotonic() + 10
    while server.get(f"/viewer/api/games/{match.game_id}/live").json()["Live"]:
        assert time.monotonic() < deadline, "the referee never timed the match out"
        time.sleep(0.05)
    data = server.get(f"/viewer/api/games/{match.game_id}/steps").json()
    assert data["EndReason"] == "timeout" and len(data["Steps"]) == 2
    last = data["Steps"][-1]
    assert last["Result"] == "TIMEOUT" and last["Move"] is None
    assert {seat["Name"]: seat["GameStatus"] for seat in last["Seats"]}[late] == "LOST_BY_TIMEOUT"
