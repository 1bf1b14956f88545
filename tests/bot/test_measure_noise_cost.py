"""`measure noise-cost` summarises rounds: wins by seat, refused Lays, passes and second opinions asked."""

from __future__ import annotations

from bot.matches.local_match import MoveRecord, RoundResult
from bot.measure.noise_cost import summarise


def _move(seat: int, move: dict, *, wasted: bool = False, chance: float = 1.0, asked: int = 0) -> MoveRecord:
    suggestion = {"SetChance": chance} | ({"Asked": asked} if asked else {})
    return MoveRecord(seat, move, 10.0 * (seat + 1), "", 0, wasted, (suggestion,))


def test_the_summary_counts_the_measured_seat_only():
    first = RoundResult(
        "d:0",
        ("p@harsh", "p"),
        0,
        (50, 20),
        0,
        (
            _move(0, {"Lay": [1, 2, 3]}, wasted=True, chance=0.3, asked=2),  # a pass: it expected no set
            _move(1, {"Lay": [4, 5, 6]}, wasted=True, chance=0.1),
            _move(0, {"Lay": [1, 2, 7]}, wasted=True, chance=0.8, asked=1),
            _move(0, {"Take": 9}),
        ),
        ("a", "b", "c", "d"),
    )
    second = RoundResult("d:0", ("p", "p@harsh"), 0, (40, 10), 0, (_move(1, {"Give": 3}),), ("a", "b", "c", "d"))
    row = summarise("p", "harsh", "same", [first, second], [0, 1])
    assert (row.rounds, row.wins, row.rate) == (2, 1, 0.5)
    assert row.mean_margin == (30 - 30) / 2
    assert (row.lays, row.refused, row.passes, row.asks) == (2, 2, 1, 3)
    assert row.mean_move_ms == 10.0 * 3 / 4 + 20.0 / 4
    assert abs(row.expected_refused - (0.7 + 0.2)) < 1e-12  # 1 - the chance each of its Lays stated


def test_expected_refusals_read_a_certain_belief_as_certain():
    # A Lay decided on a certain belief states no chance: sure to be a set, or meant as a pass when refused.
    certain = (
        MoveRecord(0, {"Lay": [1, 2, 3]}, 5.0, "", 20, False, ({"Value": 0.4},)),
        MoveRecord(0, {"Lay": [4, 5, 6]}, 5.0, "", 0, True, ({"Value": 0.1},)),
        MoveRecord(0, {"Lay": [7, 8, 9]}, 5.0, "", 0, True, ()),
        _move(0, {"Lay": [1, 4, 7]}, wasted=False, chance=0.9),
    )
    result = RoundResult("d:1", ("p@noisy", "p"), 0, (20, 30), 0, certain, ("a", "b", "c", "d"))
    row = summarise("p", "noisy", "same", [result], [0])
    assert (row.lays, row.refused, row.passes) == (4, 2, 2)
    assert abs(row.expected_refused - (0 + 1 + 1 + 0.1)) < 1e-12


def test_reveal_tells_the_player_one_hand_and_the_belief_takes_it_as_certain():
    from bot.matches.local_match import Contender
    from rummy import Match, render_gamestate

    match = Match(seed="reveal:1")
    truth = match.current.landmarks_by_url()
    gamestate = render_gamestate(match, match.current.mover)
    for hand, key, other in (("own", "MyHand", "OppHand"), ("opp", "OppHand", "MyHand")):
        agent = Contender("greedy", "harsh:0.4", reveal=hand).new_bot(lambda: truth, 3).source
        agent.observe(gamestate)
        belief = agent.tracker.belief()
        for card_id, url in gamestate[key]:
            assert belief.describe(card_id) == truth[url]  # told: one landmark, the true one
        # The other hand is read through harsh at 40%: some of its cards stay unsure.
        assert not all(belief.sure_of(card_id) for card_id, _url in gamestate[other])
    # Without --reveal nothing is told.
    agent = Contender("greedy", "harsh:0.4").new_bot(lambda: truth, 3).source
    agent.observe(gamestate)
    assert agent.reveal is None and not all(agent.tracker.belief().sure_of(c) for c, _u in gamestate["MyHand"])


def test_noise_cost_refuses_an_unknown_hand_to_reveal(tmp_path):
    from typer.testing import CliRunner

    from bot.cli import app

    result = CliRunner().invoke(
        app,
        ["measure", "noise-cost", "--players", "greedy", "--recognizers", "harsh:0.1", "--reveal", "both"],
        env={"HOME": str(tmp_path), "COLUMNS": "400"},
    )
    assert result.exit_code != 0 and "choose own or opp" in result.output


def test_a_player_with_several_options_is_one_player_in_the_list():
    from bot.cli.measuring import spec_list

    assert spec_list("perfect:doubt=0.1,learn=true,greedy, expectimax:nodes=3000") == [
        "perfect:doubt=0.1,learn=true",
        "greedy",
        "expectimax:nodes=3000",
    ]
    assert spec_list("perfect:learn=true,doubt=0@harsh:0.1,noisy:0.2") == [
        "perfect:learn=true,doubt=0@harsh:0.1",
        "noisy:0.2",
    ]


def _noise_cost_cli(tmp_path, *extra):
    from typer.testing import CliRunner

    from bot.cli import app

    args = ["measure", "noise-cost", "--players", "greedy", "--recognizers", "noisy:0.1,harsh:0.1"]
    args += ["--opponents", "greedy", "--rounds", "2", "--workers", "1", "--out", str(tmp_path), "--name", "nc"]
    return CliRunner().invoke(app, [*args, *extra], env={"HOME": str(tmp_path), "COLUMNS": "400"})


def test_noise_cost_shows_each_rows_progress_and_stores_the_rows(tmp_path):
    import json

    result = _noise_cost_cli(tmp_path)
    assert result.exit_code == 0, result.output
    assert "row 1 of 2, greedy@noisy:0.1 against greedy: 2/2 rounds" in result.output
    assert "row 2 of 2, greedy@harsh:0.1 against greedy: 2/2 rounds" in result.output
    figures = json.loads((tmp_path / "nc.json").read_text())["figures"]
    assert [row["recognizer"] for row in figures["rows"]] == ["noisy:0.1", "harsh:0.1"]
    assert "unfinished" not in figures  # the last write replaces the run's unfinished ones


def test_noise_cost_cut_short_keeps_the_rows_that_finished(tmp_path, monkeypatch):
    import json

    import bot.measure.noise_cost as measured
    from bot.matches.executors import RoundsInterrupted

    real, calls = measured.noise_cost, []

    def cut_in_the_second_row(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise RoundsInterrupted([], 2)  # what run_tasks raises on Ctrl-C
        return real(*args, **kwargs)

    monkeypatch.setattr(measured, "noise_cost", cut_in_the_second_row)
    result = _noise_cost_cli(tmp_path)
    assert result.exit_code == 130, result.output
    assert f"interrupted during row 2 of 2 (Ctrl-C): the 1 finished rows are in {tmp_path / 'nc.json'}" in result.output
    figures = json.loads((tmp_path / "nc.json").read_text())["figures"]
    assert [row["recognizer"] for row in figures["rows"]] == ["noisy:0.1"]
    assert figures["unfinished"] == "1 of 2 rows measured; the run did not finish"
    # Without --save nothing is written, cut short or not.
    calls.clear()
    (tmp_path / "nc.json").unlink()
    result = _noise_cost_cli(tmp_path, "--no-save")
    assert result.exit_code == 130 and "interrupted during row 2 of 2 (Ctrl-C)\n" in result.output
    assert not (tmp_path / "nc.json").exists()
