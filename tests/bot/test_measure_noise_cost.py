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
