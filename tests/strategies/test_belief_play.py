"""Deciding on the belief: a refused Lay is not laid again, values are expectations, every strategy plays on it."""

from __future__ import annotations

import pytest

from bot.matches.local_match import Contender, play_round
from recognizers.registry import get_recognizer
from rummy import Give, Lay, Match, Tracker, parse_move, render_gamestate
from rummy.belief import ASSUMED, TRUE_LABELS
from rummy.labels import CardLabel
from strategies.agent import MIN_DRAWS, ArenaAgent, draws_within
from strategies.belief_play import decide
from strategies.registry import get_strategy
from strategies.search.expectimax import SearchResult
from strategies.table.perfect import PerfectStrategy


@pytest.mark.parametrize("spec", ["greedy", "expectimax-plan:nodes=3000"])
def test_a_refused_lay_is_never_laid_again_in_its_round(spec):
    refusals = 0
    for index in range(6):
        noisy = Contender(spec, "harsh:0.3")
        result = play_round(f"refused:{index}", (noisy, Contender("greedy", "oracle")))
        refused: set[frozenset[int]] = set()
        for move in result.moves:
            if move.seat != 0 or "Lay" not in move.move:
                continue
            cards = frozenset(move.move["Lay"])
            assert cards not in refused, f"{spec} laid {sorted(cards)} again after the referee refused it"
            if move.wasted:
                refused.add(cards)
                refusals += 1
    assert refusals > 0, "the recognizer's errors made some Lays fail, so the rule was exercised"


def test_the_belief_decision_values_every_candidate_as_an_expectation():
    match = Match(seed="expect:1")
    agent = ArenaAgent(
        get_strategy("expectimax-plan", nodes=2000),
        get_recognizer("harsh:0.2", source=lambda: match.current.landmarks_by_url(), noise_seed=3),
    )
    view = render_gamestate(match, match.current.mover)
    agent.observe(view)
    assert not agent.belief.certain
    decision = decide(agent.strategy, agent.tracker)
    assert decision.move == decision.ranked[0].move
    assert [item.value for item in decision.ranked] == sorted((item.value for item in decision.ranked), reverse=True)
    assert 0 < decision.weight_valued <= 1
    # Every Take and Give of a card in view is a candidate, and a Take is sure to be played as a Take.
    takes = [item for item in decision.ranked if "Take" in item.move.to_json()]
    assert len(takes) == len(view["OppHand"]) and all(item.sure == 1.0 for item in takes)


def test_with_true_labels_and_nothing_unseen_the_agent_plays_as_before():
    match = Match(seed="certain:2")
    agent = ArenaAgent(
        get_strategy("greedy"), get_recognizer("oracle", source=lambda: match.current.landmarks_by_url())
    )
    while not match.over:
        seat = match.current.mover
        view = render_gamestate(match, seat)
        if seat == match.current.deal.first_mover:
            move = agent.calculate_move(view)
            assert agent.last_decision is None, "a certain belief is played by the strategy directly"
            match.apply(seat, parse_move(move))
        else:
            match.apply(seat, parse_move(ArenaAgent(get_strategy("greedy"), agent.recognizer).calculate_move(view)))


class _Stalled:
    """A searcher whose search never finishes a first iteration: it values no move (as expectimax does when
    its share of the time or nodes ends before depth 1)."""

    nodes = 2000

    def __init__(self) -> None:
        self.inner = get_strategy("greedy")

    def analyse(self, state, deadline=None, *, all_values=False):
        return SearchResult(state.legal_moves()[0], 0.0, 0, False)

    def choose(self, state, deadline=None):
        return self.inner.choose(state, deadline)


