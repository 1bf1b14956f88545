"""A second win solver and a second reader of the win table file, sharing no code with the kernel
(strategies.kernel), with rummy.countstate or with the table's own reader (win_format, win_reach):
written from the rules and from the file format's description.

The rules' moves and the canonical index come from strategies.table.margin.independent (itself written from
the rules alone). What this module adds:
- the file: the preamble and JSON header, then per finished layer the parts G, H (int16 per state),
  counts (uint8), the offset of every BLOCK-th state's values (int64, then the total) and the values
  (uint16, P(win) * 65535), each part starting on an 8-byte boundary, little-endian;
- the meaning of G and H: at banked difference D (mover minus opponent, a multiple of the point unit)
  P = 1 exactly when D + G > 0, or D + G = 0 and the mover wins ties; P = 0 exactly when D + H < 0, or
  D + H = 0 and the mover loses ties; in between a value is stored;
- which differences a state keeps: D must be a signed sum of a partition of the laid cards (in neither
  hand nor the deck) into valid sets, + for the mover's and - for the opponent's, the mover having laid
  at most t // 2 of them and the opponent at most t - t // 2 after t turns; enumerated here by brute
  force over partitions;
- P(win) by the rules: the best move's chance of winning, over the draw, from the next turn's values.
"""

from __future__ import annotations

import bisect
import itertools
import json
import struct
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from rummy.config import RulesConfig
from strategies.table.margin.independent import Counts, IndependentSolver

MAGIC = b"RVWINTAB"
FORMAT = 2
HEADER_AT = 20  # magic (8 bytes), then format, header length and header CRC-32 (3 x uint32)
BLOCK = 8
SCALE = 65535.0
MISSING = -1.0  # the table keeps no value at this difference


class WinFileError(ValueError):
    pass


def _aligned(at: int) -> int:
    return (at + 7) // 8 * 8


@dataclass
class WinLayerFile:
    g: np.ndarray
    h: np.ndarray
    counts: np.ndarray
    offsets: np.ndarray
    values: np.ndarray


