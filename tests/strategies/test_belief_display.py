"""Honest display of the belief (issue 38, item 6): where a card's landmark is not certain, `analyze`, the
review and the agent's recorded suggestions show it with its chances ("giralda 0.62 / koutoubia mosque
0.31") and say their values are expected over the belief; where the belief is certain they do not."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.cli.analyze import _value_kind
from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from rummy.belief import EXPECTED, Belief, chances_text, expected_note, unsure_cards
from server.storage.records import Records
from strategies import analyze
from strategies.coaching.game_review import review_record
from strategies.coaching.grading import EngineGrader
from strategies.coaching.review_page import review_html
from strategies.registry import get_strategy

POSITIONS = Path(__file__).parents[2] / "fixtures" / "positions" / "from_games.jsonl"
CHANCE = re.compile(r"[a-z] 0\.\d\d\b")  # a landmark with its chance, as every display writes it


# A cheap grader: the display is under test here, not the values (the review tests check those).
def cheap_grader() -> EngineGrader:
    return EngineGrader("win", search_nodes=200, exact_nodes=200, exact_turns=0)


def test_chances_are_written_one_way_and_certain_cards_are_not_listed() -> None:
    assert chances_text([("koutoubia mosque", 0.31), ("giralda", 0.62), ("big ben", 0.07)]) == (
        "giralda 0.62 / koutoubia mosque 0.31 / big ben 0.07"
    )
    assert chances_text([("giralda", 1.0), ("big ben", 0.0)]) == "giralda"
    marginals = {3: (0.62, 0.31, 0.07, 0.0), 4: (0.0, 1.0, 0.0, 0.0), -1: (0.5, 0.5, 0.0, 0.0)}
    belief = Belief(("giralda", "koutoubia mosque", "big ben", "bryggen"), (), False, "by hand", marginals)
    unsure = unsure_cards(belief, [4, 3])
    assert [item.line() for item in unsure] == [
        "card 3: giralda 0.62 / koutoubia mosque 0.31 / big ben 0.07",
        "the card laid unseen: giralda 0.50 / koutoubia mosque 0.50",
    ]
    assert EXPECTED in expected_note(unsure) and expected_note(()) == ""


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(POSITIONS.read_text(encoding="utf-8").splitlines()[0], encoding="utf-8")
    return path


def _run_analyze(path: Path, *args: str) -> Any:
    result = CliRunner().invoke(
        app, ["analyze", str(path), "--nodes", "500", *args], env={"COLUMNS": "250"}, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result


def test_analyze_through_a_recognizer_that_errs_shows_the_belief(position_file: Path) -> None:
    shown = _run_analyze(position_file, "--strategy", "expectimax", "--recognizer", "harsh:0.1").stdout
    assert EXPECTED in shown and "not sure of card" in shown
    assert CHANCE.search(shown), shown
    answer = json.loads(
        _run_analyze(position_file, "--strategy", "expectimax@harsh:0.1", "--json").stdout.strip().splitlines()[-1]
    )
    assert answer["expected"] is True and answer["source"]["recognizer"] == "harsh:0.1"
    assert answer["beliefs"] and all(CHANCE.search(item["Belief"]) for item in answer["beliefs"])
    assert EXPECTED in answer["note"]
    # Every move is a card move of the position, valued as an expectation (a value, not a bound).
    assert all(isinstance(move["value"], float) for move in answer["moves"])


def test_analyze_with_true_labels_says_no_expectation(position_file: Path) -> None:
    plain = _run_analyze(position_file, "--strategy", "expectimax", "--json").stdout.strip().splitlines()[-1]
    seen = _run_analyze(position_file, "--strategy", "expectimax@oracle", "--json").stdout.strip().splitlines()[-1]
    plain_answer, seen_answer = json.loads(plain), json.loads(seen)
    assert seen_answer["expected"] is False and seen_answer["beliefs"] == [] and seen_answer["note"] == ""
    # The belief of true labels is certain: the analysis is the position's own.
    assert [move["value"] for move in seen_answer["moves"]] == [move["value"] for move in plain_answer["moves"]]
    table = _run_analyze(position_file, "--strategy", "expectimax", "--recognizer", "oracle").stdout
    assert EXPECTED not in table


def _recorded(tmp_path: Path, seed: str, players: tuple[Contender, Contender]) -> dict[str, Any]:
    result = play_round(seed, players)
    path, game_ids = store_rounds(tmp_path / "records.sqlite3", [(result, 0)], (players[0].name, players[1].name))
    records = Records(path)
    try:
        record = records.match_record(game_ids[-1])
    finally:
        records.close()
    assert record is not None
    return record


def test_the_review_of_a_game_played_through_harsh_errors_shows_what_the_player_believed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _recorded(
        tmp_path, "display:harsh", (Contender("heuristic", "harsh:0.1", shown="seer"), Contender("greedy"))
    )
    chose = [move for move in record["Moves"] if move.get("Suggestions")]
    assert chose and all(move["Suggestions"][0]["Expected"] for move in chose)
    assert all(EXPECTED in move["Suggestions"][0]["Label"] for move in chose)
    assert any(CHANCE.search(item["Belief"]) for move in chose for item in move["Suggestions"][0]["Beliefs"])

    data = review_record(record, cheap_grader()).to_json()
    believed = [decision for decision in data["Decisions"] if decision["PlayerBelief"]]
    assert {decision["Player"] for decision in believed} == {"seer"}
    assert len(believed) == len(chose)
    assert any(CHANCE.search(line) for decision in believed for line in decision["PlayerBelief"])
    assert any(EXPECTED in note and "not sure of its cards" in note for note in data["Notes"])
    assert not any(decision["PlayerBelief"] for decision in data["Decisions"] if decision["Player"] == "greedy")

    page = review_html(data)
    assert 'id="beliefs"' in page and EXPECTED in page
    from bot.cli.review import print_review

    monkeypatch.setenv("COLUMNS", "250")
    print_review(data)
    text = capsys.readouterr().out
    assert "Decisions on an uncertain belief" in text and EXPECTED in text
    assert CHANCE.search(text.split("Decisions on an uncertain belief", 1)[1])


def test_the_review_shows_an_unseen_opening_set_with_its_chances(tmp_path: Path) -> None:
    # greedy opens this deal with a set of one landmark that random, moving second, never saw.
    record = _recorded(tmp_path, "review:1", (Contender("greedy"), Contender("random")))
    data = review_record(record, cheap_grader()).to_json()
    expected = [decision for decision in data["Decisions"] if decision["Expected"]]
    assert expected, "greedy opens review:1 with a set its opponent never saw"
    for decision in expected:
        [line] = decision["Belief"]
        assert "cards laid unseen" in line and CHANCE.search(line), line
    # With true labels nobody chose on an uncertain belief, and a certain decision claims no expectation.
    assert not any(decision["PlayerBelief"] for decision in data["Decisions"])
    assert not any(decision["Belief"] for decision in data["Decisions"] if not decision["Expected"])
    assert any(EXPECTED in note for note in data["Notes"])
    page = review_html(data)
    assert "cards laid unseen" in page and (f"exact, {EXPECTED}" in page or f"estimate, {EXPECTED}" in page)


def test_an_agent_with_true_labels_shows_the_opening_set_it_never_saw(tmp_path: Path) -> None:
    # Seat 1 moves first on this deal, and greedy opens it with a set of one landmark (30 points).
    result = play_round("display:open:0", (Contender("heuristic"), Contender("greedy")))
    opening = result.moves[0]
    assert opening.seat == 1 and "Lay" in opening.move and opening.points == 30
    believed = [
        move for move in result.moves if move.seat == 0 and move.suggestions and move.suggestions[0]["Expected"]
    ]
    assert believed, "heuristic decides on the unseen set's possible landmarks"
    for move in believed:
        beliefs = move.suggestions[0]["Beliefs"]
        # With true labels only the unseen cards are uncertain.
        assert [item["What"].endswith("cards laid unseen") for item in beliefs] == [True], beliefs
        assert CHANCE.search(beliefs[0]["Belief"])


class _Solved:
    """Expectimax whose values stand in for a table's: each assignment's values marked exact, as `perfect`'s are."""

    def __init__(self) -> None:
        self.inner = get_strategy("expectimax", nodes=500)
        self.objective = self.inner.objective

    def analyse(self, state: Any, deadline: Any = None, *, all_values: bool = False) -> Any:
        return dataclasses.replace(self.inner.analyse(state, deadline, all_values=all_values), exact=True)


