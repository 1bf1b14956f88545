"""The tracker reads the opponent's moves from a bot's own views: what it saw and what it did, checked
against the engine's own record of every move (random play, refused Lays included)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import kinds_of, random_card_move

from rummy import Match, Tracker, parse_move, render_gamestate
from rummy.moves import Give, Take
from rummy.opponent_moves import OpponentDecision, SeenKind


def _truth(match: Match, move, outcome_wasted: bool, seen_laid: set[int]) -> OpponentDecision:
    """What the opponent (player 1) saw and did, from the engine: the reading the tracker should find."""
    round_ = match.current
    mine, theirs = round_.hand_ids(0), round_.hand_ids(1)
    if isinstance(move, Take):
        kind, cards = SeenKind.TAKE, (move.id,)
    elif isinstance(move, Give):
        kind, cards = SeenKind.GIVE, (move.id,)
    elif outcome_wasted:
        kind, cards = SeenKind.REFUSED, ()
    else:
        kind, cards = SeenKind.LAY, tuple(sorted(move.ids))
    out = tuple(sorted({*mine, *theirs, *seen_laid}))
    return OpponentDecision(
        tuple(sorted(mine)), tuple(sorted(theirs)), out, tuple(round_.points), round_.turns_left, kind, cards
    )


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32))
def test_every_opponent_move_is_read_as_the_engine_played_it(seed):
    match = Match(seed=seed)
    rng = random.Random(seed)
    tracker = Tracker()
    tracker.observe(render_gamestate(match, 0), kinds_of(match))  # the deal, as a bot sees it first
    fresh = True  # the tracker has seen the position as it is now
    expected: list[OpponentDecision] = []
    followed_ours = False  # the opponent moves right after one of our moves (else we cannot read it)
    while not match.over:
        round_ = match.current
        mover = round_.mover
        if mover == 0 and not fresh:
            tracker.observe(render_gamestate(match, 0), kinds_of(match))
        fresh = False
        move = parse_move(random_card_move(match, rng, malformed_share=0.0)[0])
        truth = _truth(match, move, False, {card.id for card in round_.laid}) if mover == 1 else None
        outcome = match.apply(mover, move)
        if mover == 0:
            tracker.played(move)
            followed_ours = not match.over
            continue
        if followed_ours and not match.over:
            assert truth is not None
            expected.append(replace(truth, kind=SeenKind.REFUSED, cards=()) if outcome.wasted else truth)
        followed_ours = False
    # The last opponent move is read only at our next view, which a round's end may never bring.
    read = tracker.opponent_moves
    assert len(read) in (len(expected), len(expected) - 1)
    for readings, truth in zip(read, expected):
        assert truth in readings, f"read {readings}, played {truth}"
        assert len(readings) <= 2
