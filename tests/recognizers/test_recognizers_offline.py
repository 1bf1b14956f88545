"""Oracle (over loopback HTTP and in process), noisy wrapper, stub files, registry and settings."""

from __future__ import annotations

import json

import pytest
from recognizers_fakes import FakeOracle

from recognizers.cache import LabelCache
from recognizers.noisy import NoisyRecognizer
from recognizers.observation import Observation
from recognizers.oracle import OracleRecognizer
from recognizers.registry import get_recognizer
from recognizers.settings import SettingsError, load_settings
from recognizers.stub import StubLabelsError, StubRecognizer
from rummy.cards import deal_round
from rummy.catalog import DEFAULT_CATALOG

DEAL = deal_round(7)
CARDS = DEAL.hands[0] + DEAL.hands[1] + DEAL.deck


def test_oracle_over_http_matches_full_url_and_path(fake_oracle: FakeOracle) -> None:
    # The server answers with paths; the gamestate carries absolute URLs (url_prefix = its base).
    fake_oracle.labels[42] = {card.url: card.kind for card in CARDS}
    oracle = get_recognizer("oracle", base_url=fake_oracle.base_url, game_id=42)
    hand = [(card.id, fake_oracle.base_url + card.url) for card in DEAL.hands[0]]
    labels = oracle.recognize(hand, DEFAULT_CATALOG)
    assert {card.id: card.kind for card in DEAL.hands[0]} == {i: label.landmark for i, label in labels.items()}
    oracle.recognize(hand, DEFAULT_CATALOG)
    assert fake_oracle.calls == 1  # all cards known: no second request


def test_the_oracle_names_each_rounds_cards_though_their_ids_repeat() -> None:
    """Each round deals ids 0..39 again, so a card id of round 2 is another card than round 1's: an oracle that
    kept the referee's answers by id named it by round 1's landmark. It asks by URL (one card of the match)."""
    import httpx

    first, second = deal_round(1), deal_round(2)
    kinds = {card.id: card.kind for card in [*first.hands[0], *first.hands[1], *first.deck]}
    assert any(kinds[card.id] != card.kind for card in second.hands[0])
    shown = {"deal": first}

    def referee(request: httpx.Request) -> httpx.Response:  # as the local referee answers, by id or ?by=url
        deal, by_url = shown["deal"], request.url.params.get("by") == "url"
        cards = [*deal.hands[0], *deal.hands[1], *deal.deck]  # late in a round every card was in view
        return httpx.Response(200, json={card.url if by_url else str(card.id): card.kind for card in cards})

    oracle = OracleRecognizer("http://referee", 7, client=httpx.Client(transport=httpx.MockTransport(referee)))
    for deal in (first, second):
        shown["deal"] = deal
        hand = [(card.id, "http://referee" + card.url) for card in deal.hands[0]]
        labels = oracle.recognize(hand, DEFAULT_CATALOG)
        assert {card_id: label.landmark for card_id, label in labels.items()} == {
            card.id: card.kind for card in deal.hands[0]
        }


def test_oracle_unknown_game_is_unknown_not_an_exception(fake_oracle: FakeOracle) -> None:
    oracle = OracleRecognizer(fake_oracle.base_url, 999)
    labels = oracle.recognize([(1, "/cards/x.png")], DEFAULT_CATALOG)
    assert labels[1].landmark is None and "oracle unavailable" in labels[1].reason


