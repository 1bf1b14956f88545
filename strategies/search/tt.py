"""A fixed-size transposition table keyed by the canonical state key.

Slot = hash(key) % size; each slot keeps the full key, so a different state landing in the same
slot is seen (a collision) rather than trusted. A stored entry is replaced by a new one when the
new one comes from a newer search or searched at least as deep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

EXACT, LOWER, UPPER = 0, 1, 2  # the stored value is the node's value, a lower bound, an upper bound

Key = tuple[int, ...]  # CountState.key()


class Entry(NamedTuple):
    key: Key
    value: float
    bound: int  # EXACT, LOWER or UPPER
    depth: int  # turns searched below the node
    best_move: int
    generation: int  # the search that stored it


@dataclass
class TableStats:
    probes: int = 0
    hits: int = 0  # the slot held this very state
    cutoffs: int = 0  # ... and its value settled the node without searching
    collisions: int = 0  # the slot held another state
    stores: int = 0
    replacements: int = 0  # a store overwrote another state's entry

    def reset(self) -> None:
        self.probes = self.hits = self.cutoffs = self.collisions = self.stores = self.replacements = 0


class TranspositionTable:
    """One `Entry` per slot."""

    def __init__(self, size: int = 1 << 18) -> None:
        if size < 1:
            raise ValueError("a transposition table needs at least one slot")
        self.size = size
        self.slots: list[Entry | None] = [None] * size
        self.generation = 0
        self.stats = TableStats()

    def new_search(self) -> None:
        """Entries of earlier searches stay usable but give way to new ones."""
        self.generation += 1

    def clear(self) -> None:
        self.slots = [None] * self.size
        self.stats.reset()

    def probe(self, key: Key) -> Entry | None:
        stats = self.stats
        stats.probes += 1
        entry = self.slots[hash(key) % self.size]
        if entry is None:
            return None
        if entry.key == key:
            stats.hits += 1
            return entry
        stats.collisions += 1
        return None

    def store(self, key: Key, value: float, bound: int, depth: int, best_move: int) -> None:
        index = hash(key) % self.size
        slots = self.slots
        old = slots[index]
        if old is not None:
            if old.key != key:
                if old.generation == self.generation and old.depth > depth:
                    return  # keep the deeper entry of this search
                self.stats.replacements += 1
            elif old.depth > depth and old.generation == self.generation:
                return
        self.stats.stores += 1
        slots[index] = Entry(key, value, bound, depth, best_move, self.generation)
