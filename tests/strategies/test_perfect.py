"""`perfect` plays the table's best move and gives exact values; `rummy-vision solve` builds a table that
`analyze --strategy perfect` reads; without a table, one line says how to build it."""

import json
import random
from pathlib import Path

import pytest
from kernel_helpers import MINIATURES
from strategies_helpers import SUITE, BruteForce, random_position
from typer.testing import CliRunner

from bot.cli import app
from rummy import parse_move
from strategies.position import parse_position
from strategies.provenance import source_text, strategy_source
from strategies.registry import get_strategy
from strategies.search.exact import solve
from strategies.table import TableError
from strategies.table.margin.build import build_table
from strategies.table.perfect import DOUBT

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def first_layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real game's table, layer 1 only (positions with up to 2 turns left), built by the command."""
    path = tmp_path_factory.mktemp("table") / "layer1.rvt"
    result = RUNNER.invoke(app, ["solve", "--out", str(path), "--top", "1", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert str(path) in result.stdout
    return path


def test_perfect_plays_a_best_move_with_exact_values_on_miniature_rules(tmp_path: Path) -> None:
    rules = MINIATURES[2]
    path = tmp_path / "mini.rvt"
    build_table(path, rules, workers=1)
    perfect = get_strategy("perfect", objective="margin", table=path, rules=rules)
    rng = random.Random(13)
    for _ in range(12):
        state = random_position(rng, rules)
        reference = BruteForce("margin").move_values(state.copy())
        move = perfect.choose(state.copy())
        assert reference[move] == pytest.approx(max(reference.values()), abs=1e-4)
        if len(reference) > 1:
            for other, value in perfect.last.move_values.items():
                assert value == pytest.approx(reference[other], abs=1e-4)


def test_without_a_table_perfect_says_how_to_build_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_VISION_TABLE", str(tmp_path / "none.rvt"))
    with pytest.raises(TableError) as caught:
        get_strategy("perfect")
    assert "\n" not in str(caught.value) and "rummy-vision solve" in str(caught.value)
    file = tmp_path / "position.json"
    file.write_text(SUITE.read_text().splitlines()[0])
    result = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect"])
    assert result.exit_code == 2
    assert "rummy-vision solve" in result.stderr and "Traceback" not in result.output


def short_positions() -> list[dict]:
    """Analysis positions with 1 and 2 turns left (what a layer-1 table covers)."""
    from bot.measure.sampling import position_set
    from tools.recipes.suite import to_position

    rng = random.Random(7)
    states = position_set(2, 31, turns_left=1) + position_set(2, 32, turns_left=2)
    return [to_position(state, rng, index) for index, state in enumerate(states)]


@pytest.mark.parametrize("objective", ["margin", "win"])
def test_analyze_with_perfect_keeps_the_format_and_gives_exact_values(
    first_layer: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, objective: str
) -> None:
    monkeypatch.setenv("RUMMY_VISION_TABLE", str(first_layer))
    positions = short_positions()
    assert positions
    file = tmp_path / "positions.jsonl"
    file.write_text("\n".join(json.dumps(raw) for raw in positions) + "\n")
    result = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect", "--objective", objective, "--json"])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    for raw, answer in zip(positions, answers, strict=True):
        assert {"best", "moves"} <= set(answer) and answer["values"] == "exact" and answer["exact_hint"] is None
        assert answer["source"]["table"] is not None  # the values name the table they came from
        position = parse_position(raw)
        truth = solve(position.state.copy(), objective).move_values
        by_move = {json.dumps(entry["move"]): entry["value"] for entry in answer["moves"]}
        assert len(by_move) == len(truth)
        for move, value in truth.items():
            shown = (value + 1) / 2 if objective == "win" else value
            assert by_move[json.dumps(position.card_move(move).to_json())] == pytest.approx(shown, abs=1e-4)
        parse_move(answer["best"])
    table = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect", "--objective", "margin"])
    assert "exact, from the perfect-play table" in table.stdout
    wins = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect", "--objective", "win"])
    assert "exact, solved on demand" in wins.stdout and "perfect-play table" not in wins.stdout


def test_a_position_beyond_the_table_is_searched_and_marked_an_estimate(
    first_layer: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from strategies.table import perfect as module

    monkeypatch.setattr(module, "FALLBACK_NODES", 3000)  # the budget's size is not what is tested
    perfect = get_strategy("perfect", objective="margin", table=first_layer)
    deep = [
        raw
        for raw in (json.loads(line) for line in SUITE.read_text().splitlines())
        if raw["GameState"]["RemainingMoves"] > 2
    ]
    state = parse_position(deep[0]).state
    move = perfect.choose(state)  # no TableError: a fault on every move, in a match
    assert move in state.legal_moves()
    assert perfect.last_how in (module.SEARCHED, module.SEARCH_SOLVED)
    assert perfect.last is not None and perfect.last.exact == perfect.last_how.startswith("exact")


def test_analyze_with_perfect_plays_for_the_win_by_default_and_says_where_values_come_from(
    first_layer: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMY_VISION_TABLE", str(first_layer))
    file = tmp_path / "positions.jsonl"
    file.write_text("\n".join(json.dumps(raw) for raw in short_positions()[:3]) + "\n")
    result = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect", "--json"])
    assert result.exit_code == 0, result.output
    for answer in (json.loads(line) for line in result.stdout.splitlines()):
        assert answer["objective"] == "win" and answer["values"] == "exact"
        assert answer["source"]["win_table"]["file"] is None  # no win table: solved on demand, and said so
    shown = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect"], env={"COLUMNS": "400"})
    flat = " ".join(shown.stdout.split())
    assert "P(win), exact, solved on demand to the end of the round" in flat
    assert "win objective" in flat and "no win table" in flat
    margin = RUNNER.invoke(app, ["analyze", str(file), "--strategy", "perfect:objective=margin", "--json"])
    assert margin.exit_code == 0, margin.output
    assert {json.loads(line)["objective"] for line in margin.stdout.splitlines()} == {"margin"}


def test_the_coach_the_review_analyze_and_the_house_bot_default_to_perfect_for_the_win(
    first_layer: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from server.house_agents import HOUSE_BOTS
    from strategies.coaching.coach import CoachConfig, advise
    from strategies.coaching.grading import EngineGrader, PerfectGrader, ValueSource, default_grader
    from strategies.table import perfect

    monkeypatch.setenv("RUMMY_VISION_TABLE", str(first_layer))
    position = parse_position(short_positions()[0])
    assert not perfect.perfect_available()  # layer 1 only: the defaults keep the searcher
    assert CoachConfig.parse(None).strategy == "expectimax" and isinstance(default_grader(), EngineGrader)
    monkeypatch.setattr(perfect, "perfect_available", lambda rules=None: True)  # as with the whole table

    config = CoachConfig.parse(None)
    assert (config.strategy, config.objective.value) == ("perfect", "win")
    advice = advise(position, config).to_json()
    assert advice["Objective"] == "win" and advice["Exact"] and advice["How"] == perfect.SOLVED_TO_END

    grader = default_grader()
    assert isinstance(grader, PerfectGrader) and grader.objective.value == "win"
    grade = grader.grade(position)
    assert grade.exact and grade.source is ValueSource.SOLVE and all(0 <= v <= 1 for v in grade.values.values())
    assert "win objective" in grader.describe() and "no win table" in grader.describe()
    assert default_grader("margin").grade(position).source is ValueSource.TABLE

    file = tmp_path / "position.json"
    file.write_text(json.dumps(short_positions()[0]))
    answer = json.loads(RUNNER.invoke(app, ["analyze", str(file), "--json"]).stdout.splitlines()[-1])
    assert answer["source"]["strategy"] == "perfect" and answer["objective"] == "win"

    assert HOUSE_BOTS["housebot-perfect"]().objective.value == "win"


def test_doubt_is_on_for_the_win_off_under_margin_and_says_so(first_layer: Path) -> None:
    # DOUBT was chosen for the win objective (measurements/doubt-tune-*.json); on margin's point scale no value was
    # measured, so it is off there unless asked for, and the source line names it only where it is on.
    win = get_strategy("perfect", table=first_layer)
    margin = get_strategy("perfect", objective="margin", table=first_layer)
    asked = get_strategy("perfect", objective="margin", table=first_layer, doubt=3)
    assert (win.doubt, margin.doubt, asked.doubt) == (DOUBT, 0.0, 3.0)
    assert f"doubt={DOUBT:g}" in source_text(strategy_source(win))
    assert "doubt" not in source_text(strategy_source(margin))
