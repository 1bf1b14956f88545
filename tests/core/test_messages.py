"""The messages declared once (rummy/messages.py): real ones pass, and each malformed field is refused with one
line naming the field and what it must be."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rummy import DEFAULT_RULES, MalformedLay, Match, MyScore, PointsShown, RulesConfig, render_gamestate
from rummy.messages import (
    GAMESTATE_KEYS,
    REPLAY_LINES,
    Gamestate,
    MessageError,
    check,
    check_replay_line,
    field_type,
    fits,
)
from rummy.replay_lines import parse_replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
REPLAY = FIXTURES / "replays" / "greedy-vs-housebot-greedy.jsonl"  # written by `play` against the local referee


def fixture_gamestates() -> list[dict[str, Any]]:
    found = []
    for name in ("positions/from_games.jsonl", "strategies/positions.jsonl"):
        for line in (FIXTURES / name).read_text().splitlines():
            state = dict(json.loads(line)["GameState"])
            state.pop("_seat", None)  # the position files' own note of the seat, not the arena's
            found.append(state)
    return found


def replay_lines() -> list[dict[str, Any]]:
    return parse_replay(REPLAY.read_text(encoding="utf-8"), REPLAY.name)


def refusal(model: Any, data: Any, where: str = "") -> str:
    with pytest.raises(MessageError) as raised:
        check(model, data, where)
    text = str(raised.value)
    assert "\n" not in text
    return text


def test_the_gamestates_of_the_fixtures_pass() -> None:
    states = fixture_gamestates()
    assert len(states) > 20
    for state in states:
        assert check(Gamestate, state, "GameState") is state  # returned unchanged, extra keys and all


def test_a_rendered_gamestate_passes_with_every_key_in_the_declared_order() -> None:
    match = Match(seed=7)
    view = render_gamestate(match, 0, game_id=3, opponent_id="them", response_deadline_ms=1)
    assert tuple(view) == GAMESTATE_KEYS and len(GAMESTATE_KEYS) == 15
    check(Gamestate, view, "GameState")


def test_every_line_of_a_recorded_replay_file_passes() -> None:
    lines = replay_lines()
    assert {line["type"] for line in lines} >= {"header", "gamestate", "move", "labels", "end"}
    for line in lines:
        assert check_replay_line(line) is line
    assert check_replay_line({"type": "from a later version", "x": 1}) is None  # readers skip unknown types


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("MyHand", "five cards", 'GameState.MyHand must be a list of at most 100 [card id, URL] pairs, not "five'),
        ("MyHand", [[1, "/a.png", 3]], "GameState.MyHand[0] must be a [card id, URL] pair, not [1,"),
        (
            "OppHand",
            [[1, "/a.png"], ["2", "/b.png"]],
            'GameState.OppHand[1][0] must be a card id (a whole number), not "2"',
        ),
        ("OppHand", [[1, 5]], "GameState.OppHand[0][1] must be a text of at most 2000 characters, not 5"),
        ("MyHand", [[True, "/a.png"]], "GameState.MyHand[0][0] must be a card id (a whole number), not true"),
        ("MyHand", [[2**60, "/a.png"]], "GameState.MyHand[0][0] must be from -9007199254740992 to 9007199254740992"),
        ("MyPoints", 12.5, "GameState.MyPoints must be a whole number from -10000 to 10000, not 12.5"),
        ("OppScore", None, "GameState.OppScore must be a whole number from -10000 to 10000, not null"),
        ("RemainingRounds", 10**6, "GameState.RemainingRounds must be from 0 to 100, not 1000000"),
        ("RemainingMoves", -1, "GameState.RemainingMoves must be from 0 to 200, not -1"),
        ("CardsInDeck", "18", 'GameState.CardsInDeck must be a whole number from 0 to 100, not "18"'),
        ("ResponseDeadline", False, "GameState.ResponseDeadline must be a whole number"),
        ("GameStatus", 1, "GameState.GameStatus must be a text of at most 200 characters, not 1"),
        ("IsMover", "true", 'GameState.IsMover must be true or false, not "true"'),
        ("GameId", "12", 'GameState.GameId must be a whole number from 0 to 9223372036854775807 or null, not "12"'),
        ("OpponentId", ["x"], 'GameState.OpponentId must be a text of at most 200 characters or null, not ["x"]'),
    ],
)
def test_each_malformed_field_is_named_with_what_it_must_be(field: str, value: Any, said: str) -> None:
    state = copy.deepcopy(fixture_gamestates()[0])
    state[field] = value
    assert refusal(Gamestate, state, "GameState").startswith(said)


@pytest.mark.parametrize("field", ["MyHand", "OppHand", "RemainingRounds", "GameStatus", "IsMover"])
def test_a_missing_field_every_reader_needs_is_named(field: str) -> None:
    state = fixture_gamestates()[0]
    del state[field]
    assert refusal(Gamestate, state, "GameState").startswith(f"GameState.{field} is missing (it must be ")


def test_a_gamestate_that_is_no_object_says_so() -> None:
    assert refusal(Gamestate, [1, 2], "GameState") == "GameState must be a JSON object, not [1, 2]"


def test_a_lenient_field_passes_the_check_and_fails_fits() -> None:
    state = {**fixture_gamestates()[0], "AllCardTypes": 7}
    check(Gamestate, state)
    assert not fits(field_type(Gamestate, "AllCardTypes"), 7)
    assert fits(field_type(Gamestate, "AllCardTypes"), ["big ben"])


@pytest.mark.parametrize(
    ("kind", "change", "said"),
    [
        ("gamestate", {"gamestate": "x"}, 'gamestate must be a JSON object, not "x"'),
        ("gamestate", {"call": 3}, "call must be a text of at most 200 characters or null, not 3"),
        ("move", {"applied": "yes"}, 'applied must be true or false, not "yes"'),
        ("move", {"labels": {"x": "big ben"}}, 'labels must be keyed by card ids, not "x"'),
        ("move", {"labels": {"12": 5}}, 'labels["12"] must be a text of at most 200 characters, not 5'),
        ("labels", {"remaining_rounds": None}, "remaining_rounds must be a whole number from 0 to 100, not null"),
        ("end", {"status": None}, "status must be a text of at most 200 characters, not null"),
        ("end", {"moves": -2}, "moves must be from 0 to 100000, not -2"),
        ("header", {"game_id": "7"}, 'game_id must be a whole number from 0 to 9223372036854775807 or null, not "7"'),
    ],
)
def test_each_malformed_field_of_a_replay_line_is_named(kind: str, change: dict[str, Any], said: str) -> None:
    line = {**next(line for line in replay_lines() if line["type"] == kind), **change}
    with pytest.raises(MessageError) as raised:
        check_replay_line(line, "line")
    assert str(raised.value) == f"line.{said}"


def test_without_bounds_only_the_types_are_checked() -> None:
    state = {**fixture_gamestates()[0], "RemainingRounds": -1}
    check(Gamestate, state, bounds=False)  # check-recording reports this as a divergence instead
    with pytest.raises(MessageError, match="IsMover must be true or false"):
        check(Gamestate, {**state, "IsMover": 0}, bounds=False)


def test_every_line_type_of_the_format_is_declared() -> None:
    assert set(REPLAY_LINES) == {"header", "gamestate", "move", "labels", "note", "end"}


def test_the_rules_modes_are_enums_checked_at_the_edge() -> None:
    rules = RulesConfig(malformed_lay="waste", points_shown="net", my_score="points")  # type: ignore[arg-type]
    assert rules.malformed_lay is MalformedLay.WASTE
    assert rules.points_shown is PointsShown.NET and rules.my_score is MyScore.POINTS
    assert rules == RulesConfig(malformed_lay=MalformedLay.WASTE, points_shown=PointsShown.NET, my_score=MyScore.POINTS)
    assert DEFAULT_RULES.malformed_lay is MalformedLay.REFUSE
    chosen = RulesConfig.with_choices(
        malformed_lay="refuse", draw_after_emptying=True, points_shown="sets", my_score="rounds"
    )
    assert chosen.points_shown is PointsShown.SETS and chosen.draw_after_emptying
    with pytest.raises(ValueError, match="points_shown is 'gross', must be one of sets, net"):
        RulesConfig(points_shown="gross")  # type: ignore[arg-type]


def test_a_decimal_deadline_is_read_and_a_word_is_refused() -> None:
    from rummy.messages import Gamestate, MessageError, check

    state = {"MyHand": [[1, "u.jpg"]], "OppHand": [], "RemainingRounds": 1, "GameStatus": "RUNNING", "IsMover": True}
    assert check(Gamestate, {**state, "ResponseDeadline": 1764200000000.5}, "GameState")["ResponseDeadline"] > 0
    with pytest.raises(MessageError, match="ResponseDeadline"):
        check(Gamestate, {**state, "ResponseDeadline": "soon"}, "GameState")
