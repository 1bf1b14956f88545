"""Move ordering: the transposition table's move, then the killers of the ply, then a static order."""

from __future__ import annotations

from rummy import CountRules, CountState, MoveKind

KILLER_SLOTS = 2
MAX_PLY = 64


def static_rank(rules: CountRules) -> tuple[int, ...]:
    """Lower ranks first: big sets, then takes, gives, and the wasted lay (a pass) last."""
    ranks = []
    for move in rules.moves:
        if move.kind == MoveKind.LAY:
            ranks.append(100 - move.points)
        elif move.kind == MoveKind.TAKE:
            ranks.append(200 + move.type)
        elif move.kind == MoveKind.GIVE:
            ranks.append(300 + move.type)
        else:
            ranks.append(400)
    return tuple(ranks)


class MoveOrderer:
    def __init__(self, rules: CountRules, killers: bool = True) -> None:
        self.rank = static_rank(rules)
        self.use_killers = killers
        self.killers = [[-1] * KILLER_SLOTS for _ in range(MAX_PLY)]
        self._static: dict[tuple[int, int], tuple[int, ...]] = {}

    def static(self, state: CountState) -> tuple[int, ...]:
        mover = state.mover
        pair = (state.hands[mover], state.hands[1 - mover])
        found = self._static.get(pair)
        if found is None:
            rank = self.rank
            found = self._static[pair] = tuple(sorted(state.legal_moves(), key=rank.__getitem__))
        return found

    def ordered(self, state: CountState, tt_move: int, ply: int) -> tuple[int, ...] | list[int]:
        base = self.static(state)
        front: list[int] = []
        if tt_move >= 0 and tt_move in base:
            front.append(tt_move)
        if self.use_killers and ply < MAX_PLY:
            for killer in self.killers[ply]:
                if killer >= 0 and killer != tt_move and killer in base:
                    front.append(killer)
        if not front:
            return base
        return front + [move for move in base if move not in front]

    def cutoff(self, move: int, ply: int) -> None:
        """Remember a move that refuted the position at this ply (a killer)."""
        if not self.use_killers or ply >= MAX_PLY:
            return
        slots = self.killers[ply]
        if slots[0] != move:
            slots[1] = slots[0]
            slots[0] = move
