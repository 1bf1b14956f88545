"""`check-recording` for the readings only a recording settles: the match decided by total points, a tied
match, `RemainingRounds` with or without the current round, the draw before the move. Each recording here is
made as a referee under that reading would answer (an in-process match, the reading applied to what the bot
would have received); the check finds the reading that fits it, and `--all-readings` names it."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bot.cli.main import app
from bot.replay.check_recording import Readings, check_recording
from rummy import Give, Lay, Match, Take, render_gamestate


def _best_lay(hand: list[Any]) -> list[int]:
    by_kind: dict[str, list[int]] = {}
    for card in hand:
        by_kind.setdefault(card.kind, []).append(card.id)
    same = max(by_kind.values(), key=len)
    if len(same) >= 3:
        return same[:5]
    if len(by_kind) >= 3:
        return [ids[0] for ids in by_kind.values()][:3]
    return []


def record(seed: int, rounds: int) -> tuple[list[dict[str, Any]], Match, bool]:
    """A match as `play` records it for player 0: (its lines, the match, whether player 0's move ended every
    round). Player 1 lays what it can, else gives (takes when it holds one card, never emptying its hand);
    player 0 takes player 1's last card, else lays or takes at random: some rounds won, some lost."""
    rng = random.Random(seed)
    match = Match(seed=f"readings:{seed}", rounds=rounds)
    lines: list[dict[str, Any]] = [{"type": "header", "version": 1, "t": 0, "game_id": seed, "bot_id": "me"}]
    ended_by_me = True
    while not match.over:
        round_ = match.current
        index = match.round_index
        if match.mover == 1:
            lay = _best_lay(round_.hands[1])
            if lay:
                move: Any = Lay(tuple(lay))
            elif len(round_.hands[1]) > 1:
                move = Give(round_.hands[1][0].id)
            else:
                move = Take(round_.hands[0][0].id)
            match.apply(1, move)
            ended_by_me = ended_by_me and (match.round_index == index and not match.over)
            continue
        state = render_gamestate(match, 0)
        lines.append(
            {"type": "gamestate", "t": 0, "call": "GM-PollForGameState", "result": "SUCCESS", "gamestate": state}
        )
        labels = {str(card.id): card.kind for hand in round_.hands for card in hand}
        lay = _best_lay(round_.hands[0])
        if len(round_.hands[1]) == 1:
            move = Take(round_.hands[1][0].id)
        elif lay and rng.random() < 0.4:
            move = Lay(tuple(lay))
        else:
            move = Take(rng.choice(round_.hands[1]).id)
        match.apply(0, move)
        lines.append(
            {"type": "move", "t": 0, "move": move.to_json(), "result": "SUCCESS", "applied": True, "labels": labels}
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
    if lines[-1].get("gamestate") != final:  # the match ended on the opponent's move: the last poll sees it
        lines.append(
            {"type": "gamestate", "t": 0, "call": "GM-PollForGameState", "result": "SUCCESS", "gamestate": final}
        )
    return lines, match, ended_by_me


def totals(match: Match) -> tuple[int, int]:
    return (sum(r.points[0] for r in match.finished_rounds), sum(r.points[1] for r in match.finished_rounds))


def by_points(match: Match) -> str:
    mine, theirs = totals(match)
    return "WON" if mine > theirs else "LOST" if theirs > mine else "DRAWN"


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def with_final_status(lines: list[dict[str, Any]], status: str) -> list[dict[str, Any]]:
    changed = copy.deepcopy(lines)
    for line in changed:
        if line["type"] == "gamestate" and line["gamestate"]["GameStatus"] != "RUNNING":
            line["gamestate"]["GameStatus"] = status
    return changed


def kinds(path: Path, readings: Readings = Readings()) -> Counter[str]:
    return Counter(divergence.what for divergence in check_recording(path, readings=readings).divergences)


def test_a_match_decided_by_total_points(tmp_path: Path) -> None:
    for seed in range(2000):
        lines, match, ended_by_me = record(seed, 3)
        rounds_verdict = lines[-1]["gamestate"]["GameStatus"]
        if ended_by_me and by_points(match) not in (rounds_verdict, "DRAWN"):
            break
    else:
        raise AssertionError("no deal where the rounds and the points name different winners")
    path = write(tmp_path / "points.jsonl", with_final_status(lines, by_points(match)))
    assert kinds(path)["status"] == 1
    assert kinds(path, Readings(match_decided="points")) == Counter()
    same = write(tmp_path / "rounds.jsonl", lines)
    assert kinds(same) == Counter() and kinds(same, Readings(match_decided="points"))["status"] == 1


def test_a_tied_match_decided_by_points(tmp_path: Path) -> None:
    for seed in range(2000):
        lines, match, ended_by_me = record(seed, 2)
        if ended_by_me and match.rounds_won == [1, 1] and by_points(match) != "DRAWN":
            break
    else:
        raise AssertionError("no deal with one round each")
    assert lines[-1]["gamestate"]["GameStatus"] == "DRAWN"  # the local referee's reading
    path = write(tmp_path / "tied.jsonl", with_final_status(lines, by_points(match)))
    assert kinds(path)["status"] == 1
    assert kinds(path, Readings(tied_match="points")) == Counter()


def test_remaining_rounds_without_the_current_round(tmp_path: Path) -> None:
    lines, _match, _ = record(1, 3)
    shifted = copy.deepcopy(lines)
    for line in shifted:
        if line["type"] == "gamestate":
            line["gamestate"]["RemainingRounds"] -= 1
    path = write(tmp_path / "without.jsonl", shifted)
    found = kinds(path)
    assert found["rounds left"] >= 1 and found["score"] == 1
    assert kinds(path, Readings(remaining_rounds="without-current")) == Counter()
    assert kinds(write(tmp_path / "with.jsonl", lines), Readings(remaining_rounds="without-current"))["score"] == 1


def drawn_before(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a referee where the next mover draws as its turn starts answers our moves: our hand without a new
    card, the opponent's with one (a card of the deck: here a made-up id)."""
    changed = copy.deepcopy(lines)
    before: dict[str, Any] | None = None
    fake = 900_000
    for line in changed:
        if line["type"] != "gamestate":
            continue
        state = line["gamestate"]
        answer = line["call"] == "GM-MakeMove" and before is not None and state["GameStatus"] == "RUNNING"
        if answer and before is not None and state["RemainingRounds"] == before["RemainingRounds"]:
            known = {card[0] for hand in ("MyHand", "OppHand") for card in before[hand]}
            drawn = [card for card in state["MyHand"] if card[0] not in known]
            if drawn:
                state["MyHand"] = [card for card in state["MyHand"] if card[0] in known]
                fake += 1
                state["OppHand"].append([fake, f"/cards/drawn-{fake}.png"])
        before = state if line["call"] != "GM-MakeMove" else before
    return changed


def test_the_draw_before_the_move(tmp_path: Path) -> None:
    lines, _match, _ = record(2, 1)
    path = write(tmp_path / "before.jsonl", drawn_before(lines))
    assert kinds(path)["hands"] >= 1
    assert kinds(path, Readings(draw="before")) == Counter()
    assert kinds(write(tmp_path / "after.jsonl", lines), Readings(draw="before"))["hands"] >= 1


def test_all_readings_names_the_one_that_fits_or_the_first_divergence_under_each(tmp_path: Path) -> None:
    lines, _match, _ = record(2, 1)
    path = write(tmp_path / "before.jsonl", drawn_before(lines))
    result = CliRunner().invoke(app, ["check-recording", str(path), "--all-readings"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "readings fit every file" in said and "draw: before" in said
    broken = copy.deepcopy(lines)
    answer = next(line for line in broken if line.get("call") == "GM-MakeMove")
    answer["gamestate"]["CardsInDeck"] += 5  # no reading explains a deck that grows
    bad = write(tmp_path / "bad.jsonl", broken)
    result = CliRunner().invoke(app, ["check-recording", str(bad), "--all-readings"], env={"COLUMNS": "300"})
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "No reading fits" in said and "draw=before:" in said and "deck" in said
    named = CliRunner().invoke(app, ["check-recording", str(path), "--draw", "before"])
    assert named.exit_code == 0 and "no divergence" in named.output


def test_a_reading_named_plainly_becomes_its_enum_and_a_wrong_one_is_named() -> None:
    from bot.replay.check_recording import DrawTime, RoundsLeft

    readings = Readings.named("rounds", "drawn", "without-current", "before")
    assert readings.draw is DrawTime.BEFORE and readings.remaining_rounds is RoundsLeft.WITHOUT_CURRENT
    assert readings == Readings(remaining_rounds=RoundsLeft.WITHOUT_CURRENT, draw=DrawTime.BEFORE)
    assert (
        readings.describe() == "match_decided=rounds, tied_match=drawn, remaining_rounds=without-current, draw=before"
    )
    with pytest.raises(ValueError, match="draw is 'later', must be one of after, before"):
        Readings.named("rounds", "drawn", "with-current", "later")
