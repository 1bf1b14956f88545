"""A person's game is in the records and reviewed like any other: `rummy-vision review` and the viewer's
review grade every decision of both sides, the person's under the person's name.

The person plays a house bot through /play/api on a real server (loopback), then through the terminal
command on a referee of its own; nothing is faked between the seat and the records."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from play_helpers import ApiSeat, no_set, own_review, valid_set
from typer.testing import CliRunner

from bot.cli import app
from server.storage.records import Records

PERSON = "Ada Lovelace"  # a name with a space, as a person may give it


def play_to_the_end(seat: ApiSeat) -> None:
    """Take, give and a deliberate pass once each, then lay a set when the hand has one, else give."""
    used: set[str] = set()
    while seat.state["Running"]:
        seat.wait_for_turn()
        if not seat.state["Running"]:
            break
        hand, theirs = seat.state["MyHand"], seat.state["OppHand"]
        waste = no_set(hand)
        if "take" not in used and theirs:
            result, kind = seat.move("take", theirs=[theirs[0]["Id"]]), "take"
        elif "waste" not in used and waste:
            result, kind = seat.move("lay", mine=waste, confirm=True), "waste"
        elif chosen := valid_set(hand):
            result, kind = seat.move("lay", mine=chosen), "lay"
        else:
            result, kind = seat.move("give", mine=[hand[0]["Id"]]), "give"
        assert result["Result"] == "SUCCESS", result
        used.add(kind)
    assert {"take", "waste"} <= used


def match_record(db_path: Path, game_id: int) -> dict[str, Any]:
    records = Records(db_path)
    try:
        record = records.match_record(game_id)
    finally:
        records.close()
    assert record is not None
    return record


def check_review_of_record(review: dict[str, Any], record: dict[str, Any], person: str) -> None:
    """Every applied move of the record is one decision, named for its player, with its loss."""
    applied = [move for move in record["Moves"] if move["Applied"]]
    assert review["GameId"] == record["GameId"] and review["Players"] == record["Players"]
    assert person in review["Players"]
    decisions = review["Decisions"]
    assert [d["Step"] for d in decisions] == list(range(1, len(applied) + 1))
    for decision, move in zip(decisions, applied, strict=True):
        assert decision["Seat"] == move["Seat"] and decision["Player"] == move["Bot"]
        assert decision["Player"] == record["Players"][move["Seat"]]
        assert decision["Move"] == move["Move"]
        assert decision["loss"] >= 0
        assert abs(decision["loss"] - max(0.0, decision["BestValue"] - decision["PlayedValue"])) < 1e-5, decision
        assert decision["Source"] and isinstance(decision["Exact"], bool)
    assert {d["Player"] for d in decisions} == set(record["Players"])  # both sides, the person's included
    for totals in review["Totals"]:
        mine = [d for d in decisions if d["Seat"] == totals["Seat"]]
        assert totals["Player"] == record["Players"][totals["Seat"]] and totals["Decisions"] == len(mine)


def cli_review(db_path: Path, *arguments: str) -> dict[str, Any]:
    answer = CliRunner().invoke(app, ["review", *arguments, "--db", str(db_path), "--json"])
    assert answer.exit_code == 0, answer.output
    data: dict[str, Any] = json.loads(answer.stdout)
    return data


def test_a_game_played_at_play_is_reviewed_for_both_sides(start_play_server: Callable[..., Any], db_path: Path) -> None:
    server = start_play_server(seed=7)
    seat = ApiSeat(server.client, "housebot-greedy", objective="win", name=PERSON)
    play_to_the_end(seat)
    game_id = seat.state["GameId"]
    record = match_record(db_path, game_id)
    assert record["Status"] == "FINISHED" and PERSON in record["Players"]
    # The viewer's review, as JSON and as its page. Grading takes seconds of CPU (more the first time a
    # process loads the compiled kernel), so the request may wait far longer than the client's default.
    answer = server.client.get(f"/viewer/api/games/{game_id}/review", timeout=300)
    assert answer.status_code == 200, answer.text
    viewer = answer.json()
    check_review_of_record(viewer, record, PERSON)
    page = server.get(f"/viewer/review/{game_id}")
    assert page.status_code == 200 and PERSON in page.text.split("</h1>")[0]  # named in the title
    assert page.text.count(f"<td>{PERSON}</td>") >= sum(1 for d in viewer["Decisions"] if d["Player"] == PERSON)
    # The command line: by GameId and as the latest match, the same grades as the viewer's.
    by_id = cli_review(db_path, str(game_id))
    check_review_of_record(by_id, record, PERSON)
    assert by_id["Decisions"] == viewer["Decisions"] and by_id["Totals"] == viewer["Totals"]
    latest = CliRunner().invoke(app, ["review", "latest", "--db", str(db_path)])
    assert latest.exit_code == 0, latest.output
    assert f"Review of match {game_id}" in latest.stdout and PERSON in latest.stdout
    # The page's own review of the person's moves covers the same steps as the person's decisions.
    own = own_review(seat.client, seat.token)
    person_steps = {d["Step"]: d["Move"] for d in viewer["Decisions"] if d["Player"] == PERSON}
    assert {entry["Step"]: entry["Move"] for entry in own["Moves"]} == person_steps
    # One review engine: the page's review of the person is the viewer's and the command's, figure for figure,
    # and its losses are per decision, on average and as accuracy, never summed past 100%.
    seat_index = viewer["Players"].index(PERSON)
    assert own["Totals"] == viewer["Totals"][seat_index] == by_id["Totals"][seat_index]
    for entry in own["Moves"]:
        same = next(d for d in viewer["Decisions"] if d["Step"] == entry["Step"])
        assert (entry["Lost"], entry["PlayedValue"], entry["BestValue"]) == (
            same["loss"],
            same["PlayedValue"],
            same["BestValue"],
        )
    summary = own["Summary"]
    assert summary in " ".join(latest.stdout.split()) and "accuracy" in summary and "in all" not in summary
    assert all(float(figure) <= 100 for figure in re.findall(r"(\d+(?:\.\d+)?)%", summary))


def test_a_terminal_game_is_reviewed_for_both_sides(tmp_path: Path) -> None:
    db = tmp_path / "records.sqlite3"
    lines = ["take 1"] + ["give 1"] * 30
    played = CliRunner().invoke(
        app,
        ["play-human", "--opponent", "practise", "--coach", "heuristic", "--name", PERSON, "--db", str(db)],
        input="\n".join(lines) + "\n",
    )
    assert played.exit_code == 0, played.output
    review = cli_review(db, "latest")
    check_review_of_record(review, match_record(db, review["GameId"]), PERSON)
    # The terminal's end review gives the review engine's figures for the person, word for word.
    person = next(totals for totals in review["Totals"] if totals["Player"] == PERSON)
    assert person["Summary"] in " ".join(played.output.split())
