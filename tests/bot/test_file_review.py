"""`review FILE` for a replay file whose match is not in the records: rebuilt from the file alone, with the
same grading as the review of the referee's record of that match."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.file_review import review_file
from strategies.coaching.game_review import review_record
from strategies.coaching.grading import EngineGrader

runner = CliRunner()
NODES = 2000  # a small search: the two reviews only need to grade alike, not well


def test_a_file_review_grades_each_decision_as_the_records_review(recorded) -> None:
    path, record = recorded
    from_records = review_record(record, EngineGrader("win", search_nodes=NODES)).decisions
    from_file = review_file(path, EngineGrader("win", search_nodes=NODES))
    # The file's steps with a mover are the match's applied moves in order (the last may be missing).
    from bot.replay.replays import replay_file

    order = [step.number for step in replay_file(path).steps if step.mover is not None]
    assert len(from_file.decisions) >= len(from_records) - 1
    for decision in from_file.decisions:
        same = from_records[order.index(decision.step)]
        assert decision.player == same.player
        assert decision.played_label == same.played_label and decision.best_label == same.best_label
        assert decision.played_value == pytest.approx(same.played_value, abs=1e-9)
        assert decision.best_value == pytest.approx(same.best_value, abs=1e-9)
        assert decision.exact == same.exact and decision.source == same.source
    assert "Rebuilt from the replay file" in " ".join(from_file.notes)


def test_cli_reviews_a_file_whose_match_is_not_in_the_records(recorded, tmp_path) -> None:
    path, record = recorded
    empty = tmp_path / "elsewhere.sqlite3"  # no records here: the match is known from the file only
    answer = runner.invoke(app, ["review", str(path), "--db", str(empty), "--json", "--nodes", str(NODES)])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout[answer.stdout.index("{") :])
    assert data["GameId"] == record["GameId"]
    assert {decision["Player"] for decision in data["Decisions"]} == set(record["Players"])
    assert all("loss" in decision and isinstance(decision["Exact"], bool) for decision in data["Decisions"])
    assert any("Rebuilt from the replay file" in note for note in data["Notes"])
    # A file that is no replay says so in one line.
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    refused = runner.invoke(app, ["review", str(bad), "--db", str(empty)])
    assert refused.exit_code == 2 and "replay file" in refused.output
