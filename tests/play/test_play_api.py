"""The person's seat over /play/api: moves through the referee, explanations, the coach, the review,
and a person who leaves losing on time with a record that still replays."""

from __future__ import annotations

import time

from play_helpers import ApiSeat, check_review_is_the_records_review, no_set, own_review, valid_set
from typer.testing import CliRunner

from bot.cli import app
from rummy.rebuild import replay_record
from server.storage.records import Records
from strategies.coaching.selection import HandCard, check_selection


def test_selection_check_explains_every_kind_of_non_move() -> None:
    mine = [HandCard(1, "big ben"), HandCard(2, "big ben"), HandCard(3, "giralda"), HandCard(4, "big ben")]
    theirs = [HandCard(9, "giralda")]
    assert "3 to 5" in check_selection("lay", [1, 2], [], mine, theirs).message
    assert not check_selection("lay", [1, 2, 3], [9], mine, theirs).ok
    # Two alike and one other: no set, so it is a deliberate pass that needs confirming.
    waste = check_selection("lay", [1, 2, 3], [], mine, theirs)
    assert waste.needs_confirm and not waste.ok and "no set" in waste.message and waste.move == {"Lay": [1, 2, 3]}
    assert check_selection("lay", [1, 2, 3], [], mine, theirs, confirm_pass=True).ok
    three = check_selection("lay", [1, 2, 4], [], mine, theirs)
    assert three.ok and three.points == 20 and three.move == {"Lay": [1, 2, 4]}  # three alike score 20
    assert "opponent's cards" in check_selection("take", [1], [], mine, theirs).message
    assert check_selection("take", [], [9], mine, theirs).move == {"Take": 9}
    assert "exactly one" in check_selection("give", [1, 2], [], mine, theirs).message
    assert check_selection("give", [3], [], mine, theirs).move == {"Give": 3}
    assert "not a move" in check_selection("steal", [1], [], mine, theirs).message
    assert "neither hand" in check_selection("give", [77], [], mine, theirs).message


def test_a_match_through_the_api_is_recorded_and_reviewed(start_play_server, db_path) -> None:
    server = start_play_server()
    seat = ApiSeat(server.client, "housebot-practise")
    assert seat.state["Opponent"] == "housebot-practise" and seat.state["Style"]["MoveTimeMs"] == 120_000
    refused = seat.client.post(f"/play/api/games/{seat.token}/move", json={"Action": "lay", "Mine": [1, 2]})
    assert refused.status_code == 200 and refused.json()["Sent"] is False
    used: set[str] = set()
    while seat.state["Running"]:
        seat.wait_for_turn()
        if not seat.state["Running"]:
            break
        hand, theirs = seat.state["MyHand"], seat.state["OppHand"]
        if "take" not in used:
            seat.move("take", theirs=[theirs[0]["Id"]])
            used.add("take")
        elif "give" not in used:
            seat.move("give", mine=[hand[0]["Id"]])
            used.add("give")
        elif "waste" not in used and no_set(hand):
            unconfirmed = seat.move("lay", mine=no_set(hand) or [])
            assert unconfirmed["Sent"] is False and unconfirmed["Verdict"]["NeedsConfirm"]
            assert seat.move("lay", mine=no_set(hand) or [], confirm=True)["Result"] == "SUCCESS"
            used.add("waste")
        else:
            chosen = valid_set(hand)
            result = seat.move("lay", mine=chosen) if chosen else seat.move("give", mine=[hand[0]["Id"]])
            assert result["Result"] == "SUCCESS", result
            used.add("lay" if chosen else "give")
    assert {"take", "give", "lay"} <= used
    assert seat.state["GameStatus"] in ("WON", "LOST", "DRAWN")
    events = seat.state["Events"]
    assert any(not event["IsYou"] for event in events) and events[-1].get("RoundEnded")
    assert any(event["Kind"] == "waste" and event["IsYou"] for event in events) == ("waste" in used)
    review = own_review(seat.client, seat.token)
    check_review_is_the_records_review(review, seat.client)
    # Every move the person made is graded.
    assert len(review["Moves"]) == sum(1 for event in events if event["IsYou"])
    # The record is whole: the viewer's steps and `rummy-vision replay` rebuild it.
    steps = server.get(f"/viewer/api/games/{seat.state['GameId']}/steps")
    assert steps.status_code == 200 and not steps.json()["Mismatches"]
    assert len(steps.json()["Steps"]) == len(events) + 1
    # Each reviewed move links to its own step in the viewer.
    for entry in review["Moves"]:
        step = steps.json()["Steps"][entry["Step"]]
        assert step["Player"] == "human" and step["Move"] == entry["Move"]
    listed = server.get("/games").json()["Games"]
    assert listed[0]["Players"] == ["human", "housebot-practise"]
    replay = CliRunner().invoke(app, ["replay", str(seat.state["GameId"]), "--db", str(db_path), "--turn", "3"])
    assert replay.exit_code == 0, replay.output


