"""The recipes `azure-pace` and `templates` (`python tools/measure.py`): what they store, on fakes and small runs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tools.recipes.app import app
from tools.recipes.record import read_result


def test_azure_pace_stores_each_tier_and_what_the_gallery_answers_on_the_free_tier(tmp_path: Path) -> None:
    # 30 s for a hand, not the real 4 s: on a loaded machine the local recognizer's first look alone can take
    # longer than 4 s, and the cases are about who answers, not how fast. Still below the 60 s rate window.
    args = ["azure-pace", "--latency-ms", "20", "--budget-s", "30", "--out", str(tmp_path)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    result = read_result(tmp_path / "azure_pace.json")
    assert result["command"][:3] == ["python", "tools/measure.py", "azure-pace"]
    assert result["settings"] == {"latency_ms": 20, "budget_s": 30.0}
    figures = result["figures"]
    for case in ("standard_parallel_8", "standard_one_at_a_time", "free_first_match", "free_local_first_match"):
        assert figures[case]["labelled"] == 20 and figures[case]["azure_calls"] == 20, case
    # The free tier's 20 calls a minute are spent by the first match: the second gets no call at all.
    second = figures["free_second_match_same_minute"]
    assert second["labelled"] == 0 and second["azure_calls"] == 0 and len(second["unknown"]) == 20
    assert any("rate limit" in reason for reason in second["unknown_reasons"])
    # With local:azure the first match's pictures joined the gallery, which answers most of the second's.
    fallback = figures["free_local_second_match_same_minute"]
    assert fallback["azure_calls"] == 0 and figures["gallery_pictures_after"] == 20
    assert len(fallback["by_gallery"]) >= 15 and fallback["wrong"] == []
    assert sorted(fallback["by_gallery"] + fallback["unknown"]) == list(range(20, 40))


def test_measure_templates_plays_every_template_and_leaves_out_an_opponent_that_cannot_play(tmp_path: Path) -> None:
    args = ["templates", "--template", "random,vision", "--opponents", "greedy,perfect"]
    done = CliRunner().invoke(app, [*args, "--rounds", "2", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    figures = read_result(tmp_path / "templates.json")["figures"]
    assert [(row["template"], row["opponent"], row["rounds"]) for row in figures["rows"]] == [
        ("random", "greedy", 2),
        ("vision", "greedy", 2),
    ]
    assert all(row["faults"] == 0 for row in figures["rows"]), "every template answered legal moves"
    # The conftest's throwaway home holds no perfect-play table: the table says so instead of a row.
    assert "no perfect-play table" in figures["not_measured"]["perfect"]
    assert "perfect" not in figures["opponents"] and "greedy" in figures["opponents"]
    assert "perfect: not measured" in " ".join(done.output.split())
