"""A review over a partial margin table (`rummy-vision solve --top N`): the review grades with the coach's
searcher then (`perfect` needs the whole table), and neither its header nor a decision's source may
claim the table's exact values where the table does not reach."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_steps import recorded_round

from rummy import DEFAULT_RULES
from strategies.coaching.game_review import review_record
from strategies.coaching.grading import EngineGrader, ValueSource, default_grader
from strategies.table.margin.build import build_table

TOP = 1  # layer 1 alone: the cheapest real-rules table, positions with up to 2 turns left looked up

pytestmark = pytest.mark.timeout(3600)  # a few CPU seconds, but a busy machine may stretch them far


def test_a_partial_margin_table_is_not_said_to_grade_every_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "margin-1.rvt"
    build_table(table, DEFAULT_RULES, top=TOP)
    monkeypatch.setenv("RUMMY_VISION_TABLE", str(table))
    monkeypatch.setenv("RUMMY_VISION_WIN_TABLE", str(tmp_path / "no-win-table.rvw"))
    grader = default_grader("margin")
    assert isinstance(grader, EngineGrader) and grader.table_layers == TOP and not grader.whole_table
    review = review_record(recorded_round(tmp_path / "records.sqlite3", "review:1"), grader)
    assert f"layers 1..{TOP}" in review.grader and review.grader != "exact margins from the perfect-play table"
    assert "the table's exact margins at its leaves" in review.grader
    by_source: dict[str, set[int]] = {}
    for decision in review.decisions:
        by_source.setdefault(decision.source, set()).add(decision.turns_left)
        if decision.source == ValueSource.TABLE:
            assert decision.exact and decision.turns_left <= TOP + 1
        elif decision.exact:
            assert decision.source == ValueSource.SOLVE and decision.turns_left > TOP + 1
        else:
            assert decision.source == ValueSource.SEARCH
    assert set(by_source) == {ValueSource.TABLE, ValueSource.SOLVE, ValueSource.SEARCH}, by_source
    assert not review.all_exact and "estimates, not exact values" in review.notes[0]
