"""Records survive a restart; running decks stay secret; oracle only on request; card images."""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3

import httpx
import pytest
from PIL import Image
from server_testkit import ArenaBot

from rummy import DEFAULT_CATALOG, Give, Match, parse_move, render_gamestate
from server.storage.records import Records


async def _play_one(server, bots) -> int:
    async with httpx.AsyncClient(timeout=30) as client:
        alice = ArenaBot(client, server.prod, "alice", bots["alice"])
        bob = ArenaBot(client, server.prod, "bob", bots["bob"])
        first, _ = await asyncio.gather(alice.play(1, random.Random(3)), bob.play(1, random.Random(4)))
        return first.final["GameId"]


async def _start_one(server, bots) -> tuple[int, dict]:
    async with httpx.AsyncClient(timeout=30) as client:
        alice = ArenaBot(client, server.prod, "alice", bots["alice"])
        bob = ArenaBot(client, server.prod, "bob", bots["bob"])
        await alice.offer(1)
        answer = await bob.offer(1)
        return answer["GameState"]["GameId"], answer["GameState"]


def test_restart_keeps_finished_records_and_aborts_running_matches(start_server, bots):
    server = start_server()
    finished = asyncio.run(_play_one(server, bots))
    running, _ = asyncio.run(_start_one(server, bots))
    before = httpx.get(f"{server.base}/games/{finished}").json()
    redacted = httpx.get(f"{server.base}/games/{running}").json()
    assert redacted["Status"] == "RUNNING" and redacted["Redacted"] is True
    assert "Rounds" not in redacted and "Moves" not in redacted
    assert "Deck" not in str(redacted) and "Landmark" not in str(redacted)
    server.stop()

    again = start_server()
    games = {game["GameId"]: game for game in httpx.get(f"{again.base}/games").json()["Games"]}
    assert games[finished]["Status"] == "FINISHED"
    assert games[running]["Status"] == "ABORTED" and games[running]["EndReason"] == "aborted"
    after = httpx.get(f"{again.base}/games/{finished}").json()
    assert after == before
    # An aborted match can no longer be played, so its deal may now be replayed in full.
    aborted = httpx.get(f"{again.base}/games/{running}").json()
    assert len(aborted["Rounds"][0]["Deck"]) == 20
    # Card pictures of recorded matches are still served after the restart.
    url = again.base + after["Rounds"][0]["Deck"][0]["Url"]
    assert httpx.get(url).headers["content-type"] == "image/jpeg"  # deals' URLs end in .jpg, as the arena's


def test_every_applied_move_is_recorded_once_with_its_gamestate(start_server, bots):
    server = start_server()
    game_id = asyncio.run(_play_one(server, bots))
    record = httpx.get(f"{server.base}/games/{game_id}").json()
    moves = record["Moves"]
    assert moves and all(move["Result"] == "SUCCESS" and move["Applied"] for move in moves)
    assert len({move["Seq"] for move in moves}) == len(moves)
    # The seed and the moves replay to the recorded deal, states and end.
    match = Match(seed=record["Seed"], rounds=record["NumberOfRounds"])
    dealt = match.current.deal
    assert [card.id for card in dealt.deck] == [card["Id"] for card in record["Rounds"][0]["Deck"]]
    assert [card.kind for card in dealt.deck] == [card["Landmark"] for card in record["Rounds"][0]["Deck"]]
    for move in moves:
        match.apply(move["Seat"], parse_move(move["Move"]))
        seen = render_gamestate(match, move["Seat"])
        assert [card[0] for card in seen["MyHand"]] == [card[0] for card in move["GameState"]["MyHand"]]
    assert [status.value for status in match.status] == record["GameStatus"]
    assert record["RoundsWon"] == match.rounds_won and sum(match.rounds_won) == 1


def test_oracle_exists_only_when_asked_for(start_server, bots):
    plain = start_server()
    game_id, _ = asyncio.run(_start_one(plain, bots))
    assert httpx.get(f"{plain.base}/oracle/labels/{game_id}").status_code == 404
    plain.stop()

    oracle = start_server(oracle=True)
    game_id, state = asyncio.run(_start_one(oracle, bots))
    labels = httpx.get(f"{oracle.base}/oracle/labels/{game_id}").json()
    # The 20 cards in the two hands, keyed by card id in id order: nothing about the 20 in the deck.
    in_view = sorted(card_id for card_id, _url in state["MyHand"] + state["OppHand"])
    assert list(labels) == [str(card_id) for card_id in in_view]
    assert all(landmark in DEFAULT_CATALOG for landmark in labels.values())


