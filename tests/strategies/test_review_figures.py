"""The review's figures for P(win): per decision, on average and as accuracy (lichess's formula and
thresholds), never a sum of probabilities; and no "better move" is listed with a loss that shows as 0.0."""

from __future__ import annotations

import re

import pytest

from strategies.coaching.game_review import GameReview, GradedDecision, move_accuracy
from strategies.search import Objective


def _decision(step: int, loss: float, seat: int = 0) -> GradedDecision:
    played, best = {"Give": step}, {"Take": step}
    return GradedDecision(
        step, 0, step, seat, "me", 9, played, "Give x", 0.5 - loss, best, "Take y", 0.5, loss, True, "table", 4
    )


def _review(losses: list[float], objective: Objective = Objective.WIN) -> GameReview:
    decisions = tuple(_decision(number, loss) for number, loss in enumerate(losses, start=1))
    return GameReview(1, "match 1", ("me", "bot"), objective, "perfect", decisions, ())


def test_a_loss_too_small_to_show_is_a_best_move_not_a_mistake() -> None:
    review = _review([0.0003, 0.0, 0.2])
    assert [decision.step for decision in review.worst] == [3]  # 0.03% would show as "0.0%"
    assert review.totals()[0].best_moves == 2
    assert all(entry["loss"] >= 0.0005 for entry in review.to_json()["Worst"])


def test_pwin_losses_are_shown_per_decision_and_as_accuracy_never_summed() -> None:
    losses = [0.45, 0.3, 0.25, 0.2, 0.12, 0.07, 0.0, 0.0, 0.02, 0.03]  # 1.44 in all: no probability
    totals = review_totals = _review(losses).to_json()["Totals"][0]
    summary = totals["Summary"]
    assert all(float(figure) <= 100 for figure in re.findall(r"(\d+(?:\.\d+)?)%", summary)), summary
    assert "144" not in summary and "in all" not in summary
    assert f"{sum(losses) / len(losses):.1%}" in summary  # the mean loss a decision
    assert (review_totals["Inaccuracies"], review_totals["Mistakes"], review_totals["Blunders"]) == (1, 1, 4)
    assert review_totals["Accuracy"] == pytest.approx(sum(move_accuracy(loss) for loss in losses) / 10, abs=0.05)


def test_lichess_accuracy_of_one_move() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(0.10) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669, abs=1e-3)
    assert move_accuracy(1.0) == 0.0


def test_margin_keeps_its_total_in_points() -> None:
    summary = _review([3.0, 0.0, 1.5], Objective.MARGIN).to_json()["Totals"][0]["Summary"]
    assert "1.5 points of margin lost a decision on average (4.5 in all)" in summary


def test_the_win_review_on_a_partial_table_names_its_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    from strategies.coaching import grading

    monkeypatch.setattr(grading, "margin_layers_built", lambda rules=None: 7)  # after `solve --top 7`
    described = grading.EngineGrader("win").describe()
    assert "layers 1..7" in described, described
    whole = grading.EngineGrader("win", has_table=True).describe()
    assert "layers 1.." not in whole and "mapped to a win probability" in whole
