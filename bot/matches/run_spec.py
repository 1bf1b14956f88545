"""What groups a run's rounds in the viewer (a `match` run or a tournament) and how its rounds are labelled.

Plain data, shared by the two ways a run is stored: into a records file directly (`match_records`) and
through a referee's admin API (`server_admin`), so neither imports the other's storage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy.standings import Standings


@dataclass(frozen=True)
class RunSpec:
    """What groups the stored rounds in the viewer: a `match` run or a tournament, with its standings."""

    kind: str  # match | tournament
    title: str
    players: tuple[str, ...]
    standings: Standings
    tournament_id: int | None = None
    head_to_head: Standings | None = None


def round_labels(rounds: Sequence[tuple[str, tuple[str, str]]]) -> list[str]:
    """Readable labels for a run's rounds from (deal seed, names by seat): "greedy v random, deal 2", and
    "(seats swapped)" for the second round of a duplicate deal."""
    labels = []
    seen: set[str] = set()
    for deal_seed, seated in rounds:
        _, colon, index = deal_seed.rpartition(":")
        deal = f"deal {int(index) + 1}" if colon and index.isdigit() else f"deal {deal_seed}"
        swapped = " (seats swapped)" if deal_seed in seen else ""
        seen.add(deal_seed)
        labels.append(f"{seated[0]} v {seated[1]}, {deal}{swapped}")
    return labels
