"""`serve --vision`: the referee answers the templates' Azure and Custom Vision calls for its own cards.

Real HTTP on loopback: a match is dealt through the arena calls, then its cards are asked about by URL
and by the bytes the card route sent, raw (checking the services' JSON shapes and key checks) and through
the Azure SDK and the Custom Vision recognizer, which must read the answers as they read the real ones.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from server.vision import DEFAULT_VISION_KEY, token_of_card_url

KEY = DEFAULT_VISION_KEY
AZURE = {"Ocp-Apim-Subscription-Key": KEY}


def dealt(server: Any, password: str) -> list[tuple[int, str]]:
    """Start a match against the practise house bot and return the cards in alice's hand."""
    answer = httpx.post(
        server.prod + "GM-OfferGame",
        json={
            "BotId": "alice",
            "BotPassword": password,
            "GameStyleId": 1,
            "MaximumWaitTime": 5000,
            "OpponentId": "housebot-practise",
            "DontPlayAgainstSameUser": False,
            "DontPlayAgainstSameBot": False,
        },
        timeout=15,
    ).json()
    state = answer.get("GameState")
    key = answer["PlayerKey"]
    while state is None:
        body = {"BotId": "alice", "BotPassword": password, "PlayerKey": key, "MaximumWaitTime": 5000}
        state = httpx.post(server.prod + "GM-PollForGameState", json=body, timeout=15).json().get("GameState")
    return [(card_id, url) for card_id, url in state["MyHand"]]


def truth(server: Any, url: str) -> str:
    landmark = server.app.state.referee.landmark_of_token(token_of_card_url(url))
    assert landmark is not None
    return str(landmark)


def landmark_names(answer: dict[str, Any]) -> list[str]:
    return [lm["name"] for cat in answer["categories"] for lm in (cat.get("detail") or {}).get("landmarks", [])]


@pytest.fixture
def vision_server(start_server, bots):
    server = start_server(vision="oracle")
    return server, dealt(server, bots["alice"])


