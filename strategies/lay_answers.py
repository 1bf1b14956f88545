"""What the referee's answer to a Lay would be worth to the decisions after it (`perfect:teach=T`).

The tables value every move as if the cards were known from then on, so by them no move teaches anything: a Lay
that would sort out which of our cards are which is worth no more than a pass that would not. Yet the next
decision is made on what the referee's answers will have shown, not on the truth.

A Lay's answer splits the assignments of the belief by what the referee would say: refused, or accepted with
the points of one kind of set (20, 30, 50: one landmark; 25, 35: all different). Deciding after the answer, the
player could pick a move for each part; deciding now, one move serves them all. What the split is worth, on the
values of the decision at hand (those of the moves open now, in each assignment), is

    sum over parts P of (max over moves m of sum over s in P of w_s V_s(m))  -  max over m of sum over s of w_s V_s(m)

divided by the total weight: the value of the answer's information for a decision like this one (never below 0).
It stands in for what the answer is worth to the next decision, which comes after the opponent's move and
the draw and is not valued here, so it is a proxy: scaled by `teach` and added to the Lay's rank, as `doubt` is.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def answer_worth(
    table: Sequence[Sequence[float]] | np.ndarray,
    weights: Sequence[float],
    answers: Sequence[Sequence[Hashable] | np.ndarray | None],
) -> list[float]:
    """For each candidate (a row of `table`: its value in each valued assignment), what its answer's split of the
    assignments is worth (above); `answers[i]` is what the referee would say to candidate i in each assignment,
    or None for a move the referee says nothing about (Take, Give): 0 for those."""
    values = np.asarray(table, dtype=float)
    w = np.asarray(weights, dtype=float)
    total = float(w.sum())
    if values.size == 0 or total <= 0:
        return [0.0] * len(answers)
    now = float((values @ w).max())
    worth = []
    for said in answers:
        if said is None or len(set(said)) < 2:
            worth.append(0.0)
            continue
        split = 0.0
        for answer in set(said):
            part = w * np.fromiter((a == answer for a in said), dtype=bool, count=len(said))
            split += float((values @ part).max())
        worth.append(max(0.0, split - now) / total)
    return worth