def test_values_expected_over_a_belief_do_not_send_the_user_to_solve(
    position_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each assignment valued exactly (a table's values): the expectation is no estimate a table would replace,
    # so `analyze` must not say "run solve" (it did, with the tables built, whenever the belief was unsure).
    import strategies.analyze as analyze_module

    monkeypatch.setattr(analyze_module, "_player", lambda *_args: (_Solved(), analyze_module.Objective.WIN))
    answer = json.loads(
        _run_analyze(position_file, "--recognizer", "harsh:0.1", "--json").stdout.strip().splitlines()[-1]
    )
    assert answer["expected"] is True and answer["values"] == "expected" and answer["exact_hint"] is None
    shown = _run_analyze(position_file, "--recognizer", "harsh:0.1").stdout
    assert "no table makes them exact" in shown and "rummy-vision solve" not in shown
    # A search's values are estimates still, and say how to get exact ones.
    monkeypatch.undo()
    searched = json.loads(
        _run_analyze(position_file, "--strategy", "expectimax@harsh:0.1", "--json").stdout.strip().splitlines()[-1]
    )
    assert searched["values"] == "estimate" and "rummy-vision solve" in searched["exact_hint"]


def test_analyze_draws_the_belief_as_many_times_as_the_player_does(position_file: Path, monkeypatch) -> None:
    """`perfect` draws more than the tracker's default: analyze's belief must be drawn as the player draws it in a
    match, not with the default (a player that draws 64 here stands in for perfect, which needs its tables)."""
    real_player, real_tracker, asked = analyze._player, analyze.seen_tracker, []

    def player(*args: Any, **kwargs: Any) -> Any:
        made, objective = real_player(*args, **kwargs)
        made.samples = 64
        return made, objective

    def tracker(*args: Any) -> Any:
        asked.append(args[3])
        return real_tracker(*args)

    monkeypatch.setattr(analyze, "_player", player)
    monkeypatch.setattr(analyze, "seen_tracker", tracker)
    _run_analyze(position_file, "--strategy", "expectimax@harsh:0.1")
    assert asked == [64]


def test_an_exact_expectation_is_called_expected_not_exact() -> None:
    """An enumerated belief valued from the tables gives exact expectations, but no position's value: the one
    word analyze --json gives its values must say expectation (it said "exact" beside a note saying expected)."""

    def kind(exact: bool, expected: bool, assignments_exact: bool) -> str:
        found = SimpleNamespace(exact=exact, expected=expected, assignments_exact=assignments_exact)
        return str(_value_kind(found)["values"])

    assert kind(exact=True, expected=True, assignments_exact=True) == "expected"
    assert kind(exact=False, expected=True, assignments_exact=True) == "expected"
    assert kind(exact=True, expected=False, assignments_exact=False) == "exact"
    assert kind(exact=False, expected=True, assignments_exact=False) == "estimate"
    assert kind(exact=False, expected=False, assignments_exact=False) == "estimate"
