"""`replay FILE` and the viewer's file page show the same rounds, points and labels as the records for the
same match, played once and recorded both ways (the referee's records and the bot's `play` file)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.replays import replay_file
from rummy.rebuild import replay_record

runner = CliRunner()


def _our_moves(steps, mover) -> list[tuple[int, str, str]]:
    return [(step.round_index, repr(step.move), step.note) for step in steps if step.mover == mover]


def _shown_labels(steps, seat: int) -> dict[tuple[int, int], str]:
    """{(RemainingRounds, card id): landmark} of the cards in each step's view of `seat` (card ids are a round's
    own: the referee deals 0..39 in every round)."""
    found: dict[tuple[int, int], str] = {}
    for step in steps:
        view = step.views[seat]
        if view is None:
            continue
        for hand in ("MyHand", "OppHand"):
            for card_id, _url in view[hand]:
                if card_id in step.labels:
                    found[(int(view["RemainingRounds"]), card_id)] = step.labels[card_id]
    return found


def test_a_file_replay_shows_the_records_rounds_points_and_labels(match_recorder) -> None:
    path, record = match_recorder(seed=3, opponent="housebot-greedy", style=2)  # several rounds
    from_file = replay_file(path)
    from_records = replay_record(record)
    seat = list(record["Players"]).index("tester")
    # Our own moves: the same round, move and points note ("+50", not "+44" after the round's hand penalty).
    assert _our_moves(from_file.steps, 0) == _our_moves(from_records.steps, seat)
    # Every step's round is one the match had (the last step is not called a round after the last).
    assert max(step.round_index for step in from_file.steps) == max(step.round_index for step in from_records.steps)
    # Every label the file gives a card in view is the card's true landmark in that round.
    truth = _shown_labels(from_records.steps, seat)
    labels = _shown_labels(from_file.steps, 0)
    assert labels and all(truth[key] == name for key, name in labels.items())
    # So are the labels its moves are described with (a round's last move shows the next deal).
    ours = [step for step in from_records.steps if step.mover == seat]
    for file_step, record_step in zip([step for step in from_file.steps if step.mover == 0], ours, strict=True):
        named = [card_id for card_id in (file_step.move or {}).get("Lay", []) if card_id in file_step.labels_of_move]
        assert [file_step.labels_of_move[card_id] for card_id in named] == [
            record_step.labels_of_move[card_id] for card_id in named
        ]
    shown = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    rounds = int(record["NumberOfRounds"])
    assert f"round {rounds + 1}" not in shown.output.lower()


@pytest.mark.parametrize(("style", "opponent"), [(2, "housebot-greedy"), (1, "housebot-practise")])
def test_the_viewers_file_page_names_every_card_the_file_labels(match_recorder, style: int, opponent: str) -> None:
    from bot.replay.recording import labels_by_round, read_replay
    from server.file_steps import file_steps

    path, record = match_recorder(seed=3, opponent=opponent, style=style)
    lines = read_replay(path)
    # {(RemainingRounds, card id): landmark}: card ids are a round's own (0..39 in every round).
    labelled = {
        (key, card_id): name for key, names in labels_by_round(lines).items() for card_id, name in names.items()
    }
    answer = file_steps(1, lines, path.name)
    rounds = answer["NumberOfRounds"]
    shown: dict[tuple[int, int], str | None] = {}
    for step in answer["Steps"]:
        key = int(step["RemainingRounds"])
        for seat in step["Seats"]:
            for card in seat["Hand"]:
                shown[(key, card["Id"])] = shown.get((key, card["Id"])) or card["Landmark"]
        for card in step["MoveCards"]:  # named in the round the move was made in
            assert card["Landmark"] == labelled.get((rounds - step["Round"], card["Id"])), card
        if "Drawn" in step:
            assert step["Drawn"]["Landmark"] == labelled.get((key, step["Drawn"]["Id"])), step["Drawn"]
    unnamed = sorted(card for card, name in shown.items() if name is None and card in labelled)
    assert not unnamed, unnamed
    assert [entry["RoundIndex"] for entry in answer["Rounds"]] == list(range(int(record["NumberOfRounds"])))


def test_labels_of_a_move_whose_answer_was_lost_stay_with_its_round(real_server, tmp_path) -> None:
    """When a move's answer is lost, the client asks for the gamestate first and records the move after it;
    if that move ended a round, the gamestate is the next deal. The move's labels still name its own round's
    cards (the move line says its round), so the replay and the viewer label them."""
    from bot_fault_proxy import FaultProxy
    from test_bot_faults import FAST

    from bot.client.config import Credentials
    from bot.client.protocol_client import ArenaClient
    from bot.client.runner import PlayOptions, Runner
    from bot.players.match_bots import strategy_bot
    from bot.replay.recording import labels_by_round, read_replay

    base, passwords = real_server(move_time_ms=60_000, seed=3)
    proxy = FaultProxy(base.removesuffix("/prod/"), lambda call, n: "drop_after" if call == "GM-MakeMove" else "pass")
    with proxy.running() as proxy_base:
        bot = strategy_bot("greedy", "oracle", base_url=base)
        options = PlayOptions(game_style_id=2, opponent_id="housebot-greedy", record_dir=tmp_path, move_time_s=60)
        with ArenaClient(proxy_base, Credentials("tester", passwords["tester"]), policy=FAST) as client:
            (summary,) = Runner(client, bot, options).run()
    assert summary.error is None, summary.error
    lines = read_replay(summary.record_path)
    in_round: dict[int, set[int]] = {}
    for line in lines:
        if line["type"] == "gamestate":
            state = line["gamestate"]
            cards = {card[0] for hand in ("MyHand", "OppHand") for card in state[hand]}
            in_round.setdefault(int(state["RemainingRounds"]), set()).update(cards)
    for round_key, labels in labels_by_round(lines).items():
        strays = sorted(set(labels) - in_round.get(round_key, set()))
        assert not strays, (round_key, strays)
