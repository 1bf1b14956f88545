"""In-process matches, duplicate deals, tournaments and their records."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.matches.local_match import Contender, play_round, schedule
from bot.matches.statistics import wilson_interval
from bot.matches.tournament import run_tournament
from bot.matches.tournament_records import load_standings, store_tournament
from rummy import Match

runner = CliRunner()


def test_wilson_interval_known_values():
    # Reference values of the Wilson score interval (z = 1.96) for 8 wins in 10 and 0 in 10.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)


def test_duplicate_schedule_plays_each_deal_twice_with_seats_swapped():
    plan = schedule(Contender("greedy"), Contender("random"), 6, "s", duplicate=True)
    assert [seat for _deal, seat in plan] == [0, 1, 0, 1, 0, 1]
    assert plan[0][0] == plan[1][0] and plan[2][0] == plan[3][0] and plan[0][0] != plan[2][0]


def test_duplicate_rounds_really_reuse_the_deal_with_swapped_seats():
    greedy, rand = Contender("greedy"), Contender("random")
    first = play_round("deal:7", (greedy, rand))
    second = play_round("deal:7", (rand, greedy))
    assert first.kinds == second.kinds and first.first_mover == second.first_mover
    deal = Match(seed="deal:7").current.deal
    # The same cards sit in the same seats: greedy held seat 0's hand first, random holds it now.
    assert first.players == ("greedy", "random") and second.players == ("random", "greedy")
    assert deal == Match(seed="deal:7").current.deal


def test_match_json_summary_matches_the_recorded_rounds(tmp_path):
    db = tmp_path / "records.sqlite3"
    arguments = ["match", "greedy", "random", "--rounds", "6", "--seed", "3", "--db", str(db), "--json"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["rounds"] == 6
    names = [player["name"] for player in summary["players"]]
    assert names == ["greedy", "random"]
    with sqlite3.connect(db) as connection:
        rows = [
            connection.execute(
                "SELECT m.player0, m.player1, r.winner, r.points0, r.points1 FROM matches m"
                " JOIN rounds r USING (game_id) WHERE m.game_id = ?",
                (game_id,),
            ).fetchone()
            for game_id in summary["records"]["game_ids"]
        ]
    assert len(rows) == 6
    wins = {name: 0 for name in names}
    margins = {name: 0 for name in names}
    for player0, player1, winner, points0, points1 in rows:
        wins[(player0, player1)[winner]] += 1
        margins[player0] += points0 - points1
        margins[player1] += points1 - points0
    for player in summary["players"]:
        assert player["wins"] == wins[player["name"]]
        assert player["mean_margin"] == pytest.approx(margins[player["name"]] / 6, abs=1e-3)
        assert player["ci95"][0] <= player["win_rate"] <= player["ci95"][1]
    assert sum(player["wins"] for player in summary["players"]) == 6


def test_match_rejects_unknown_players_with_a_clear_error():
    result = runner.invoke(app, ["match", "greedy", "nosuchbot"])
    assert result.exit_code != 0
    assert "unknown strategy 'nosuchbot'" in result.output


def test_three_bot_tournament_ratings_follow_strength(tmp_path):
    contenders = [Contender("random"), Contender("greedy"), Contender("heuristic")]
    played, table = run_tournament(contenders, rounds_per_pair=40, seed="t")
    assert [standing.rating.name for standing in table] == ["heuristic", "greedy", "random"]
    assert all(s.rating.low <= s.rating.rating <= s.rating.high for s in table)
    assert len(played) == 3 * 40
    tournament_id = store_tournament(tmp_path / "t.sqlite3", "t", 40, played, table)
    stored = load_standings(tmp_path / "t.sqlite3", tournament_id)
    assert [name for name, *_ in stored] == ["heuristic", "greedy", "random"]
    assert sum(wins for _name, _rating, wins, _rounds in stored) == len(played)


def test_worker_processes_give_the_same_results_as_one_process():
    contenders = [Contender("random"), Contender("greedy")]
    one, _ = run_tournament(contenders, rounds_per_pair=6, seed="w", workers=1)
    two, _ = run_tournament(contenders, rounds_per_pair=6, seed="w", workers=2)
    assert [game.result.replayable() for game in one] == [game.result.replayable() for game in two]


def test_duplicate_match_records_both_plays_of_each_deal(tmp_path):
    db = tmp_path / "records.sqlite3"
    arguments = ["match", "greedy", "random", "--rounds", "4", "--duplicate", "--db", str(db), "--json"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    game_ids = json.loads(result.stdout.strip().splitlines()[-1])["records"]["game_ids"]
    with sqlite3.connect(db) as connection:
        seeds = [
            connection.execute("SELECT seed, player0 FROM matches WHERE game_id=?", (g,)).fetchone() for g in game_ids
        ]
        decks = [
            connection.execute(
                "SELECT token FROM deal_cards WHERE game_id=? AND dealt_to='DECK' ORDER BY position", (g,)
            ).fetchall()
            for g in game_ids
        ]
    assert seeds[0][0] == seeds[1][0] and seeds[0][1] != seeds[1][1]  # same deal, seats swapped
    assert decks[0] == decks[1] and decks[0] != decks[2]


def test_suggestions_are_recorded_and_reach_the_viewer(tmp_path):
    import httpx

    from bot.matches.match_records import store_rounds
    from server.embedded import EmbeddedServer
    from server.settings import Settings

    result = play_round("suggest:1", (Contender("heuristic"), Contender("greedy")))
    searched = [move for move in result.moves if move.seat == 0 and move.suggestions]
    assert searched, "the searching strategy recorded no suggestions"
    for move in searched:
        best = move.suggestions[0]
        # A strategy without noise plays its best suggestion; win values are probabilities.
        assert best["Move"] == move.move and best["Exact"] is True
        # Runner-ups from a pruned search are only bounded, and say so.
        assert all(s["Exact"] or s["Label"].endswith("(value at most)") for s in move.suggestions[1:])
        assert all(0.0 <= suggestion["Value"] <= 1.0 for suggestion in move.suggestions)
        assert [s["Value"] for s in move.suggestions] == sorted((s["Value"] for s in move.suggestions), reverse=True)
    assert not any(move.suggestions for move in result.moves if move.seat == 1)  # greedy has no values
    db = tmp_path / "records.sqlite3"
    _path, (game_id,) = store_rounds(db, [(result, 0)], ("heuristic", "greedy"))
    with EmbeddedServer(Settings(db_path=db)) as server:
        steps = httpx.get(f"{server.base}/viewer/api/games/{game_id}/steps", timeout=10).json()["Steps"]
    shown = [step for step in steps if step.get("Suggestions")]
    assert len(shown) == len(searched)
    assert shown[0]["Suggestions"][0]["Label"].startswith(("Lay", "Take", "Give", "Waste"))
