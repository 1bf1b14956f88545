"""The laid-cards bound of the win table (strategies.table.win.reach) on miniature rules, against every
(state, banked difference) pair that play from every deal reaches (tests/strategies/win_reachable.py,
written from the rules) and the exact win probabilities of tests/strategies/win_brute.py."""

from __future__ import annotations

import pytest
from kernel_helpers import MINIATURES, rules_id
from win_reachable import brute_and_reachable, kernel_state_at

from rummy import DEFAULT_RULES, RulesConfig, game_info
from rummy.countstate import unpack
from strategies.kernel import kernel_tables
from strategies.kernel.win_swing import window
from strategies.table.win.reach import BOUNDS, LaidBound
from strategies.table.win.window import swing_layers, tie_of
from tools.recipes.win_count import count_pairs


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_every_pair_a_deal_reaches_lies_within_the_laid_cards_bound(rules: RulesConfig) -> None:
    bound = LaidBound(rules)
    _brute, reachable = brute_and_reachable(rules)
    checked = 0
    for d in range(1, rules.deck_size + 1):
        for (state, diff), laid_ways in reachable[d].items():
            # The cards in neither hand nor the deck are exactly the cards laid in sets.
            assert laid_ways == {tuple(rules.cards_per_type - m - o - k for m, o, k in state)}
            (laid,) = laid_ways
            for name in BOUNDS:
                assert bound.allows(d, laid, diff, name), (d, state, diff, name)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_the_bounded_count_holds_every_reachable_open_pair_and_says_how_loose_it_is(
    rules: RulesConfig, capsys: pytest.CaptureFixture[str]
) -> None:
    brute, reachable = brute_and_reachable(rules)
    counted = count_pairs(rules, workers=1)["layers"]
    looseness = []
    for d in range(1, rules.deck_size + 1):
        mover_wins_ties = (rules.deck_size - d) % 2 == 1  # it moved second: an odd number of turns taken
        open_pairs = set()
        for state, diff in reachable[d]:
            mine, theirs, deck = (tuple(triple[i] for triple in state) for i in range(3))
            if 0 < brute.p_win(mine, theirs, deck, diff, mover_wins_ties) < 1:
                open_pairs.add((state, diff))
        layer = counted[d - 1]
        assert layer["layer"] == d
        assert len(open_pairs) <= layer["pairs_laid_sets"] <= layer["pairs_laid_total"] <= layer["pairs"]
        assert len({state for state, _diff in open_pairs}) <= layer["open_states_laid_sets"] <= layer["open_states"]
        looseness.append(f"{d}: {len(open_pairs)}/{layer['pairs_laid_sets']}/{layer['pairs']}")
    with capsys.disabled():
        print(f"\n{rules_id(rules)} open pairs by layer, reachable/laid-sets bound/every state: {', '.join(looseness)}")
    # The bound is tight enough to matter: far below the every-state count over the round.
    assert sum(layer["pairs_laid_sets"] for layer in counted) * 2 < sum(layer["pairs"] for layer in counted)


@pytest.mark.parametrize("rules", MINIATURES, ids=rules_id)
def test_the_compiled_count_is_the_bound_applied_state_by_state(rules: RulesConfig) -> None:
    bound = LaidBound(rules)
    unit = game_info(rules).point_unit
    blob = kernel_tables(rules).blob
    layers = swing_layers(rules, workers=1)
    counted = count_pairs(rules, workers=1)["layers"]
    for d in range(1, len(layers)):
        g, h = layers[d]
        totals = dict.fromkeys(BOUNDS, 0)
        for i in range(len(g)):
            mine, theirs, deck = (unpack(code, rules.types_per_round) for code in kernel_state_at(blob, d, i))
            laid = tuple(rules.cards_per_type - m - o - k for m, o, k in zip(mine, theirs, deck, strict=True))
            first, count = window(int(g[i]), int(h[i]), tie_of(rules, d), unit)
            for name in BOUNDS:
                totals[name] += sum(bound.allows(d, laid, q * unit, name) for q in range(first, first + count))
        assert (totals["laid total"], totals["laid sets"]) == (
            counted[d - 1]["pairs_laid_total"],
            counted[d - 1]["pairs_laid_sets"],
        )


def test_the_real_rules_bound_at_the_deal_and_after_a_few_turns() -> None:
    bound = LaidBound(DEFAULT_RULES)
    top = DEFAULT_RULES.deck_size
    nothing = (0, 0, 0, 0)
    # At the deal nothing is laid: D = 0 only.
    assert [q for q in range(-60, 61) if bound.allows(top, nothing, 5 * q)] == [0]
    # A five of a kind laid after one turn: the first mover laid it, so the mover (second) is 50 behind.
    assert [q * 5 for q in range(-60, 61) if bound.allows(top - 1, (5, 0, 0, 0), 5 * q)] == [-50]
    # Six of a kind cannot be laid in one turn, nor split into sets of three before each player had a turn.
    assert not any(bound.allows(top - 1, (6, 0, 0, 0), 5 * q) for q in range(-60, 61))
    assert [q * 5 for q in range(-60, 61) if bound.allows(top - 2, (6, 0, 0, 0), 5 * q)] == [0]
    # The laid-total bound alone allows every D up to the 40 the six can score.
    assert [q * 5 for q in range(-60, 61) if bound.allows(top - 2, (6, 0, 0, 0), 5 * q, "laid total")] == list(
        range(-40, 45, 5)
    )
    # Cards that no partition into sets covers: such a state cannot occur.
    assert not any(bound.allows(d, (1, 1, 0, 0), 5 * q) for d in range(top + 1) for q in range(-60, 61))
