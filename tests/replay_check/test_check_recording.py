"""`check-recording`: recordings made under each open rules choice, checked against the local rules."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bot.replay.check_recording import check_recording
from rummy import DEFAULT_RULES, Give, Lay, MalformedMove, Match, RulesConfig, Take, render_gamestate

ALTERNATIVES = {
    "malformed_lay": RulesConfig(malformed_lay="waste"),
    "draw_after_emptying": RulesConfig(draw_after_emptying=True),
    "points_shown": RulesConfig(points_shown="net"),
    "my_score": RulesConfig(my_score="points"),
}
EXPECTED_KIND = {
    "malformed_lay": "move result",
    "draw_after_emptying": "points",
    "points_shown": "points",
    "my_score": "score",
}


def best_lay(hand) -> list[int]:
    by_kind: dict[str, list[int]] = {}
    for card in hand:
        by_kind.setdefault(card.kind, []).append(card.id)
    same = max(by_kind.values(), key=len)
    if len(same) >= 3:
        return same[:5]
    if len(by_kind) >= 3:
        return [ids[0] for ids in by_kind.values()][:4]
    return []


def record_match(path: Path, rules: RulesConfig, seed: int) -> bool:
    """Play one round as the runner would record it for player 0; True if player 0's Take emptied the other hand.

    Player 0 opens with a malformed Lay of two cards, then lays sets or takes; player 1 lays sets or gives.
    """
    match = Match(seed=seed, rules=rules)
    lines = [{"type": "header", "version": 1, "t": 0, "game_id": seed, "bot_id": "me", "opponent_id": "them"}]
    emptied_by_take = False
    opened = False
    while not match.over:
        round_ = match.current
        if match.mover == 1:
            lay = best_lay(round_.hands[1])
            match.apply(1, Lay(tuple(lay)) if lay else Give(round_.hands[1][0].id))
            continue
        state = render_gamestate(match, 0)
        lines.append(
            {"type": "gamestate", "t": 0, "call": "GM-PollForGameState", "result": "SUCCESS", "gamestate": state}
        )
        labels = {str(card.id): card.kind for hand in round_.hands for card in hand}
        if not opened:
            opened = True
            try:
                match.apply(0, Lay(tuple(card.id for card in round_.hands[0][:2])))
                result, applied = "SUCCESS", True
            except MalformedMove:
                result, applied = "INVALID_MOVE", False
            move = {"Lay": [card.id for card in round_.hands[0][:2]]}
            lines.append({"type": "move", "t": 0, "move": move, "result": result, "applied": applied, "labels": labels})
            if applied:
                lines.append(
                    {
                        "type": "gamestate",
                        "t": 0,
                        "call": "GM-MakeMove",
                        "result": "SUCCESS",
                        "gamestate": render_gamestate(match, 0),
                    }
                )
                continue
        lay = best_lay(round_.hands[0])
        move_obj = Lay(tuple(lay)) if lay else Take(round_.hands[1][0].id)
        last_card = not lay and len(round_.hands[1]) == 1
        match.apply(0, move_obj)
        emptied_by_take = emptied_by_take or last_card
        lines.append(
            {"type": "move", "t": 0, "move": move_obj.to_json(), "result": "SUCCESS", "applied": True, "labels": labels}
        )
        lines.append(
            {
                "type": "gamestate",
                "t": 0,
                "call": "GM-MakeMove",
                "result": "SUCCESS",
                "gamestate": render_gamestate(match, 0),
            }
        )
    final = render_gamestate(match, 0)
    if lines[-1].get("gamestate") != final:  # the round ended on the opponent's move: the last poll sees it
        lines.append(
            {"type": "gamestate", "t": 0, "call": "GM-PollForGameState", "result": "SUCCESS", "gamestate": final}
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return emptied_by_take


def recording(tmp_path: Path, name: str, rules: RulesConfig) -> Path:
    for seed in range(200):
        path = tmp_path / f"{name}-{seed}.jsonl"
        if record_match(path, rules, seed) or name != "draw_after_emptying":
            return path
    raise AssertionError("no deal where the last card was taken")


def test_a_recording_under_the_default_rules_has_no_divergence(tmp_path: Path) -> None:
    report = check_recording(recording(tmp_path, "default", DEFAULT_RULES))
    assert report.divergences == [] and report.moves_checked >= 2 and report.unchecked_points == 0


@pytest.mark.parametrize("name", list(ALTERNATIVES))
def test_each_open_choice_is_found_and_matched_by_its_switch(name: str, tmp_path: Path) -> None:
    path = recording(tmp_path, name, ALTERNATIVES[name])
    against_default = check_recording(path)
    kinds = Counter(divergence.what for divergence in against_default.divergences)
    assert kinds[EXPECTED_KIND[name]] >= 1, against_default.divergences
    assert check_recording(path, ALTERNATIVES[name]).divergences == []


def test_cli_lists_divergences_and_takes_the_switches(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    path = recording(tmp_path, "points_shown", ALTERNATIVES["points_shown"])
    result = CliRunner().invoke(app, ["check-recording", str(path)])
    assert result.exit_code == 1 and "points" in result.output and "MyPoints" in result.output
    result = CliRunner().invoke(app, ["check-recording", str(path), "--points-shown", "net"])
    assert result.exit_code == 0 and "no divergence" in result.output
    result = CliRunner().invoke(app, ["check-recording", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "missing.jsonl" in result.output


def test_a_line_that_is_not_of_its_declared_type_is_named_before_any_check(tmp_path: Path) -> None:
    """The lines' types are rummy.messages': a hand that is no list stops the check at once, naming the line and
    the field, instead of a KeyError from deep inside the comparison."""
    from typer.testing import CliRunner

    from bot.cli.main import app

    path = recording(tmp_path, "points_shown", DEFAULT_RULES)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    number = next(index for index, line in enumerate(lines, start=1) if line["type"] == "gamestate")
    lines[number - 1]["gamestate"]["MyHand"] = "five cards"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = CliRunner().invoke(app, ["check-recording", str(path)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert f"{path.name}:{number}: gamestate.MyHand must be a list of at most 100 [card id, URL] pairs" in said