def test_analyze_answers_the_true_landmark_by_url_and_by_bytes_in_azures_shape(vision_server) -> None:
    server, hand = vision_server
    for _card_id, url in hand[:3]:
        answer = httpx.post(
            server.base + "/vision/v3.2/analyze", params={"details": "Landmarks"}, headers=AZURE, json={"url": url}
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert set(body) >= {"categories", "requestId", "metadata", "modelVersion"}
        [name] = landmark_names(body)
        assert name.lower() == truth(server, url)
        picture = httpx.get(url).content
        sent = httpx.post(
            server.base + "/vision/v3.2/analyze",
            params={"details": "Landmarks"},
            headers={**AZURE, "Content-Type": "application/octet-stream"},
            content=picture,
        )
        assert sent.status_code == 200 and landmark_names(sent.json()) == [name]
    no_details = httpx.post(server.base + "/vision/v3.2/analyze", headers=AZURE, json={"url": hand[0][1]}).json()
    assert landmark_names(no_details) == [], "no details=Landmarks, no landmarks (as Azure)"


def test_the_landmark_domain_model_answers_under_result(vision_server) -> None:
    server, hand = vision_server
    url = hand[0][1]
    body = httpx.post(server.base + "/vision/v3.2/models/landmarks/analyze", headers=AZURE, json={"url": url}).json()
    assert [lm["name"].lower() for lm in body["result"]["landmarks"]] == [truth(server, url)]
    other = httpx.post(server.base + "/vision/v3.2/models/celebrities/analyze", headers=AZURE, json={"url": url})
    assert other.status_code == 400 and other.json()["error"]["innererror"]["code"] == "NotSupportedModel"


def test_keys_are_checked_like_azures_and_unknown_pictures_refused(vision_server) -> None:
    server, hand = vision_server
    url = hand[0][1]
    analyze = server.base + "/vision/v3.2/analyze?details=Landmarks"
    missing = httpx.post(analyze, json={"url": url})
    wrong = httpx.post(analyze, headers={"Ocp-Apim-Subscription-Key": "nope"}, json={"url": url})
    for refused in (missing, wrong):
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "401"
    assert "missing" in missing.json()["error"]["message"] and "invalid" in wrong.json()["error"]["message"]
    stranger = httpx.post(analyze, headers=AZURE, json={"url": "http://pictures.example/cards/xyz.png"})
    assert stranger.status_code == 400 and stranger.json()["error"]["innererror"]["code"] == "InvalidImageUrl"
    junk = httpx.post(analyze, headers={**AZURE, "Content-Type": "application/octet-stream"}, content=b"\x89PNG..")
    assert junk.status_code == 400 and junk.json()["error"]["innererror"]["code"] == "InvalidImageFormat"
    prediction = server.base + "/customvision/v3.0/Prediction/p/classify/iterations/i/url"
    refused = httpx.post(prediction, headers={"Prediction-Key": "nope"}, json={"Url": url})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "401"
    bad = httpx.post(prediction, headers={"Prediction-Key": KEY}, json={"Url": "http://x.example/a.png"})
    assert bad.status_code == 400 and bad.json()["code"] == "BadRequestImageUrl"


def test_custom_vision_prediction_by_url_and_image(vision_server) -> None:
    server, hand = vision_server
    stem = server.base + "/customvision/v3.0/Prediction/proj/classify/iterations/it1/"
    for _card_id, url in hand[:2]:
        body = httpx.post(stem + "url", headers={"Prediction-Key": KEY}, json={"Url": url}).json()
        assert set(body) >= {"id", "project", "iteration", "created", "predictions"}
        top = body["predictions"][0]
        assert set(top) >= {"probability", "tagId", "tagName"}
        assert top["tagName"] == truth(server, url) and top["probability"] > 0.9
        assert abs(sum(p["probability"] for p in body["predictions"]) - 1.0) < 1e-3
        image = httpx.post(
            stem + "image",
            headers={"Prediction-Key": KEY, "Content-Type": "application/octet-stream"},
            content=httpx.get(url).content,
        ).json()
        assert image["predictions"][0]["tagName"] == top["tagName"]


@pytest.mark.parametrize("mode", ["analyze", "domain"])
@pytest.mark.parametrize("public_url", [None, "http://cards.invalid"])
def test_the_azure_sdk_reads_the_answers_by_url_and_by_bytes(start_server, bots, mode, public_url, tmp_path) -> None:
    """Loopback card URLs go as bytes (the SDK's *_in_stream calls); a public-looking card URL goes as a URL
    (never fetched: the service knows the card by its token)."""
    from recognizers.registry import get_recognizer
    from rummy.catalog import DEFAULT_CATALOG

    server = start_server(vision="oracle", public_url=public_url)
    hand = dealt(server, bots["alice"])
    options = {"cache": ":memory:", "limiter_path": tmp_path / "limiter.sqlite3", "tier": "1000/1", "mode": mode}
    recognizer = get_recognizer("azure", endpoint=server.base, key=KEY, **options)
    labels = recognizer.recognize(hand, DEFAULT_CATALOG)
    assert {card_id: label.landmark for card_id, label in labels.items()} == {i: truth(server, u) for i, u in hand}
    asked = server.app.state.vision.asked
    assert asked == ({"url": len(hand), "bytes": 0} if public_url else {"url": 0, "bytes": len(hand)})


def test_the_custom_vision_recognizer_reads_the_answers(vision_server, tmp_path) -> None:
    from recognizers.registry import get_recognizer
    from rummy.catalog import DEFAULT_CATALOG

    server, hand = vision_server
    url = server.base + "/customvision/v3.0/Prediction/proj/classify/iterations/it1/url"
    recognizer = get_recognizer(
        "customvision",
        prediction_url=url,
        key=KEY,
        cache=":memory:",
        limiter_path=tmp_path / "limiter.sqlite3",
        tier="1000/1",
    )
    labels = recognizer.recognize(hand, DEFAULT_CATALOG)
    assert {card_id: label.landmark for card_id, label in labels.items()} == {i: truth(server, u) for i, u in hand}


def test_an_error_model_answers_wrong_at_its_rate_and_the_same_each_time(start_server, bots) -> None:
    server = start_server(vision="noisy:0.5:oracle", seed=3)
    hand = dealt(server, bots["alice"])
    analyze = server.base + "/vision/v3.2/analyze?details=Landmarks"

    def top(url: str) -> str:
        names = landmark_names(httpx.post(analyze, headers=AZURE, json={"url": url}).json())
        return names[0].lower() if names else ""

    first = [top(url) for _id, url in hand]
    assert first == [top(url) for _id, url in hand], "a card always gets the same answer"
    wrong = sum(1 for (_id, url), said in zip(hand, first, strict=True) if said != truth(server, url))
    assert 0 < wrong < len(hand), "noisy:0.5 gets some of ten cards wrong and some right"


def test_serve_refuses_a_vision_model_it_cannot_play(tmp_path) -> None:
    from bot.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", str(tmp_path / "r.db"), "--vision", "azure"])
    assert result.exit_code == 2 and "not 'azure'" in result.output


def test_a_bare_vision_option_means_the_true_landmarks() -> None:
    import typer

    from bot.cli.main import app

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    for args, expected in (
        (["--vision"], "oracle"),
        (["--vision", "--port", "0"], "oracle"),
        (["--port", "0", "--vision", "harsh:0.1"], "harsh:0.1"),
        (["--port", "0"], None),
    ):
        assert serve.make_context("serve", list(args)).params["vision"] == expected, args
