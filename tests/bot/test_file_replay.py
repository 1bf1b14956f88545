"""Replaying a `play` recording: the labels the bot used, the opponent's moves worked out from the gamestates (the
same moves the referee recorded), and what a file replay cannot do."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.replays import ReplayError, continue_with, replay_file

runner = CliRunner()


def test_a_play_recording_replays_with_labels_and_the_opponents_moves(recorded) -> None:
    path, record = recorded
    replay = replay_file(path)
    assert replay.steps[0].result == "DEAL" and replay.steps[0].mover is None
    # The opponent's moves, worked out from our gamestates, are the ones the referee applied.
    applied = [move for move in record["Moves"] if move["Applied"]]
    theirs = [move["Move"] for move in applied if move["Bot"] == "housebot-practise"]
    inferred = [step.move for step in replay.steps if step.mover == 1]
    last_move_ends_it = applied[-1]["Bot"] == "housebot-practise" and not set(
        card["Id"] for hand in record["Rounds"][0]["Hands"] for card in hand
    )
    assert len(inferred) in (len(theirs), len(theirs) - last_move_ends_it)
    for seen, true in zip(inferred, theirs):
        if "Lay" in true and seen == {"Lay": []}:
            continue  # an invalid set: the cards stay in the hand, which the gamestate cannot show
        assert seen == true or ("Lay" in true and sorted(seen["Lay"]) == sorted(true["Lay"]))
    assert all(step.result == "SUCCESS" for step in replay.steps if step.mover is not None)
    # The oracle's labels, recorded with each move, name the cards as the round really has them.
    truth = {card["Id"]: card["Landmark"] for hand in record["Rounds"][0]["Hands"] for card in hand}
    labels = replay.steps[-1].labels
    assert labels and all(truth[card_id] == name for card_id, name in labels.items() if card_id in truth)


def test_the_terminal_replay_shows_landmarks_and_no_success_titles(recorded) -> None:
    path, record = recorded
    shown = runner.invoke(app, ["replay", str(path)], terminal_width=160)
    assert shown.exit_code == 0, shown.output
    assert "housebot-practise played" in shown.output and "success" not in shown.output.lower()
    assert any(name in shown.output for name in record["Rounds"][0]["Landmarks"])


def test_a_file_replay_cannot_play_on(recorded) -> None:
    path, _record = recorded
    with pytest.raises(ReplayError, match="needs the match's record"):
        continue_with(replay_file(path), 1, "greedy")
    refused = runner.invoke(app, ["replay", str(path), "--turn", "1", "--continue-with", "greedy"])
    assert refused.exit_code == 2 and "needs the match's record" in refused.stderr