def read_win_file(path: Path) -> tuple[dict[str, Any], list[WinLayerFile | None]]:
    """The header and layers 1..done of a win table (index 0 is None), mapped read-only."""
    with path.open("rb") as file:
        head = file.read(HEADER_AT)
        if len(head) < HEADER_AT or head[:8] != MAGIC:
            raise WinFileError(f"{path} is not a win table")
        version, length, crc = struct.unpack("<III", head[8:])
        if version != FORMAT:
            raise WinFileError(f"{path} has format {version}; this reader knows {FORMAT}")
        body = file.read(length)
    if zlib.crc32(body) != crc:
        raise WinFileError(f"{path}: the header fails its checksum")
    header: dict[str, Any] = json.loads(body)
    layers: list[WinLayerFile | None] = [None]
    for d in range(1, header["done"] + 1):
        info, states = header["layers"][d - 1], header["sizes"][d]
        at = info["at"]
        parts = []
        for dtype, count in (
            ("<i2", states),
            ("<i2", states),
            ("u1", states),
            ("<i8", (states + BLOCK - 1) // BLOCK + 1),
            ("<u2", info["values"]),
        ):
            parts.append(np.memmap(path, dtype=dtype, mode="r", offset=at, shape=(count,)) if count else np.zeros(0))
            at = _aligned(at + count * np.dtype(dtype).itemsize)
        if at != info["end"]:
            raise WinFileError(f"{path}: layer {d} ends at byte {at} by the format, the header says {info['end']}")
        layers.append(WinLayerFile(*parts))
    return header, layers


@dataclass
class IndependentWin:
    """Exact P(win) by the rules, and the table's P(win) read through this module's own reader."""

    config: RulesConfig
    unit: int
    rules: IndependentSolver = field(init=False)

    def __post_init__(self) -> None:
        self.rules = IndependentSolver(self.config)
        self.deck_size = self.config.total_cards - 2 * self.config.hand_size
        self.set_kinds = self._set_kinds()
        self.partitions = cache(self._partitions)
        self._kept = cache(self._kept_uncached)
        self._full: dict[tuple[Any, ...], float] = {}

    # --- the rules ----------------------------------------------------------------------------------

    def mover_wins_ties(self, d: int) -> bool:
        """The second player wins ties; with d cards in the deck, deck_size - d turns are taken, so the
        player to move moved second when that number is odd."""
        return (self.deck_size - d) % 2 == 1

    @staticmethod
    def won(margin: int, mover_wins_ties: bool) -> float:
        return 1.0 if margin > 0 or (margin == 0 and mover_wins_ties) else 0.0

    def move_results(self, mine: Counts, theirs: Counts) -> list[tuple[Counts, Counts, int]]:
        return sorted(self.rules.effects(mine, theirs))

    def draws(self, deck: Counts) -> list[tuple[int, float]]:
        """(type, probability) of the card drawn."""
        total = sum(deck)
        return [(t, n / total) for t, n in enumerate(deck) if n]

    def final_margin(self, mine: Counts, theirs: Counts, banked: int) -> int:
        return banked + self.config.hand_penalty * (sum(theirs) - sum(mine))

    def step(self, state: tuple[Counts, Counts, Counts], q: int, below: Any) -> float:
        """P(win) of the mover at banked difference q * unit: the best move, each draw's result read from
        `below(mine, theirs, deck, q)` (the next mover's P(win) in the layer below)."""
        mine, theirs, deck = state
        d = sum(deck)
        ties = self.mover_wins_ties(d)
        best = 0.0
        for mine2, theirs2, points in self.move_results(mine, theirs):
            banked = q * self.unit + points
            if not sum(mine2) or not sum(theirs2):
                value = self.won(self.final_margin(mine2, theirs2, banked), ties)
            else:
                value = 0.0
                for t, chance in self.draws(deck):
                    drawn = mine2[:t] + (mine2[t] + 1,) + mine2[t + 1 :]
                    if d == 1:
                        outcome = self.won(self.final_margin(drawn, theirs2, banked), ties)
                    else:
                        rest = deck[:t] + (deck[t] - 1,) + deck[t + 1 :]
                        opponent = below(theirs2, drawn, rest, -banked // self.unit)
                        if opponent == MISSING:
                            return MISSING
                        outcome = 1.0 - opponent
                    value += chance * outcome
            best = max(best, value)
        return best

    def full(self, state: tuple[Counts, Counts, Counts], q: int) -> float:
        """P(win) by plain expectimax to the end of the round, no table."""
        key = (tuple(sorted(zip(*state))), q)
        known = self._full.get(key)
        if known is None:
            known = self._full[key] = self.step(state, q, lambda m, o, k, q2: self.full((m, o, k), q2))
        return known

    # --- the differences a state keeps ---------------------------------------------------------------

    def _set_kinds(self) -> list[tuple[Counts, int]]:
        """Every valid set as counts by type, with its points."""
        kinds = []
        n = self.config.types_per_round
        for size in range(self.config.min_lay, self.config.max_lay + 1):
            for t in range(n):
                points = dict(self.config.same_kind_points).get(size, 0)
                if points and size <= self.config.cards_per_type:
                    kinds.append((tuple(size if i == t else 0 for i in range(n)), points))
            points = dict(self.config.different_points).get(size, 0)
            if points and size <= n:
                for chosen in _subsets(n, size):
                    kinds.append((tuple(1 if i in chosen else 0 for i in range(n)), points))
        return kinds

    def _partitions(self, laid: Counts) -> frozenset[tuple[int, int, int]]:
        """(sets of the mover, sets of the opponent, D / unit) of every way to split `laid` into valid
        sets, each laid by either player. The set holding a card of the first type left is chosen first,
        so each partition is met once per assignment."""
        if not any(laid):
            return frozenset({(0, 0, 0)})
        first = next(t for t, n in enumerate(laid) if n)
        found = set()
        for kind, points in self.set_kinds:
            if kind[first] and all(k <= n for k, n in zip(kind, laid)):
                rest = tuple(sorted(n - k for n, k in zip(laid, kind)))  # sets treat every type alike
                for a, b, q in self.partitions(rest):
                    found.add((a + 1, b, q + points // self.unit))
                    found.add((a, b + 1, q - points // self.unit))
        return frozenset(found)

    def kept(self, state: tuple[Counts, Counts, Counts]) -> tuple[int, ...]:
        """The differences (in units, ascending) the table keeps for this state, if its window holds them."""
        mine, theirs, deck = state
        laid = sorted(self.config.cards_per_type - m - o - k for m, o, k in zip(mine, theirs, deck))
        return self._kept(tuple(laid), self.deck_size - sum(deck))

    def _kept_uncached(self, laid: Counts, turns: int) -> tuple[int, ...]:
        mover, opponent = turns // 2, turns - turns // 2
        return tuple(sorted({q for a, b, q in self.partitions(laid) if a <= mover and b <= opponent}))

    # --- the table, read by this module -------------------------------------------------------------

    def window(self, g: int, h: int, d: int) -> tuple[int, int]:
        """The open differences lo..hi (in units) between the settled ones (see the module's docstring)."""
        ties = self.mover_wins_ties(d)
        lowest_open = -h if ties else -h + 1  # below it P = 0
        highest_open = -g - 1 if ties else -g  # above it P = 1
        return -(-lowest_open // self.unit), highest_open // self.unit

    def table_p(self, layers: list[WinLayerFile | None], state: tuple[Counts, Counts, Counts], q: int) -> float:
        d = sum(state[2])
        layer = layers[d]
        assert layer is not None
        index = self.rules.index(*state)
        lo, hi = self.window(int(layer.g[index]), int(layer.h[index]), d)
        if q < lo:
            return 0.0
        if q > hi:
            return 1.0
        kept = self.kept(state)
        rank = bisect.bisect_left(kept, q)
        if rank == len(kept) or kept[rank] != q:
            return MISSING
        rank -= bisect.bisect_left(kept, lo)  # the kept differences of the window below q
        start = index - index % BLOCK
        at = int(layer.offsets[index // BLOCK]) + int(np.sum(layer.counts[start:index], dtype=np.int64))
        return float(layer.values[at + rank]) / SCALE

    def table_count(self, layers: list[WinLayerFile | None], state: tuple[Counts, Counts, Counts]) -> tuple[int, int]:
        """(values the file says the state keeps, values this reader expects)."""
        d = sum(state[2])
        layer = layers[d]
        assert layer is not None
        index = self.rules.index(*state)
        lo, hi = self.window(int(layer.g[index]), int(layer.h[index]), d)
        kept = self.kept(state)
        return int(layer.counts[index]), bisect.bisect_right(kept, hi) - bisect.bisect_left(kept, lo)


def _subsets(n: int, size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(range(n), size))
