"""Template internals in process: the rate limit, the name table, the strong template's search."""

from __future__ import annotations

import time

import pytest
from recognizers_fakes import GOOD_KEY

from bot.templates.contender import load_template
from rummy.catalog import DEFAULT_CATALOG

KINDS = ("trevi fountain", "big ben", "giralda", "bryggen")


def gamestate(deadline_in_s: float = 3.0) -> dict:
    hand = [[i, f"http://pictures.example/{i}.png"] for i in range(1, 11)]
    opp = [[i, f"http://pictures.example/{i}.png"] for i in range(11, 21)]
    return {
        "AllCardTypes": list(DEFAULT_CATALOG),
        "MyHand": hand,
        "OppHand": opp,
        "MyPoints": 0,
        "OppPoints": 0,
        "RemainingMoves": 20,
        "CardsInDeck": 20,
        "RemainingRounds": 1,
        "GameId": 7,
        "IsMover": True,
        "GameStatus": "RUNNING",
        "ResponseDeadline": int((time.time() + deadline_in_s) * 1000),
    }


def assert_legal(move: dict, state: dict) -> None:
    mine = {card[0] for card in state["MyHand"]}
    ((kind, value),) = move.items()
    if kind == "Lay":
        assert 3 <= len(value) <= 5 and len(set(value)) == len(value) and set(value) <= mine
    elif kind == "Give":
        assert value in mine
    else:
        assert kind == "Take" and value in {card[0] for card in state["OppHand"]}


@pytest.mark.parametrize("name", ["vision", "strong"])
def test_calls_per_period_is_honoured_and_unlabelled_cards_are_still_played(name, fake_azure) -> None:
    fake_azure.labeller = lambda url: KINDS[int(url.rsplit("/", 1)[1].split(".")[0]) % 4]
    bot = load_template(name)
    bot.AZURE_ENDPOINT, bot.AZURE_KEY = fake_azure.base_url, GOOD_KEY
    bot.CALLS_PER_PERIOD, bot.PERIOD_SECONDS = 3, 60.0
    state = gamestate()
    assert_legal(bot.calculate_move(state), state)
    assert len(fake_azure.calls) == 3, "three calls in the period, the other 17 cards unknown"
    assert_legal(bot.calculate_move(state), state)
    assert len(fake_azure.calls) == 3, "the window is full until the period passes; the cache answers the rest"
    assert sum(1 for label in bot.LABELS.values() if label) == 3


def test_cache_is_keyed_by_picture_url_across_rounds(fake_azure) -> None:
    fake_azure.labeller = lambda url: "giralda"
    bot = load_template("vision")
    bot.AZURE_ENDPOINT, bot.AZURE_KEY = fake_azure.base_url, GOOD_KEY
    bot.CALLS_PER_PERIOD, bot.PERIOD_SECONDS = 100, 1.0
    state = gamestate()
    bot.calculate_move(state)
    assert len(fake_azure.calls) == 20
    # A new round reuses card ids 1..20 with new pictures: each new picture is asked about once.
    state["MyHand"] = [[i, f"http://pictures.example/round2/{i}.png"] for i in range(1, 11)]
    bot.calculate_move(state)
    assert len(fake_azure.calls) == 30 and len({url for _p, url in fake_azure.calls}) == 30


@pytest.mark.parametrize(
    ("said", "landmark"),
    [
        ("Houses of Parliament", "palace of westminster"),
        ("Elizabeth Tower", "big ben"),
        ("The Alamo", "alamo mission in san antonio"),
        ("Brandenburger Tor", "brandenburg gate"),
        ("Fontana di Trevi", "trevi fountain"),
        ("Iwo Jima Memorial", "marine corps war memorial"),
        ("Victoria Terminus", "chhatrapati shivaji terminus"),
        ("Mount Fitz Roy", "fitz roy"),
        ("Trevi Fountain", "trevi fountain"),
    ],
)
def test_template_name_table(said: str, landmark: str) -> None:
    assert load_template("vision").to_catalog(said, DEFAULT_CATALOG) == landmark