def test_noisy_is_seeded_per_url_and_corrupts_about_the_rate() -> None:
    truth = {}
    cards = []
    for seed in range(30):
        deal = deal_round(seed)
        for card in deal.hands[0] + deal.hands[1] + deal.deck:
            truth[card.url] = card.kind
            cards.append((card.id + seed * 1_000_000, card.url))
    noisy = get_recognizer("noisy:0.1", source=truth, noise_seed=3)
    first = noisy.recognize(cards, DEFAULT_CATALOG)
    again = noisy.recognize(list(reversed(cards)), DEFAULT_CATALOG)
    assert first == again  # same image, same answer, whatever the order
    wrong = sum(first[i].landmark != truth[url] for i, url in cards)
    assert 0.07 < wrong / len(cards) < 0.13
    assert all(first[i].landmark in DEFAULT_CATALOG for i, _ in cards)
    assert isinstance(noisy, NoisyRecognizer) and noisy.name == "noisy:0.1:oracle"
    # each kind keeps its own word in the name a source line shows
    assert get_recognizer("harsh:0.1", source=truth).name == "harsh:0.1:oracle"
    assert get_recognizer("silent:0.05", source=truth).name == "silent:0.05:oracle"


def test_noisy_flat_model_keeps_confidence() -> None:
    truth = {card.url: card.kind for card in CARDS}
    noisy = NoisyRecognizer(OracleRecognizer.from_mapping(truth), 1.0, model="flat")
    labels = noisy.recognize([(card.id, card.url) for card in CARDS], DEFAULT_CATALOG)
    assert all(labels[c.id].landmark != c.kind and labels[c.id].confidence == 1.0 for c in CARDS)


def test_stub_reads_shipped_user_and_cached_labels(tmp_path) -> None:
    extra = tmp_path / "mine.json"
    extra.write_text(json.dumps({"http://x/cards/a.png": {"landmark": "bryggen", "confidence": 0.7}}))
    cache = LabelCache(":memory:")
    cache.put("azure", "http://y/cards/b.png", Observation((("Giralda", 0.8),), (), "azure"))
    stub = StubRecognizer([extra], cache=cache, user=False)
    shipped = deal_round(1).hands[0][0]
    labels = stub.recognize(
        [(1, "http://127.0.0.1:9/cards/a.png"), (2, "http://y/cards/b.png"), (3, "http://h" + shipped.url), (4, "/z")],
        DEFAULT_CATALOG,
    )
    assert labels[1].landmark == "bryggen" and labels[1].confidence == 0.7  # matched on the path
    assert labels[2].landmark == "giralda"
    assert labels[3].landmark == shipped.kind
    assert labels[4].landmark is None and "no label" in labels[4].reason


def test_stub_rejects_broken_files(tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(StubLabelsError, match="not readable JSON"):
        StubRecognizer([broken], shipped=False, user=False)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"u": 3}))
    with pytest.raises(StubLabelsError, match="neither a name"):
        StubRecognizer([wrong], shipped=False, user=False)


def test_settings_from_file_and_environment(tmp_path) -> None:
    config = tmp_path / "recognizers.toml"
    config.write_text(
        '[azure]\nendpoint = "https://file.example"\nkey = "file-key-123"\n'
        '[customvision]\nprediction_url = "https://cv.example/url"\nprediction_key = "cv-key-456"\nthreshold = 0.7\n'
    )
    settings = load_settings(config, env={"AZURE_VISION_KEY": "env-key-789"})
    assert settings.azure_endpoint == "https://file.example"
    assert settings.azure_key is not None and settings.azure_key.reveal() == "env-key-789"  # environment wins
    assert settings.customvision_threshold == 0.7
    assert "env-key-789" not in repr(settings) and "cv-key-456" not in repr(settings)
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings(tmp_path / "missing.toml", env={})


def test_registry_errors_are_clear(tmp_path) -> None:
    with pytest.raises(ValueError, match="unknown recognizer"):
        get_recognizer("magic")
    with pytest.raises(ValueError, match="noisy needs a rate"):
        get_recognizer("noisy:lots")
    with pytest.raises(SettingsError, match="AZURE_VISION_ENDPOINT"):
        get_recognizer("azure", env={"RUMMY_VISION_CONFIG": str(tmp_path / "none.toml")}, cache=":memory:")
    stub_noisy = get_recognizer("noisy:0.2:stub", cache=False)
    assert stub_noisy.name == "noisy:0.2:stub"
