"""The review of a recorded match: every decision graded as `analyze` grades it, exact values checked
against the full-depth search, and estimates marked as estimates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from review_steps import positions_from_steps, recorded_round, with_alternatives

from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from rummy import DEFAULT_RULES
from strategies.analyze import analyse
from strategies.coaching.game_review import ReviewError, recorded_decisions, review_record
from strategies.coaching.grading import EngineGrader, ValueSource, table_exists
from strategies.coaching.review_page import review_html
from strategies.position import parse_position
from strategies.search import Objective
from strategies.search.exact import solve

# greedy v random on this deal plays all 20 turns, so the last turns are solved exactly on demand.
FULL_ROUND_SEED = "review:1"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return recorded_round(tmp_path_factory.mktemp("review") / "records.sqlite3", FULL_ROUND_SEED)


@pytest.mark.parametrize("objective", ["win", "margin"])
def test_review_agrees_with_analyze_on_every_step(record: dict[str, Any], objective: str) -> None:
    grader = EngineGrader(objective)
    review = review_record(record, grader)
    rebuilt = positions_from_steps(record)
    assert [decision.step for decision in review.decisions] == [step for step, _, _ in rebuilt]
    assert len(review.decisions) == DEFAULT_RULES.max_turns
    expected = 0
    for decision, (step, raw, played) in zip(review.decisions, rebuilt, strict=True):
        assert decision.played == played
        position = parse_position(raw)
        # Where the mover never saw the round's opening set, the review's values are expectations over the
        # deck make-ups it leaves possible: analyze answers each, weighted as the review weighs them.
        values: dict[int, float] = {}
        exact = True
        parts = with_alternatives(record, step, raw)
        for part, weight in parts:
            one = parse_position(part)
            analysis = analyse(one, "expectimax", objective, nodes=grader.nodes_for(one))
            exact = exact and analysis.exact
            for ranked in analysis.moves:
                if ranked.value is not None:
                    # By the cards it moves, in the step's own numbering: a make-up may number landmarks otherwise.
                    move_id = position.move_id(ranked.move)
                    values[move_id] = values.get(move_id, 0.0) + weight * ranked.value
        expected += parts[0][0] is not raw
        assert decision.expected == (parts[0][0] is not raw), step
        assert decision.exact == exact, step
        assert decision.best_value == pytest.approx(max(values.values())), step
        assert decision.played_value == pytest.approx(values[position.move_id(played)]), step
        assert decision.loss == pytest.approx(decision.best_value - decision.played_value), step
        assert decision.loss >= 0
        assert decision.player == record["Players"][decision.seat]
    assert expected > 0, "greedy opens this round with a set its opponent never saw: those grades are expectations"
    totals = review.totals()
    assert sum(t.decisions for t in totals) == len(review.decisions)
    assert sum(t.total_loss for t in totals) == pytest.approx(sum(d.loss for d in review.decisions))


@pytest.mark.parametrize("objective", [Objective.WIN, Objective.MARGIN])
def test_exact_grades_match_the_full_depth_search(record: dict[str, Any], objective: Objective) -> None:
    """Near the end of the round the grades are exact (solved on demand), and equal the pure-Python
    full-depth search's values, which share no code with the compiled kernel."""
    grader = EngineGrader(objective, has_table=False)
    checked = 0
    for decision in recorded_decisions(record):
        state = decision.position.state
        if state.turns_left > 3:
            continue
        grade = grader.grade(decision.position)
        assert grade.exact and grade.source is ValueSource.SOLVE
        truth = solve(state.copy(), objective).move_values
        for move, value in truth.items():
            shown = (value + 1) / 2 if objective is Objective.WIN else value
            assert grade.values[move] == pytest.approx(shown, abs=1e-6)
        checked += 1
    assert checked == 3


def test_estimates_are_marked_and_say_how_to_get_exact_values(record: dict[str, Any]) -> None:
    if table_exists():
        pytest.skip("a perfect-play table is installed here: margins are exact")
    review = review_record(record, EngineGrader("margin"))
    early = [decision for decision in review.decisions if decision.turns_left > 6]
    late = [decision for decision in review.decisions if decision.turns_left <= 5]
    assert early and all(not d.exact and d.source == "search" for d in early)
    assert late and all(d.exact and d.source == "on-demand solve" for d in late)
    data = review.to_json()
    assert data["AllExact"] is False
    assert "estimates, not exact values" in data["Notes"][0] and "rummy-vision solve" in data["Notes"][0]
    page = review_html(data)
    assert "rummy-vision solve" in page and "estimate (search)" in page and "exact (on-demand solve)" in page
    assert "<svg" in page and "http" not in page.replace("http-equiv", "")  # self-contained: no external asset


def test_review_json_lists_every_decision_with_player_and_loss(record: dict[str, Any]) -> None:
    data = review_record(record, EngineGrader("win")).to_json()
    assert len(data["Decisions"]) == DEFAULT_RULES.max_turns
    for decision in data["Decisions"]:
        assert decision["Player"] in ("greedy", "random") and decision["loss"] >= 0
    assert [point["Step"] for point in data["Chart"]] == [d["Step"] for d in data["Decisions"]]
    assert all(0 <= point["Value"] <= 1 for point in data["Chart"])
    worst = data["Worst"]
    assert worst == sorted(worst, key=lambda d: (-d["loss"], d["Step"]))
    assert all(d["Best"] != d["Played"] for d in worst)


def test_a_running_or_broken_record_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(ReviewError, match="still running"):
        review_record({**record, "Status": "RUNNING"}, EngineGrader("win"))
    with pytest.raises(ReviewError, match="not a match record"):
        review_record({"Status": "FINISHED"}, EngineGrader("win"))
    with pytest.raises(ReviewError, match="does not deal the recorded cards"):
        review_record({**record, "Seed": "another"}, EngineGrader("win"))


def test_cli_review_json_html_and_latest(record: dict[str, Any], tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from bot.cli.main import app

    db = tmp_path / "records.sqlite3"
    result = play_round(FULL_ROUND_SEED, (Contender("greedy"), Contender("random")))
    store_rounds(db, [(result, 0)], ("greedy", "random"))
    page = tmp_path / "review.html"
    answer = CliRunner().invoke(app, ["review", "latest", "--db", str(db), "--json", "--html", str(page)])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout)
    assert data["Objective"] == "win" and len(data["Decisions"]) == DEFAULT_RULES.max_turns
    assert page.read_text().startswith("<!doctype html>")
    shown = CliRunner().invoke(app, ["review", "1", "--db", str(db), "--objective", "margin"])
    assert shown.exit_code == 0 and "Biggest mistakes" in shown.stdout and "Totals" in shown.stdout
    missing = CliRunner().invoke(app, ["review", "7", "--db", str(db)])
    assert missing.exit_code == 2 and "no match 7" in missing.output
