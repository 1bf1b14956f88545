"""`CountState.pop()` returns what it undoes (like python-chess's `Board.pop()`), so undo then redo is the identity."""

from __future__ import annotations

import random

from rummy import DECIDE, DRAW, CountState, random_decision


def test_pop_returns_each_move_and_draw_in_reverse_and_pushing_them_again_redoes_the_round() -> None:
    rng = random.Random(5)
    state = random_decision(rng, turns_left=6)
    start = state.key()
    played: list[tuple[int, int]] = []  # (phase it was played in, move id or drawn type)
    while not state.is_over:
        if state.phase == DECIDE:
            move = rng.choice(state.legal_moves())
            played.append((DECIDE, move))
            state.push(move)
        else:
            draw = state.sample_draw(rng)
            played.append((DRAW, draw))
            state.push_draw(draw)
    final = (state.key(), tuple(state.points))
    undone = []
    for _ in played:
        value = state.pop()
        undone.append((state.phase, value))
    assert undone == played[::-1]
    assert state.key() == start
    redo: CountState = state
    for phase, value in played:
        assert redo.phase == phase
        redo.push(value) if phase == DECIDE else redo.push_draw(value)
    assert (redo.key(), tuple(redo.points)) == final


def test_phases_and_move_kinds_are_enums_that_still_read_as_their_plain_values() -> None:
    from rummy import MoveKind, Phase

    state = random_decision(random.Random(1), turns_left=3)
    assert state.phase is Phase.DECIDE and state.phase == 0
    kinds = {state.rules.moves[move].kind for move in range(len(state.rules.moves))}
    assert kinds == set(MoveKind) == {"lay", "waste", "take", "give"}
    assert all(isinstance(kind, MoveKind) for kind in kinds)
