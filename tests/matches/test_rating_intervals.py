"""A perfect record over a few rounds is not certainty: its rating interval has width."""

from __future__ import annotations

from bot.matches.ratings import rate


def test_a_four_nil_record_has_a_wide_interval():
    ratings = {rating.name: rating for rating in rate(["a", "b"], [("a", "b")] * 4)}
    assert ratings["a"].rating > ratings["b"].rating
    assert ratings["a"].high - ratings["a"].low > 50
    assert ratings["a"].low <= ratings["a"].rating <= ratings["a"].high


def test_more_rounds_narrow_the_interval():
    few = {r.name: r for r in rate(["a", "b"], [("a", "b")] * 6 + [("b", "a")] * 4)}
    many = {r.name: r for r in rate(["a", "b"], [("a", "b")] * 60 + [("b", "a")] * 40)}
    assert many["a"].high - many["a"].low < few["a"].high - few["a"].low
