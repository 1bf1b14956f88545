"""A `rummy-vision match` run and a tournament each appear as one entry in the viewer, with their standings and
their rounds inside, each round with its own start time."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from bot.cli import app

runner = CliRunner()


@pytest.fixture
def match_and_tournament(db_path) -> int:
    """Store a match run, then a tournament; return the tournament's number as the CLI printed it."""
    played = runner.invoke(
        app, ["match", "greedy", "random", "--rounds", "4", "--duplicate", "--time-ms", "50", "--db", str(db_path)]
    )
    assert played.exit_code == 0, played.output
    held = runner.invoke(app, ["tournament", "random", "greedy", "heuristic", "--rounds", "2", "--db", str(db_path)])
    assert held.exit_code == 0, held.output
    number = re.search(r"Stored as tournament (\d+)", " ".join(held.output.split()))
    assert number, held.output
    return int(number.group(1))


def test_entries_group_a_match_run_and_a_tournament(start_viewer_server, match_and_tournament) -> None:
    server = start_viewer_server()
    entries = server.get("/viewer/api/entries").json()["Entries"]
    assert [(entry["Entry"], entry["Kind"]) for entry in entries] == [("run", "tournament"), ("run", "match")]
    tournament, match = entries
    assert match["Games"] == 4 and match["Players"] == ["greedy", "random"]
    assert [row[0] for row in match["Standings"]["Rows"]] == ["greedy", "random"]
    assert match["Standings"]["Columns"][:2] == ["player", "won"]
    assert tournament["Games"] == 6 and sorted(tournament["Players"]) == ["greedy", "heuristic", "random"]
    assert [row[0] for row in tournament["Standings"]["Rows"]] == ["1", "2", "3"]
    # The match run came first, so the tournament's run number differs from the number the CLI gave it.
    assert tournament["RunId"] != match_and_tournament and tournament["TournamentId"] == match_and_tournament
    assert match["TournamentId"] is None

    detail = server.get(f"/viewer/api/runs/{match['RunId']}").json()
    games = detail["Games"]
    assert len(games) == 4 and [game["Position"] for game in games] == [0, 1, 2, 3]
    # Duplicate deals: each deal twice, seats swapped.
    assert games[0]["Players"] == ["greedy", "random"] and games[1]["Players"] == ["random", "greedy"]
    starts = [game["StartedAt"] for game in games]
    assert starts == sorted(starts) and len(set(starts)) == 4  # each round its own start, in the order played
    won = sum(game["RoundsWon"][game["Players"].index("greedy")] for game in games)
    assert str(won) == detail["Standings"]["Rows"][0][1]

    steps = server.get(f"/viewer/api/games/{games[0]['GameId']}/steps").json()
    assert steps["RunId"] == match["RunId"]
    assert server.get("/viewer/api/runs/999").status_code == 404


@pytest.mark.browser
def test_viewer_shows_a_tournament_with_its_standings_and_rounds(
    start_viewer_server, match_and_tournament, page
) -> None:
    server = start_viewer_server()
    page.goto(server.base + "/viewer")
    page.locator("tr.run-row").first.wait_for()
    assert page.locator("tr.run-row").count() == 2 and page.locator("tr.game-row").count() == 0
    tournament = page.locator("tr.run-row[data-kind='tournament']")
    assert "heuristic" in tournament.inner_text() and "6" in tournament.inner_text()
    assert tournament.locator("a").inner_text() == f"Tournament {match_and_tournament}"
    tournament.click()

    page.wait_for_selector("#run-view:not([hidden]) tr.run-game-row")
    assert "Tournament" in page.inner_text("#run-title")
    assert page.locator("#standings tr.standing-row").count() == 3
    assert page.inner_text("#standings thead").split()[:3] == ["rank", "bot", "rating"]
    rows = page.locator("tr.run-game-row")
    assert rows.count() == 6
    times = [rows.nth(index).locator("td.time").inner_text() for index in range(6)]
    assert all(times) and len(set(times)) >= 1
    game_id = rows.first.get_attribute("data-game-id")
    rows.first.click()

    page.wait_for_selector("#step-controls:not([hidden])")
    assert page.url.endswith(f"#game/{game_id}/step/0")
    back = page.locator("#back")
    assert back.get_attribute("href").startswith("#run/")
    back.click()
    page.wait_for_selector("#run-view:not([hidden]) tr.run-game-row")
    assert page.locator("#standings tr.standing-row").count() == 3
