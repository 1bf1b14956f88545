"""The duel's luck-adjusted figure is an unbiased estimate of the first player's expected win rate.

Checked exactly on miniature rules: over every order of the deck (each equally likely, as a shuffle
makes them), the mean of the rounds' results equals the mean of the luck-adjusted estimates, with
values solved to the end of the round. The results themselves swing with the deck; the estimates
do not depend on it beyond what the players chose.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli.main import app
from bot.measure.luck import LuckTally, Regrets, deal_estimate, judged_round
from rummy import RulesConfig
from rummy.countstate import CountState
from rummy.deals import DealSpec
from strategies.kernel.solve_position import solve_exact

RULES = RulesConfig(types_per_round=3, cards_per_type=4, hand_size=3)
HANDS = ((0, 0, 1), (1, 2, 2))
REST = (0, 0, 1, 1, 2, 2)  # the deck's cards, in any order


def solved(state: CountState) -> dict[int, float]:
    answer = solve_exact(state, "win")
    assert answer is not None
    return answer.values


class Best:
    """Plays the judge's best move: it never gives anything up."""

    name = "best"

    def choose(self, state: CountState) -> int:
        values = solved(state)
        return max(values, key=lambda move: (values[move], -move))


class FirstLegal:
    """Plays its lowest legal move: no look at the deck, so its mistakes are its own, not the deck's."""

    name = "first-legal"

    def choose(self, state: CountState) -> int:
        return min(state.legal_moves())


@pytest.mark.parametrize(("player", "opponent"), [(Best, FirstLegal), (FirstLegal, Best), (FirstLegal, FirstLegal)])
def test_over_every_deck_order_the_luck_adjusted_mean_equals_the_mean_result(player: type, opponent: type) -> None:
    results, estimates, given_up = [], [], []
    for draws in sorted(set(itertools.permutations(REST))):
        # Distinct orders of a multiset are equally likely under a shuffle, so their plain mean is the expectation.
        deal = DealSpec(HANDS, draws, first_mover=0)
        rounds = []
        for seat in (0, 1):
            seats = (player(), opponent()) if seat == 0 else (opponent(), player())
            final, regrets = judged_round(deal, seats, solved, RULES)
            results.append(int(final.winner() == seat))
            rounds.append((regrets.given_up[seat], regrets.given_up[1 - seat]))
            given_up.append(sum(regrets.given_up))
        estimates.append(deal_estimate(rounds))
    assert len(set(results)) == 2  # the deck decides some rounds: there is luck to take out
    assert max(given_up) > 0.05  # and some P(win) is given up, so the estimates are not all 0.5
    assert statistics.fmean(estimates) == pytest.approx(statistics.fmean(results), abs=1e-9)
    assert statistics.pstdev(estimates) < statistics.pstdev(results)


def test_a_player_that_never_errs_against_itself_is_estimated_at_one_half() -> None:
    deal = DealSpec(HANDS, REST, first_mover=1)
    rounds = []
    for seat in (0, 1):
        _final, regrets = judged_round(deal, (Best(), Best()), solved, RULES)
        assert regrets.given_up == [0.0, 0.0] and regrets.mistakes == [0, 0]
        assert sum(regrets.decisions) > 0
        rounds.append((regrets, seat))
    tally = LuckTally()
    tally.add(rounds)
    adjusted = tally.figure("exact")
    assert adjusted.rate == 0.5 and adjusted.player_regret == 0.0


def test_the_figure_sums_each_deals_two_seatings_and_names_who_gave_up_what() -> None:
    def regrets(given_up: list[float], mistakes: list[int]) -> Regrets:
        return Regrets(given_up=given_up, decisions=[4, 4], mistakes=mistakes)

    # Deal 1: the first player (seat 0, then seat 1) gives up 0.1 once; its opponent 0.3 and 0.1.
    # Deal 2: nobody gives up anything.
    deals = [
        [(regrets([0.1, 0.3], [1, 1]), 0), (regrets([0.1, 0.0], [1, 0]), 1)],
        [(regrets([0.0, 0.0], [0, 0]), 0), (regrets([0.0, 0.0], [0, 0]), 1)],
    ]
    tally = LuckTally()
    for rounds in deals:
        tally.add(rounds)
    adjusted = tally.figure("exact")
    assert deal_estimate([(0.1, 0.3), (0.0, 0.1)]) == pytest.approx(0.65)
    assert adjusted.rate == pytest.approx((0.65 + 0.5) / 2)
    # The normal interval over the two deals' estimates, 0.65 and 0.5: their sample spread, by hand.
    spread = 1.959963984540054 * statistics.stdev([0.65, 0.5]) / 2**0.5
    assert (adjusted.low, adjusted.high) == pytest.approx((adjusted.rate - spread, adjusted.rate + spread))
    assert adjusted.player_regret == pytest.approx(0.1 / 4) and adjusted.opponent_regret == pytest.approx(0.4 / 4)
    assert adjusted.player_mistakes == pytest.approx(1 / 16) and adjusted.opponent_mistakes == pytest.approx(2 / 16)


def test_without_the_whole_win_table_the_duel_says_it_gives_no_luck_adjusted_figure(tmp_path: Path) -> None:
    runner = CliRunner()
    asked = runner.invoke(app, ["measure", "duel", "greedy", "random", "--rounds", "2", "--luck-adjusted"])
    assert asked.exit_code == 2 and "needs the whole win table" in asked.output
    plain = runner.invoke(app, ["measure", "duel", "greedy", "random", "--rounds", "2", "--out", str(tmp_path)])
    assert plain.exit_code == 0, plain.output
    assert "no luck-adjusted figure: the whole win table is not built" in plain.output
    stored = json.loads(next(tmp_path.glob("duel-*.json")).read_text(encoding="utf-8"))
    assert stored["figures"]["luck_adjusted"] is None and stored["settings"]["judge"] is None
    assert stored["figures"]["rounds"] == 2


def test_the_running_figure_equals_the_figure_of_all_deals_at_once() -> None:
    rng = random.Random(11)
    tally, estimates = LuckTally(), []
    for _deal in range(500):
        rounds = [(Regrets(given_up=[rng.random() / 10, rng.random() / 10]), seat) for seat in (0, 1)]
        tally.add(rounds)
        estimates.append(deal_estimate([(r.given_up[seat], r.given_up[1 - seat]) for r, seat in rounds]))
    adjusted = tally.figure("exact")
    spread = 1.959963984540054 * statistics.stdev(estimates) / len(estimates) ** 0.5
    assert adjusted.deals == 500 and adjusted.rate == pytest.approx(statistics.fmean(estimates), abs=1e-12)
    assert adjusted.high - adjusted.rate == pytest.approx(spread, rel=1e-9)


def test_a_win_table_that_does_not_load_ends_the_duel_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.measure.luck as luck
    from strategies.table import TableError

    def broken() -> None:
        raise TableError("win-x.rvw: layer 7's CRC-32 does not match")

    monkeypatch.setattr(luck, "win_table_judge", broken)
    done = CliRunner().invoke(app, ["measure", "duel", "greedy", "random", "--rounds", "2", "--no-save"])
    assert done.exit_code == 2 and "cannot value the duel's decisions: win-x.rvw: layer 7's CRC-32" in done.output
