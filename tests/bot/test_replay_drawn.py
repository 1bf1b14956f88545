"""Replays show the card drawn at each step, a file replay names every card from its first step, and a
file whose match is in the records points at the viewer and the review."""

from __future__ import annotations

from typer.testing import CliRunner

from bot.cli import app
from bot.replay.replays import replay_file, replay_record

runner = CliRunner()


# `recorded` (conftest): a seeded deal on the real referee with minute-long moves, so that neither the deal nor
# a loaded machine decides what the file holds.


def test_record_replays_show_the_drawn_card(recorded) -> None:
    _path, record = recorded
    replay = replay_record(record)
    moves = [step for step in replay.steps if step.mover is not None]
    deck = [card["Id"] for card in record["Rounds"][0]["Deck"]]
    drawn = [step.drawn for step in moves if step.drawn is not None]
    # The deck is drawn from the top, one card a move, until the round ends.
    assert drawn and drawn == deck[: len(drawn)]
    for step in moves:
        if step.drawn is not None:
            hand = [card_id for card_id, _url in step.views[step.mover]["MyHand"]]
            assert step.drawn in hand


def test_file_replays_show_labels_from_the_deal_and_the_drawn_cards(recorded, tmp_path) -> None:
    path, record = recorded
    db = tmp_path / "records-0.sqlite3"
    replay = replay_file(path)
    truth = {card["Id"]: card["Landmark"] for hand in record["Rounds"][0]["Hands"] for card in hand}
    deal = replay.steps[0]
    assert deal.result == "DEAL"
    in_view = [card_id for key in ("MyHand", "OppHand") for card_id, _url in deal.views[0][key]]
    assert all(deal.labels.get(card_id) == truth[card_id] for card_id in in_view)
    deck = [card["Id"] for card in record["Rounds"][0]["Deck"]]
    seen = [step.drawn for step in replay.steps if step.drawn is not None]
    assert seen and set(seen) <= set(deck)
    shown = runner.invoke(app, ["replay", str(path), "--db", str(db)], terminal_width=160)
    assert shown.exit_code == 0, shown.output
    assert "drew " in shown.output
    assert f"/viewer#game/{record['GameId']}" in shown.output and f"review {record['GameId']}" in shown.output
