"""A match on the arena's card ids (a shuffled 0..39 in every round, so one id names another card, often of
another landmark, in each round): its replay FILE's terminal replay, the viewer's file page and `review FILE`,
and the replay of its records, name each round's cards by that round's own labels."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.file_review import review_file
from bot.replay.recording import read_replay
from bot.replay.replays import replay_file
from bot.replay.view import render_step
from server.file_steps import file_steps
from strategies.coaching.game_review import review_record
from strategies.coaching.grading import EngineGrader

NODES = 300  # a small search: the two reviews only need to grade alike, not well


def _truth(record) -> dict[tuple[int, int], str]:
    """{(RemainingRounds, card id): landmark} of every card the referee dealt in the match."""
    rounds = int(record["NumberOfRounds"])
    return {
        (rounds - int(round_["RoundIndex"]), int(card["Id"])): str(card["Landmark"])
        for round_ in record["Rounds"]
        for cards in [*round_["Hands"], round_["Deck"]]
        for card in cards
    }


@pytest.fixture
def five_rounds(match_recorder):
    path, record = match_recorder(seed=3, opponent="housebot-greedy", style=2)
    truth = _truth(record)
    rounds = int(record["NumberOfRounds"])
    assert rounds == 5
    for key in range(1, rounds + 1):
        assert sorted(card_id for (at, card_id) in truth if at == key) == list(range(40)), "0..39 in every round"
    # The same id 0 is a card of another landmark in some two rounds: only its round tells which.
    assert len({truth[(key, 0)] for key in range(1, rounds + 1)}) > 1
    return path, record, truth


def test_the_replay_names_each_rounds_cards_by_that_rounds_labels(five_rounds) -> None:
    path, record, truth = five_rounds
    replay = replay_file(path)
    rounds = int(record["NumberOfRounds"])
    shown: dict[int, set[str]] = {}  # the landmarks card 0 is shown as, over the match
    checked = 0
    for step in replay.steps:
        view = step.views[0]
        assert view is not None
        key = int(view["RemainingRounds"]) or 1  # the match's end shows the last round's cards
        for card_id, _url in [*view["MyHand"], *view["OppHand"]]:
            if card_id in step.labels:
                assert step.labels[card_id] == truth[(key, card_id)], (step.number, card_id)
                checked += 1
                if card_id == 0:
                    shown.setdefault(key, set()).add(step.labels[card_id])
        move_key = rounds - step.round_index
        for card_id in [*(step.move or {}).get("Lay", []), *[(step.move or {}).get(k) for k in ("Take", "Give")]]:
            if card_id is not None and card_id in step.labels_of_move:
                assert step.labels_of_move[card_id] == truth[(move_key, card_id)], (step.number, card_id)
        if step.drawn is not None and step.drawn in step.labels_of_move:
            assert step.labels_of_move[step.drawn] == truth[(move_key, step.drawn)], step.number
    assert checked and len({name for names in shown.values() for name in names}) > 1
    # Every move the file shows is the one played: none is worked out between one round's cards and the next's.
    played = [move for move in record["Moves"] if move["Applied"]]
    seat = list(record["Players"]).index("tester")
    for step in replay.steps[1:]:
        if step.move is not None:
            move = played[step.number - 1]
            assert (move["Seat"] == seat) == (step.mover == 0), step.number
            assert {k: sorted(v) if k == "Lay" else v for k, v in step.move.items()} == {
                k: sorted(v) if k == "Lay" else v for k, v in move["Move"].items()
            } or step.move == {"Lay": []}, step.number
    assert all(len(names) == 1 for names in shown.values()), shown
    printed = CliRunner().invoke(app, ["replay", str(path)], terminal_width=200)
    assert printed.exit_code == 0, printed.output


def test_the_viewers_file_page_names_each_rounds_cards_by_that_rounds_labels(five_rounds) -> None:
    path, record, truth = five_rounds
    answer = file_steps(1, read_replay(path), path.name)
    rounds = answer["NumberOfRounds"]
    zero: set[str] = set()
    for step in answer["Steps"]:
        key = int(step["RemainingRounds"])
        for seat in step["Seats"]:
            for card in seat["Hand"]:
                if card["Landmark"] is not None:
                    assert card["Landmark"] == truth[(key, card["Id"])], (step["Step"], card)
                    assert f"-r{key}-c{card['Id']}-" in card["Url"]  # the picture is that round's card's
                    if card["Id"] == 0:
                        zero.add(card["Landmark"])
        for card in step["MoveCards"]:
            assert card["Landmark"] == truth[(rounds - step["Round"], card["Id"])], (step["Step"], card)
        if "Drawn" in step and step["Drawn"]["Landmark"] is not None:
            assert step["Drawn"]["Landmark"] == truth[(key, step["Drawn"]["Id"])], step["Step"]
    assert len(zero) > 1
    for index, entry in enumerate(answer["Rounds"]):
        assert set(entry["Landmarks"]) <= {name for (at, _id), name in truth.items() if at == rounds - index}


def test_a_file_review_grades_each_round_as_the_records_review(five_rounds) -> None:
    path, record, _truth = five_rounds
    grader = EngineGrader("win", search_nodes=NODES)
    from_records = review_record(record, grader).decisions
    from_file = review_file(path, EngineGrader("win", search_nodes=NODES))
    order = [step.number for step in replay_file(path).steps if step.mover is not None]
    assert len(from_file.decisions) >= len(from_records) - int(record["NumberOfRounds"])
    assert {decision.round_index for decision in from_file.decisions} == set(range(int(record["NumberOfRounds"])))
    for decision in from_file.decisions:
        same = from_records[order.index(decision.step)]
        # The move is named with its own round's landmarks, as the records name it.
        assert (decision.player, decision.played_label) == (same.player, same.played_label), decision.step
        if decision.expected == same.expected:  # (the records may also grade over deck make-ups a file cannot)
            assert decision.best_label == same.best_label, decision.step
            assert decision.played_value == pytest.approx(same.played_value, abs=1e-9)


def test_the_viewers_record_page_names_each_rounds_cards_by_that_rounds_labels(five_rounds) -> None:
    from rummy.rebuild import replay_record
    from server.viewer_routes import _step_json

    _path, record, truth = five_rounds
    replay = replay_record(record)
    rounds = int(record["NumberOfRounds"])
    summary = [
        {key: entry[key] for key in ("RoundIndex", "Landmarks", "FirstMover", "Points", "Winner")}
        for entry in record["Rounds"]
    ]
    for number, step in enumerate(replay.steps):
        answer = _step_json(step, replay.steps[number - 1] if number else step, None, summary, rounds, replay.players)
        key = int(answer["RemainingRounds"]) or 1
        for seat in answer["Seats"]:
            for card in seat["Hand"]:
                assert card["Landmark"] == truth[(key, card["Id"])], (number, card)
        for card in answer["MoveCards"]:
            assert card["Landmark"] == truth[(rounds - answer["Round"], card["Id"])], (number, card)
        if "Drawn" in answer:  # only while the step shows the round the card was drawn in
            assert answer["ViewRound"] == answer["Round"]
            assert answer["Drawn"]["Landmark"] == truth[(rounds - answer["Round"], answer["Drawn"]["Id"])], number


def test_a_rounds_last_move_is_named_by_its_own_rounds_labels_in_a_records_replay() -> None:
    """Seed 12, both players giving their first card: the 20th turn gives card 11 and draws card 38, and the
    next deal has a card 38 (of another landmark) in the same player's hand."""
    from rummy.engine import Match
    from rummy.moves import parse_move
    from rummy.rebuild import labels_of, replay_record
    from server.viewer_routes import _step_json

    match, moves = Match(seed=12, rounds=2), []
    while match.round_index == 0:
        seat = match.current.mover
        last = {"Give": match.current.hands[seat][0].id}
        played, old = match.current, labels_of(match)
        match.apply(seat, parse_move(last))
        moves.append({"Seat": seat, "Move": last, "Applied": True})
    assert len(moves) == 20 and last == {"Give": 11}
    record = {"Seed": "12", "NumberOfRounds": 2, "GameId": 1, "Players": ["a", "b"], "Moves": moves}
    replay = replay_record(record)
    step, new = replay.steps[-1], labels_of(match)
    assert step.drawn == 38 and 38 in [card_id for card_id, _url in step.views[seat]["MyHand"]]
    assert old[11] != new[11] and old[38] != new[38] and played is not match.current
    assert step.labels_of_move[11] == old[11] and step.labels_of_move[38] == old[38]
    assert step.labels[38] == new[38]  # the next deal's card 38, in view
    shown = render_step(replay, step)
    assert f"Give {old[11]}" in _text(shown) and f"drew {old[38]}" in _text(shown)
    rounds = [{"RoundIndex": 0, "Landmarks": [], "FirstMover": 0, "Points": [0, 0], "Winner": 0}] * 2
    answer = _step_json(step, replay.steps[-2], None, rounds, 2, replay.players)
    assert answer["MoveCards"][0]["Landmark"] == old[11]
    assert "Drawn" not in answer  # card 38 of the next deal is another card


def _text(renderable) -> str:
    from rich.console import Console

    console = Console(width=300, record=True)
    console.print(renderable)
    return console.export_text()