def test_a_search_that_values_no_move_still_gives_a_legal_move():
    # Found in a match: expectimax@harsh:0.1 raised "min() arg is an empty sequence" when every share of its
    # budget ended before a first iteration.
    match = Match(seed="expect:1")
    agent = ArenaAgent(
        _Stalled(), get_recognizer("harsh:0.2", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
    )
    view = render_gamestate(match, match.current.mover)
    agent.observe(view)
    assert not agent.tracker.belief().certain
    decision = decide(agent.strategy, agent.tracker)
    parse_move(decision.move.to_json())
    mine = {card[0] for card in view["MyHand"]}
    theirs = {card[0] for card in view["OppHand"]}
    ids = set(getattr(decision.move, "ids", ())) or {decision.move.id}
    assert ids <= mine | theirs


def test_doubt_moves_each_value_by_the_doubt_the_move_takes_out_of_the_hand():
    # perfect:doubt=D: a move's score gains D x the doubt (1 - the likeliest landmark's chance) it takes out of our
    # hand in each assignment: a given card's, an accepted Lay's cards', minus a taken card's; a refused Lay none.
    match = Match(seed="expect:1")
    decisions, beliefs = [], []
    for doubt in (0.0, 0.25):
        strategy = get_strategy("expectimax-plan", nodes=2000)
        strategy.doubt = doubt  # as PerfectStrategy's option sets it; read by decide() from any strategy
        agent = ArenaAgent(
            strategy, get_recognizer("harsh:0.2", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
        )
        agent.observe(render_gamestate(match, match.current.mover))
        decisions.append({item.move: item for item in decide(agent.strategy, agent.tracker).ranked})
        beliefs.append(agent.tracker.belief())
    plain, doubted = decisions
    belief = beliefs[0]

    def unsure(card: int) -> float:
        return 1.0 - max(belief.probability(card, t) for t in range(len(belief.names)))

    assert plain.keys() == doubted.keys() and any(unsure(card) > 0.1 for card in belief.marginals)
    for move, item in plain.items():
        kind, what = next(iter(move.to_json().items()))
        if kind == "Take":
            shed = -unsure(what)
        elif kind == "Give":
            shed = unsure(what)
        else:
            shed = item.sure * sum(unsure(card) for card in what)  # only where the Lay is a set
        # The value shown stays the expectation; the doubt term is kept apart and only ranks.
        assert doubted[move].value == pytest.approx(item.value, abs=1e-9) and item.doubt == 0.0, move
        assert doubted[move].score == pytest.approx(item.value + 0.25 * shed, abs=1e-9), move
    scores = [item.score for item in doubted.values()]
    assert scores == sorted(scores, reverse=True)


def test_learn_counts_what_each_answer_to_a_lay_would_teach_of_the_cards_kept():
    # perfect:doubt=D,learn=true: a Lay's term is D x (the hand's doubt now - its doubt after the referee's answer),
    # expected over the valued assignments, the hand after an answer doubted by the assignments that would show it.
    # Worked out here from the rules and the assignments alone, not through strategies.hand_doubt.
    match = Match(seed="expect:1")
    strategy = get_strategy("expectimax-plan", nodes=2000)
    strategy.doubt, strategy.learn = 0.25, True
    agent = ArenaAgent(
        strategy, get_recognizer("harsh:0.2", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
    )
    view = render_gamestate(match, match.current.mover)
    agent.observe(view)
    decision = decide(agent.strategy, agent.tracker)
    states = agent.tracker.belief_states()[: decision.states]
    mine = [card for card, _url in view["MyHand"]]

    def doubt_of(cards: list[int], members: list) -> float:
        total = sum(item.weight for item in members)
        return sum(
            1.0 - max(sum(item.weight for item in members if item.types[card] == t) / total for t in range(4))
            for card in cards
        )

    def answer(cards: tuple[int, ...], types) -> str:
        kinds = len({types[card] for card in cards})
        return "same" if kinds == 1 else "different" if kinds == len(cards) <= 4 else "refused"

    now, taught = doubt_of(mine, states), 0
    for item in decision.ranked:
        cards = getattr(item.move, "ids", None)
        if cards is None:
            continue
        groups: dict[str, list] = {}
        for state in states:
            groups.setdefault(answer(cards, state.types), []).append(state)
        after = {
            shown: doubt_of(mine if shown == "refused" else [c for c in mine if c not in cards], members)
            for shown, members in groups.items()
        }
        weight = sum(state.weight for state in states)
        expected = sum(state.weight * (now - after[answer(cards, state.types)]) for state in states) / weight
        assert item.doubt == pytest.approx(0.25 * expected, abs=1e-9), item.move
        accepted_only = item.sure * sum(doubt_of([card], states) for card in cards)
        taught += abs(expected - accepted_only) > 1e-6
    assert taught, "some Lay's answer would teach something beyond the doubt of the cards it lays"


def test_perfect_refuses_a_doubt_out_of_range():
    with pytest.raises(ValueError, match="doubt must be"):
        PerfectStrategy.__init__(object.__new__(PerfectStrategy), doubt=-1)


def test_an_agent_with_doubt_records_the_term_beside_the_expected_value():
    match = Match(seed="expect:1")
    strategy = get_strategy("expectimax-plan", nodes=2000)
    strategy.doubt = 0.25
    agent = ArenaAgent(
        strategy, get_recognizer("harsh:0.2", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
    )
    move = agent.calculate_move(render_gamestate(match, match.current.mover))
    shown = agent.last_suggestions
    assert shown and shown[0]["Move"] == move
    # Ranked by Value + Doubt; a move that leaves the hand's doubt as it was (a Take of a sure card) has none.
    scores = [item["Value"] + item.get("Doubt", 0.0) for item in shown]
    assert scores == sorted(scores, reverse=True) and any("Doubt" in item for item in shown)


def _moves_with_true_labels(seed: str, doubt: float) -> tuple[list[dict], bool]:
    """Seat 0's moves in a round against greedy, both with true labels, seat 0 deciding with this doubt; and
    whether it ever decided on an uncertain belief."""
    match = Match(seed=seed)
    strategy = get_strategy("expectimax-plan", nodes=1500)
    strategy.doubt = doubt
    truth = get_recognizer("oracle", source=lambda: match.current.landmarks_by_url())
    agent, other = ArenaAgent(strategy, truth), ArenaAgent(get_strategy("greedy"), truth)
    moves, unsure = [], False
    while not match.over:
        seat = match.current.mover
        move = (agent if seat == 0 else other).calculate_move(render_gamestate(match, seat))
        if seat == 0:
            moves.append(move)
            unsure |= agent.last_decision is not None
            assert all("Doubt" not in item for item in agent.last_suggestions)
        match.apply(seat, parse_move(move))
    return moves, unsure


def test_with_true_labels_doubt_changes_nothing_even_over_an_unseen_opening_set():
    # Greedy opens this deal with a set seat 0 never saw: the belief is unsure of those cards only, and every
    # card in view is certain, so the doubt term is exactly 0 (a rounding's worth once broke ties differently).
    plain, unsure = _moves_with_true_labels("display:open:0", 0.0)
    assert unsure, "seat 0 decided on the unseen set's possible landmarks"
    assert _moves_with_true_labels("display:open:0", 0.25)[0] == plain


class _Table:
    """A table-backed strategy's shape (values every legal move, no node budget) that counts the assignments
    it is asked to value, and asks its belief for `samples` draws as `perfect:samples=N` does."""

    def __init__(self, samples: int) -> None:
        self.samples = samples
        self.valued = 0
        self.inner = get_strategy("greedy")

    def analyse(self, state, deadline=None, *, all_values=False):
        self.valued += 1
        moves = state.legal_moves()
        return SearchResult(moves[0], 0.0, 1, True, {move: 0.0 for move in moves})

    def choose(self, state, deadline=None):
        return self.inner.choose(state, deadline)


def test_more_draws_asked_for_are_drawn_and_every_one_is_valued():
    from strategies.belief_play import TABLE_STATES

    match = Match(seed="expect:1")
    strategy = _Table(samples=1024)
    agent = ArenaAgent(
        strategy, get_recognizer("harsh:0.5", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
    )
    assert agent.tracker.samples == 1024
    agent.observe(render_gamestate(match, match.current.mover))
    states = agent.tracker.belief_states()
    assert not agent.tracker.belief().exact and len(states) > TABLE_STATES  # more than the default would value
    decision = decide(strategy, agent.tracker)
    assert strategy.valued == decision.states == len(states)
    assert decision.weight_valued == pytest.approx(1.0)


def test_perfect_refuses_a_sample_count_out_of_range():
    for samples in (0, 8, 100_000):
        with pytest.raises(ValueError, match="samples must be"):
            PerfectStrategy.__init__(object.__new__(PerfectStrategy), samples=samples)


class _Reader(_Table):
    """A table-backed strategy that reads the opponent on more draws than it values, as `perfect:read_draws=N`."""

    read_opponent = True

    def __init__(self, samples: int, read_draws: int) -> None:
        super().__init__(samples)
        self.read_draws = read_draws


def test_a_belief_drawn_large_for_the_reading_is_valued_on_the_draws_kept():
    match = Match(seed="expect:1")
    strategy = _Reader(samples=64, read_draws=512)
    agent = ArenaAgent(
        strategy, get_recognizer("harsh:0.5", source=lambda: match.current.landmarks_by_url(), noise_seed=3)
    )
    assert (agent.tracker.samples, agent.tracker.keep) == (512, 64)
    agent.observe(render_gamestate(match, match.current.mover))
    assert agent.tracker.belief().draws == 512
    decision = decide(strategy, agent.tracker, opponent=agent.opponent)
    belief = agent.tracker.belief()
    assert belief.draws == 64 and "resampled to 64 draws" in belief.method
    assert strategy.valued == decision.states == len(belief.assignments) <= 64
    assert sum(a.weight for a in belief.assignments) == pytest.approx(1.0)


def test_perfect_refuses_read_draws_out_of_range():
    with pytest.raises(ValueError, match="read_draws must be"):
        PerfectStrategy.__init__(object.__new__(PerfectStrategy), read_draws=5)


def _refused_lay(labels_of):
    """Seat 0 lays three cards of its hand that are truly no set (two of one landmark, one of another),
    labelled by `labels_of(truth)`, and is refused; its tracker as it reads that. Returns (tracker, cards)."""
    match = Match(seed="pass:1")
    seat = match.current.mover
    truth = match.current.landmarks_by_url()
    view = render_gamestate(match, seat)
    kinds = {card_id: truth[url] for card_id, url in view["MyHand"]}
    by_kind: dict[str, list[int]] = {}
    for card_id, kind in kinds.items():
        by_kind.setdefault(kind, []).append(card_id)
    pair = next(ids[:2] for ids in by_kind.values() if len(ids) >= 2)
    odd = next(card for card, kind in kinds.items() if kind != kinds[pair[0]])
    cards = (*pair, odd)
    tracker = Tracker(match.rules, TRUE_LABELS)
    labels, model = labels_of(kinds, cards)
    tracker.observe(view, labels, model)
    tracker.played(Lay(cards))
    assert match.apply(seat, Lay(cards)).wasted
    other = 1 - seat
    match.apply(other, Give(render_gamestate(match, other)["MyHand"][0][0]))
    later = render_gamestate(match, seat)
    tracker.observe(
        later,
        {card_id: labels.get(card_id, kinds.get(card_id)) for card_id, _ in later["MyHand"] + later["OppHand"]},
        model,
    )
    return tracker, frozenset(cards)


def test_a_refused_pass_may_pass_again_but_a_refused_set_is_never_laid_again():
    # True labels: the Lay was no set in every assignment, a pass; laying it again is a pass again (with three
    # cards in hand it can be the only one, and the best move: deal probegreedy:9).
    tracker, cards = _refused_lay(lambda kinds, cards: (dict(kinds), TRUE_LABELS))
    assert tracker.sets[-1].meant_as_pass and tracker.refused() == []

    # Labels that make the three one landmark: tried as a set, refused, never laid again.
    def misread(kinds, cards):
        labels = {card: CardLabel(kind, 0.9) for card, kind in kinds.items()}
        labels.update({card: CardLabel(kinds[cards[0]], 0.9) for card in cards})
        return labels, ASSUMED

    tracker, cards = _refused_lay(misread)
    assert not tracker.sets[-1].meant_as_pass and tracker.refused() == [cards]


def test_a_move_draws_what_fits_its_thinking_time():
    """Draws are cut by the deadline (halving from the strategy's number), never by the time a move took, so a move
    time and a seed replay the same moves on any machine; with no deadline every draw is taken."""
    assert draws_within(1024, None) == 1024
    assert draws_within(1024, 5.0) == 1024
    assert draws_within(1024, 0.18) == 512  # a 300 ms move: 60% of it to think
    assert draws_within(1024, 0.01) == MIN_DRAWS  # never below the floor
    assert draws_within(64, 0.0) == 64  # nor above what was asked
