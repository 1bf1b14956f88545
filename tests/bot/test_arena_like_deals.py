"""Arena-like deals: a round's card ids are a shuffled 0..39 and its pictures' URLs end in .jpg (a JPEG), as in
the arena's example gamestate, and the arena's 7-round style is hosted. A seed keeps its landmarks, tokens,
hands and deck order: only the ids changed. A bot that checks every gamestate as the arena would serve it
plays without a fault."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.recording import read_replay
from rummy import DEFAULT_RULES
from rummy.cards import ID_RANGE, deal_round


def old_deal(seed: int | str):  # the deal before ids 0-39: its landmarks, ids, tokens and order
    rng = random.Random(f"rummy-vision-deal:{seed}")
    kinds = tuple(rng.sample(DEFAULT_RULES.catalog, DEFAULT_RULES.types_per_round))
    ids = rng.sample(ID_RANGE, DEFAULT_RULES.total_cards)
    cards = [(ids[i], f"{rng.getrandbits(96):024x}", kinds[i // 10]) for i in range(DEFAULT_RULES.total_cards)]
    rng.shuffle(cards)
    return kinds, cards, rng.randrange(2)


def test_ids_are_a_shuffled_0_to_39_and_a_seed_keeps_its_landmarks_and_order() -> None:
    for seed in (1, "7:3", 12345):
        deal = deal_round(seed)
        cards = [*deal.hands[0], *deal.hands[1], *deal.deck]
        assert sorted(card.id for card in cards) == list(range(40))
        assert [card.id for card in cards] != list(range(40)), "shuffled"
        assert all(card.url.startswith("/cards/") and card.url.endswith(".jpg") for card in cards)
        kinds, old, first = old_deal(seed)
        assert deal.kinds == kinds and deal.first_mover == first
        assert [(card.url[len("/cards/") : -len(".jpg")], card.kind) for card in cards] == [(t, k) for _i, t, k in old]
        # The ids keep the old ids' order, so whatever sorts cards by id plays as it did: seeded figures stay.
        old_order = sorted(range(40), key=lambda index: old[index][0])
        assert sorted(range(40), key=lambda index: cards[index].id) == old_order


CHECKER = """
import json, os, urllib.request

def calculate_move(gamestate):
    hands = gamestate["MyHand"] + gamestate["OppHand"]
    for card_id, url in hands:
        if not isinstance(card_id, int) or isinstance(card_id, bool) or not 0 <= card_id <= 39:
            raise ValueError(f"card id {card_id!r} is not an integer 0-39")
        if not url.endswith(".jpg"):
            raise ValueError(f"card URL {url} does not end in .jpg")
    if gamestate["RemainingMoves"] == 20:
        with urllib.request.urlopen(hands[0][1], timeout=10) as answer:
            if answer.headers.get("Content-Type") != "image/jpeg" or answer.read(2) != b"\\xff\\xd8":
                raise ValueError("the picture is not a JPEG")
    if any(card_id == 0 for card_id, _url in hands):
        print("saw card 0")
    return {"Give": gamestate["MyHand"][0][0]}
"""


def test_a_bot_checking_every_gamestate_plays_seven_rounds_without_a_fault(real_server, tmp_path: Path) -> None:
    base, passwords = real_server(move_time_ms=10_000, seed=39)
    styles = httpx.post(base + "GM-GetListOfGameStyles", json={"BotId": "tester", "BotPassword": passwords["tester"]})
    seven = [s for s in styles.json()["GameStyles"] if s["GameTypeSpecificInfo"]["Rounds"] == 7]
    assert seven, "the arena's 7-round style is hosted"
    bot = tmp_path / "checker.py"
    bot.write_text(CHECKER, encoding="utf-8")
    args = ["play", "--base-url", base, "--bot", str(bot), "--opponent", "housebot-greedy", "--strict", "--json"]
    args += ["--game-style", str(seven[0]["GameStyleId"]), "--record", str(tmp_path), "--password", passwords["tester"]]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml")}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    match = json.loads(result.stdout.splitlines()[0])
    assert match["faults"] == 0 and match["my_score"] + match["opp_score"] == 7
    lines = read_replay(match["record_path"])
    first = next(line["gamestate"] for line in lines if line["type"] == "gamestate")
    assert first["RemainingRounds"] == 7 and first["MyScore"] == first["OppScore"] == 0
    assert any("saw card 0" in line.get("log", "") for line in lines if line["type"] == "move")


def test_a_card_is_served_as_jpeg_and_as_png(real_server) -> None:
    base, passwords = real_server(move_time_ms=10_000)
    body = {"BotId": "tester", "BotPassword": passwords["tester"], "GameStyleId": 1, "MaximumWaitTime": 5000}
    body |= {"OpponentId": "housebot-practise", "DontPlayAgainstSameUser": False, "DontPlayAgainstSameBot": False}
    state = httpx.post(base + "GM-OfferGame", json=body, timeout=30).json()["GameState"]
    url = state["MyHand"][0][1]
    jpeg = httpx.get(url, timeout=30)
    png = httpx.get(url.removesuffix(".jpg") + ".png", timeout=30)
    assert jpeg.headers["content-type"] == "image/jpeg" and jpeg.content[:2] == b"\xff\xd8"
    assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"
