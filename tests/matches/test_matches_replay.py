"""Replays: records rebuild every gamestate, replay files give back what was received, what-ifs are legal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from bot.replay.recording import MatchRecorder
from bot.replay.replays import continue_with, replay_file
from rummy import Match, parse_move, render_gamestate
from rummy.rebuild import ReplayError, comparable, replay_record
from server.storage.records import Records

runner = CliRunner()


@pytest.fixture
def recorded(tmp_path):
    """Three in-process rounds stored in a records file: (db path, game ids, round results)."""
    played = [(play_round(f"replay:{index}", (Contender("greedy"), Contender("heuristic"))), 0) for index in range(3)]
    db, game_ids = store_rounds(tmp_path / "records.sqlite3", played, ("greedy", "heuristic"))
    return db, game_ids, [result for result, _seat in played]


def load(db, game_id):
    records = Records(db)
    try:
        return records.match_record(game_id)
    finally:
        records.close()


def test_a_record_rebuilds_every_gamestate_that_was_served(recorded):
    db, game_ids, results = recorded
    for game_id, result in zip(game_ids, results):
        record = load(db, game_id)
        replay = replay_record(record)
        assert replay.mismatches == ()
        served = [move["GameState"] for move in record["Moves"]]
        rebuilt = [step.views[step.mover] for step in replay.steps[1:]]
        assert [comparable(state) for state in rebuilt] == [comparable(state) for state in served]
        final = replay.steps[-1].views
        assert (final[0]["MyPoints"], final[1]["MyPoints"]) == result.points
        assert len(replay.steps) == len(result.moves) + 1


def test_replay_file_gives_back_every_gamestate_received(tmp_path):
    match = Match(seed="file")
    recorder = MatchRecorder.open(tmp_path, {"game_id": 1, "bot_id": "me", "opponent_id": "you"})
    received = []
    while not match.over:
        seat = match.current.mover
        view = render_gamestate(match, 0, game_id=1, opponent_id="you")
        recorder.gamestate("GM-PollForGameState", "SUCCESS", view)
        received.append(view)
        move = {"Give": match.current.hands[seat][0].id}
        if seat == 0:
            recorder.move(move=move, result="SUCCESS", source="bot")
        match.apply(seat, parse_move(move))
    final = render_gamestate(match, 0, game_id=1, opponent_id="you")
    recorder.gamestate("GM-MakeMove", "SUCCESS", final)
    received.append(final)
    recorder.close()
    replay = replay_file(recorder.path)
    distinct = [state for index, state in enumerate(received) if index == 0 or state != received[index - 1]]
    assert [step.views[0] for step in replay.steps] == distinct
    assert replay.players == ("me", "you")


def test_what_if_continues_legally_on_the_recorded_deck(recorded):
    db, game_ids, _results = recorded
    replay = replay_record(load(db, game_ids[0]))
    for start in (0, 3, len(replay.steps) // 2):
        what_if, rounds_won = continue_with(replay, start, "heuristic", "random")
        assert sum(rounds_won) == 1
        # Every continued move was applied by the engine (an illegal one would have raised), and the
        # position it starts from is the recorded one.
        assert what_if.steps[0] == replay.steps[start]
        assert all(step.move is not None for step in what_if.steps[1:])
        last = what_if.steps[-1].views[0]
        assert last["GameStatus"] in {"WON", "LOST"}


def test_what_if_needs_a_record_and_a_step_in_range(recorded, tmp_path):
    db, game_ids, _results = recorded
    replay = replay_record(load(db, game_ids[0]))
    with pytest.raises(ReplayError, match="out of range"):
        continue_with(replay, 999, "greedy")
    recorder = MatchRecorder.open(tmp_path, {"game_id": 1, "bot_id": "me", "opponent_id": "you"})
    recorder.gamestate("GM-OfferGame", "SUCCESS", render_gamestate(Match(seed=1), 0))
    recorder.close()
    with pytest.raises(ReplayError, match="needs the match's record"):
        continue_with(replay_file(recorder.path), 0, "greedy")


def test_replay_command_shows_a_step_and_reports_bad_sources(recorded, tmp_path):
    db, game_ids, _results = recorded
    shown = runner.invoke(app, ["replay", str(game_ids[1]), "--db", str(db), "--turn", "2"])
    assert shown.exit_code == 0, shown.output
    assert "step 2/" in shown.output and "played" in shown.output
    missing = runner.invoke(app, ["replay", "424242", "--db", str(db)])
    assert missing.exit_code == 2 and "no match 424242" in missing.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json at all\n")
    bad = runner.invoke(app, ["replay", str(broken)])
    assert bad.exit_code == 2 and "error" in bad.output
