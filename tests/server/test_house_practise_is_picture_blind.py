"""housebot-practise plays like the arena's template (picture-blind random); housebot-random sees the labels."""

from __future__ import annotations

import pytest

from rummy import Match, render_gamestate
from server.house_agents import HOUSE_BOTS, house_agent


def _gamestates(count: int):
    for seed in range(count):
        match = Match(seed=f"practise:{seed}")
        yield render_gamestate(match, match.current.mover), match


def test_practise_never_asks_for_a_label_and_lays_random_cards():
    def no_labels(url: str) -> str | None:
        pytest.fail(f"housebot-practise asked for the landmark of {url}")

    mixed_lays = 0
    for gamestate, match in _gamestates(60):
        bot = house_agent("housebot-practise", no_labels)
        move = bot.calculate_move(gamestate)
        assert len(move) == 1 and next(iter(move)) in ("Give", "Take", "Lay")
        if "Lay" in move:
            assert 3 <= len(move["Lay"]) <= 5
            kinds = {card.kind for card in match.current.hands[match.current.mover] if card.id in move["Lay"]}
            mixed_lays += len(kinds) > 1
    assert mixed_lays > 0  # it lays without knowing what the cards are


def test_the_label_aware_random_player_keeps_its_own_name():
    assert "housebot-random" in HOUSE_BOTS
    asked: list[str] = []
    for gamestate, match in _gamestates(3):
        landmarks = match.current.landmarks_by_url()

        def label(url: str, landmarks: dict[str, str] = landmarks) -> str | None:
            asked.append(url)
            return landmarks.get(url)

        house_agent("housebot-random", label).calculate_move(gamestate)
    assert asked