def test_card_images_are_jpegs_and_pngs_that_name_no_landmark(start_server, bots):
    server = start_server(oracle=True)
    game_id, state = asyncio.run(_start_one(server, bots))
    labels = httpx.get(f"{server.base}/oracle/labels/{game_id}").json()
    by_landmark: dict[str, list[bytes]] = {}
    for card_id, url in state["MyHand"] + state["OppHand"]:
        assert url.startswith(server.base + "/cards/") and url.endswith(".jpg")  # as the arena's
        assert not any(word in url.lower() for name in DEFAULT_CATALOG for word in name.split() if len(word) > 3)
        jpeg = httpx.get(url)
        assert jpeg.status_code == 200 and jpeg.headers["content-type"] == "image/jpeg"
        shown = Image.open(io.BytesIO(jpeg.content))
        assert shown.format == "JPEG" and shown.size == (256, 320) and "exif" not in shown.info
        assert labels[str(card_id)].encode() not in jpeg.content
        response = httpx.get(url.removesuffix(".jpg") + ".png")  # the same picture as PNG
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and image.size == (256, 320)
        assert not getattr(image, "text", {}) and "exif" not in image.info
        assert labels[str(card_id)].encode() not in response.content
        by_landmark.setdefault(labels[str(card_id)], []).append(response.content)
    # Cards of one landmark are different pictures.
    assert any(len(set(pictures)) == len(pictures) > 1 for pictures in by_landmark.values())


def test_images_dir_serves_photos_and_survives_a_broken_file(start_server, bots, tmp_path):
    photos = tmp_path / "photos"
    server = start_server(oracle=True, images_dir=photos)
    game_id, state = asyncio.run(_start_one(server, bots))
    labels = httpx.get(f"{server.base}/oracle/labels/{game_id}").json()
    landmarks = sorted(set(labels.values()))
    good, broken = landmarks[0], landmarks[1]
    (photos / good).mkdir(parents=True)
    exif = Image.Exif()
    exif[0x010E] = good  # ImageDescription naming the landmark: must not reach the bot
    Image.new("RGB", (120, 90), (200, 10, 10)).save(photos / good / "a.jpg", exif=exif)
    (photos / broken).mkdir(parents=True)
    (photos / broken / "broken.jpg").write_bytes(b"\xff\xd8 this is not a jpeg")
    urls = dict(state["MyHand"] + state["OppHand"])
    for card_id, landmark in labels.items():
        if landmark not in (good, broken):
            continue
        response = httpx.get(urls[int(card_id)])
        assert response.status_code == 200
        image = Image.open(io.BytesIO(response.content))
        assert image.size == ((120, 90) if landmark == good else (256, 320))
        assert "exif" not in image.info and good.encode() not in response.content


def _records_with_match(tmp_path, match: Match) -> tuple[Records, int]:
    """A records file holding `match` with its first round started."""
    records = Records(tmp_path / "records.sqlite3")
    game_id = records.create_match(
        style_id=1,
        rounds=match.rounds,
        move_time_ms=5000,
        seed=str(match.seed),
        players=("a", "b"),
        stake=0,
        prize=0,
        now=0.0,
    )
    records.start_round(game_id, 0, match.current, 0.0)
    return records, game_id


def _record_give(records: Records, game_id: int, **round_or_match_end) -> None:
    """Seat 0's applied {"Give": 1} in round 0, with whatever round or match end it brings."""
    records.record_move(
        game_id=game_id,
        round_index=0,
        seat=0,
        bot="a",
        received_at=1.0,
        move={"Give": 1},
        result="SUCCESS",
        applied=True,
        error=None,
        gamestate=None,
        **round_or_match_end,
    )


def test_a_move_that_ends_a_round_is_recorded_whole_or_not_at_all(tmp_path):
    # The move, the closing of its round and the opening of the next share one transaction: when
    # opening the next round fails (here, that round already exists), none of the three is kept.
    match = Match(seed=5, rounds=2)
    records, game_id = _records_with_match(tmp_path, match)
    while match.round_index == 0:  # give cards away until the 20 turns are up
        mover = match.current.mover
        match.apply(mover, Give(match.current.hands[mover][0].id))
    records.start_round(game_id, 1, match.current, 0.0)
    with pytest.raises(sqlite3.IntegrityError):
        _record_give(records, game_id, finished_round=(0, match.finished_rounds[0]), next_round=(1, match.current))
    assert records.applied_move_count(game_id) == 0
    row = records.db.execute("SELECT ended_at FROM rounds WHERE game_id=? AND round_index=0", (game_id,)).fetchone()
    assert row["ended_at"] is None
    records.close()


def test_the_last_move_and_the_match_result_are_one_write(tmp_path):
    match = Match(seed=6)
    records, game_id = _records_with_match(tmp_path, match)
    match.forfeit(0)
    _record_give(records, game_id, finished_match=(match, "completed"))
    summary = records.match_summary(game_id)
    assert summary is not None and summary["Status"] == "FINISHED"
    assert records.applied_move_count(game_id) == 1
    records.close()