def brute_force(bot, state) -> float:
    """Expectimax to the round's end by plain recursion (no memo, no budget): the reference value."""
    if bot._ended(state):
        return bot.final_value(state)
    values = []
    for move in bot.legal_moves(state):
        moved = bot._moved(state, move)
        if bot._ended(moved):
            values.append(bot.final_value(moved))
            continue
        total = 0.0
        for after, probability in bot.draws(moved):
            total += probability * brute_force(bot, after)
        values.append(total)
    return max(values) if state[5] == 0 else min(values)


@pytest.mark.parametrize("seed", range(12))
def test_strong_search_is_exact_in_the_endgame(seed: int) -> None:
    import random

    bot = load_template("strong")
    rng = random.Random(seed)
    mine = tuple(rng.randint(0, 3) for _ in range(4))
    theirs = tuple(rng.randint(0, 3) for _ in range(4))
    if not sum(mine) or not sum(theirs):
        mine, theirs = (2, 1, 0, 1), (1, 1, 1, 0)
    deck = tuple(rng.randint(0, 2) for _ in range(4))
    state = ((mine, theirs), (0, 0), deck, (rng.choice((0, 20, 35)), rng.choice((0, 25))), 3, 0, seed % 2)
    move = bot.best_move(state, time.monotonic() + 600, nodes=10**7)
    search = bot.Search(time.monotonic() + 600, 10**7)
    chosen = search.after_move(state, move, 3)
    assert search.exact
    assert chosen == pytest.approx(brute_force(bot, state))


def test_strong_leaf_counts_only_the_sets_its_turns_can_lay() -> None:
    bot = load_template("strong")
    # Three sets in our hand, but the opponent moves next and 2 turns are left: we lay one set at most.
    state = (((3, 3, 3, 0), (1, 0, 0, 0)), (0, 0), (0, 0, 0, 2), (0, 0), 2, 1, 0)
    ours = bot.LEAF_SET_WEIGHT * 25 - 3 * 6  # three different laid, six cards left in hand
    theirs = 0 - 3 * 1  # one card, no set
    assert bot.leaf_value(state) == pytest.approx(ours - theirs)
    assert bot.hand_value((3, 3, 3, 0), 0, 1) == (25, 6)
    assert bot.hand_value((3, 3, 3, 0), 0, 3)[1] == 0


def test_strong_lays_its_five_of_a_kind_when_few_turns_are_left() -> None:
    bot = load_template("strong")
    # From a duel against greedy, graded by the exact margin table: laying 5xA is the best move; a leaf
    # that counted every set in the hand as nearly laid, whatever the turns left, took a card instead.
    state = (((5, 3, 2, 2), (3, 0, 1, 1)), (0, 0), (0, 2, 0, 5), (50, 90), 7, 0, 1)
    assert bot.best_move(state, time.monotonic() + 600, nodes=3000) == ("lay", (5, 0, 0, 0), 50)


def test_strong_may_lay_any_three_different_of_four_types_held() -> None:
    bot = load_template("strong")
    state = (((2, 1, 1, 1), (1, 1, 0, 0)), (0, 0), (2, 2, 2, 2), (0, 0), 10, 0, 0)
    lays = {move[1] for move in bot.legal_moves(state) if move[0] == "lay"}
    assert {(1, 1, 1, 0), (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1), (1, 1, 1, 1)} <= lays


@pytest.mark.parametrize("name", ["vision", "customvision", "strong"])
def test_a_private_card_goes_as_bytes_to_a_cloud_service_and_as_a_url_to_a_local_one(name, fake_azure) -> None:
    fake_azure.images["card.png"] = b"\x89PNG picture"
    bot = load_template(name)
    card = fake_azure.base_url + "/img/card.png"  # on loopback, as a local referee's cards are
    cloud = "https://my-resource.cognitiveservices.azure.com"
    assert bot.is_private_host(card) and not bot.is_private_host(cloud)
    assert bot.picture_body(card, cloud, "url", 5.0)["data"] == b"\x89PNG picture"
    assert bot.picture_body(card, fake_azure.base_url, "url", 5.0) == {"json": {"url": card}}
    public_card = "https://pictures.example/cards/a.jpg"
    assert bot.picture_body(public_card, cloud, "Url", 5.0) == {"json": {"Url": public_card}}
    bot.SEND_PICTURE_BYTES = "never"
    assert bot.picture_body(card, cloud, "url", 5.0) == {"json": {"url": card}}
    assert fake_azure.image_gets == 1