def test_the_coach_and_review_in_win_probabilities(start_play_server) -> None:
    server = start_play_server(seed=3)
    seat = ApiSeat(server.client, "housebot-greedy", objective="win")
    while seat.state["Running"]:
        seat.wait_for_turn()
        if seat.state["Running"]:
            advice = seat.client.get(f"/play/api/games/{seat.token}/coach").json()
            assert advice["Objective"] == "win" and all(0 <= move["Value"] <= 1 for move in advice["Moves"])
            chosen = valid_set(seat.state["MyHand"])
            seat.move("lay", mine=chosen) if chosen else seat.move("give", mine=[seat.state["MyHand"][0]["Id"]])
    review = own_review(seat.client, seat.token)
    assert review["Objective"] == "win"
    check_review_is_the_records_review(review, seat.client)
    # Per decision, on average and as accuracy: never a sum of win probabilities (which can pass 100%).
    assert "accuracy" in review["Summary"] and "in all" not in review["Summary"]


def test_a_person_who_leaves_loses_on_time_and_the_record_replays(start_play_server, db_path) -> None:
    # A short move time stands in for the style's two minutes: the seat is left alone, as when a tab closes.
    server = start_play_server(move_time_ms=1200)
    seat = ApiSeat(server.client, "housebot-practise", style=5)
    seat.wait_for_turn()
    deadline = time.monotonic() + 10
    while seat.state["Running"] and time.monotonic() < deadline:
        seat.refresh(wait_ms=2000)
    assert seat.state["GameStatus"] == "LOST_BY_TIMEOUT"
    assert seat.state["Result"].startswith("You lost on time")
    records = Records(db_path)
    try:
        summary = records.match_summary(seat.state["GameId"])
        record = records.match_record(seat.state["GameId"])
    finally:
        records.close()
    assert summary is not None and record is not None
    assert summary["EndReason"] == "timeout" and summary["GameStatus"] == ["LOST_BY_TIMEOUT", "WON_BY_TIMEOUT"]
    assert not replay_record(record).mismatches
    assert server.get(f"/viewer/api/games/{seat.state['GameId']}/steps").status_code == 200
    # A review of a lost-on-time match lists the moves that were made (perhaps none), without failing.
    assert seat.client.get(f"/play/api/games/{seat.token}/review").status_code == 200


def test_bad_requests_are_explained(start_play_server) -> None:
    server = start_play_server()
    client = server.client
    unknown = client.post("/play/api/games", json={"Opponent": "nobody", "GameStyleId": 5})
    assert unknown.status_code == 400 and "unknown opponent" in unknown.json()["ErrorMessage"]
    style = client.post("/play/api/games", json={"Opponent": "housebot-practise", "GameStyleId": 99})
    assert style.status_code == 400 and "no game style 99" in style.json()["ErrorMessage"]
    garbage = client.post("/play/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert garbage.status_code == 400 and "not valid JSON" in garbage.json()["ErrorMessage"]
    coach = client.post(
        "/play/api/games", json={"Opponent": "housebot-practise", "GameStyleId": 5, "Coach": {"Strategy": "random"}}
    )
    assert coach.status_code == 400 and "values every move" in coach.json()["ErrorMessage"]
    assert client.get("/play/api/games/nope").status_code == 404
    seat = ApiSeat(client, "housebot-practise")
    wrong = client.post(f"/play/api/games/{seat.token}/move", json={"Action": "lay", "Mine": "1,2,3"})
    assert wrong.status_code == 400 and "Mine" in wrong.json()["ErrorMessage"]
    assert client.get(f"/play/api/games/{seat.token}/review").status_code == 409


def test_the_styles_for_people_are_listed_to_bots_and_to_the_page(start_play_server) -> None:
    server = start_play_server()
    bots = server.client.post("/prod/GM-GetListOfGameStyles", json={"BotId": "x", "BotPassword": "y"}).json()
    assert bots["Result"] == "INVALID_LOGIN_OR_PASSWORD"  # the protocol's list needs a bot; the page's does not
    options = server.get("/play/api/options").json()
    styles = {style["GameStyleId"]: style for style in options["Styles"]}
    # The page offers the people's styles first: two minutes a move (1 and 3 rounds) and no limit.
    assert [style["GameStyleId"] for style in options["Styles"][:3]] == [5, 6, 7]
    assert styles[5]["MoveTimeMs"] == 120_000 and styles[6]["Rounds"] == 3 and styles[7]["NoLimit"]
    assert 4 not in styles  # a staked style is not offered to people
    assert {"housebot-practise", "housebot-easy", "housebot-hard", "housebot-perfect"} <= {
        opponent["Name"] for opponent in options["Opponents"]
    }
    assert "heuristic" in options["Coaches"] and "random" not in options["Coaches"]
    # The page preselects the coach the server would pick: `perfect` needs its table, absent here.
    assert options["DefaultCoach"] == "expectimax"
