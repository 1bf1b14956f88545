"""A `play` replay file whose match is not in the server's records, sent to the viewer over real HTTP: kept (also
across a restart), listed, shown step by step with the recognizer's labels and the drawn card, reviewed; a
malformed file refused with a clear message and nothing kept; nothing secret kept; and the CLI's way there."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.recording import read_replay
from bot.replay.replays import replay_file
from server.embedded import EmbeddedServer
from server.settings import Settings

runner = CliRunner()
START_TIMEOUT_S = 120.0  # a loaded machine starts a server slowly: generous, never a timing assert


class Viewer:
    """A real server on its own records file (not the one the match was played on), with an admin client."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.server = EmbeddedServer(Settings(db_path=db), start_timeout_s=START_TIMEOUT_S)
        token = Path(f"{db}.admin-token").read_text()
        self.http = httpx.Client(base_url=self.server.base, timeout=120)
        self.admin = {"Authorization": f"Bearer {token}"}

    def send(self, data: bytes, name: str = "match.jsonl", **headers: str) -> httpx.Response:
        return self.http.post("/viewer/api/files", params={"name": name}, content=data, headers=headers)

    def stop(self) -> None:
        self.http.close()
        self.server.stop()


@pytest.fixture
def viewer(tmp_path: Path) -> Iterator[Any]:
    started: list[Viewer] = []

    def start() -> Viewer:
        started.append(Viewer(tmp_path / "viewer.sqlite3"))
        return started[-1]

    yield start
    for one in started:
        one.stop()


@pytest.mark.timeout(1800)
def test_a_file_not_in_the_records_shows_in_the_viewer_with_labels_and_its_review(recorded, viewer) -> None:
    path, record = recorded
    server = viewer()
    assert server.http.get("/viewer/api/entries").json()["Entries"] == []  # the match is not in these records
    refused = server.send(path.read_bytes())
    assert refused.status_code == 401  # an admin call: the token of the file beside the records
    sent = server.send(path.read_bytes(), path.name, **server.admin)
    assert sent.status_code == 201, sent.text
    answer = sent.json()
    file_id = answer["FileId"]
    assert answer["Viewer"] == f"/viewer#file/{file_id}" and answer["Existing"] is False
    assert set(answer["Players"]) == set(record["Players"])
    # Sent again: the same entry, not a second one.
    again = server.send(path.read_bytes(), path.name, **server.admin)
    assert again.status_code == 200 and again.json()["FileId"] == file_id and again.json()["Existing"] is True

    entries = server.http.get("/viewer/api/entries").json()["Entries"]
    assert [(entry["Entry"], entry["FileId"]) for entry in entries] == [("file", file_id)]

    steps = server.http.get(f"/viewer/api/files/{file_id}/steps", params={"pictures": 0}).json()
    assert steps["Source"] == "file" and "not the arena's photos" in steps["PicturesNote"]
    replay = replay_file(path)
    assert len(steps["Steps"]) == len(replay.steps)
    truth = {card["Id"]: card["Landmark"] for round_ in record["Rounds"] for hand in round_["Hands"] for card in hand}
    truth |= {card["Id"]: card["Landmark"] for round_ in record["Rounds"] for card in round_["Deck"]}
    deal = steps["Steps"][0]
    # Both hands of the deal, as the file shows them, every card named by the label its (oracle) recognizer gave.
    hands = [[card["Id"] for card in seat["Hand"]] for seat in deal["Seats"]]
    first = replay.steps[0].views[0]
    assert hands == [[card[0] for card in first["MyHand"]], [card[0] for card in first["OppHand"]]]
    for seat in deal["Seats"]:
        for card in seat["Hand"]:
            assert card["Landmark"] == truth[card["Id"]]
            assert card["Url"].startswith("/cards/file") and card["Url"].endswith(".png")
    # Asking drew the pictures (in the background); once drawn, the opening step's come inline with the steps.
    assert server.server.app.state.images.wait_prerendered(timeout=300)
    again = server.http.get(f"/viewer/api/files/{file_id}/steps", params={"pictures": 0}).json()
    shown = {card["Url"] + "?caption=1&small=1" for seat in deal["Seats"] for card in seat["Hand"]}
    assert set(again["Pictures"]) == shown
    # The card the mover drew, on the steps where the file shows one: named as labelled, or unknown where the
    # file has no label for it (a card drawn by the match's last move is never in view of the bot's recognizer).
    drawn = [step["Drawn"] for step in steps["Steps"] if "Drawn" in step]
    assert any(card["Landmark"] is not None for card in drawn)
    for card in drawn:
        assert card["Landmark"] in (None, truth[card["Id"]]) and (card["Url"] is None) == (card["Landmark"] is None)
    # A labelled card's picture is drawn by this server from the label, with the label as its caption.
    card = deal["Seats"][0]["Hand"][0]
    picture = server.http.get(card["Url"], params={"caption": 1, "small": 1})
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/webp"
    assert server.http.get(card["Url"].replace("/cards/file", "/cards/file9")).status_code == 404

    # The first review of a process grades with the exact solver, which a fresh install compiles first:
    # minutes on a loaded machine (a 120 s wait ran out in all five runs of a fresh-clone series).
    review = server.http.get(f"/viewer/api/files/{file_id}/review", timeout=900).json()
    assert review["Decisions"] and {decision["Player"] for decision in review["Decisions"]} <= set(record["Players"])
    assert all(isinstance(decision["Exact"], bool) and "loss" in decision for decision in review["Decisions"])
    assert any("Rebuilt from the replay file" in note for note in review["Notes"])
    page = server.http.get(f"/viewer/review/file/{file_id}")
    assert page.status_code == 200 and f"/viewer#file/{file_id}/step/" in page.text

    # Kept in the records file: a restarted server still shows it.
    server.stop()
    restarted = viewer()
    assert [entry["FileId"] for entry in restarted.http.get("/viewer/api/files").json()["Files"]] == [file_id]
    assert restarted.http.get(f"/viewer/api/files/{file_id}/steps").status_code == 200


def test_a_card_the_file_never_labelled_is_unknown_not_guessed(recorded, viewer, tmp_path) -> None:
    path, _record = recorded
    lines = read_replay(path)
    first = next(line["gamestate"] for line in lines if line["type"] == "gamestate")
    unlabelled = first["OppHand"][0][0]
    for line in lines:
        if line["type"] in ("move", "labels"):
            (line.get("labels") or {}).pop(str(unlabelled), None)
    server = viewer()
    sent = server.send("".join(json.dumps(line) + "\n" for line in lines).encode(), "edited.jsonl", **server.admin)
    assert sent.status_code == 201, sent.text
    steps = server.http.get(f"/viewer/api/files/{sent.json()['FileId']}/steps").json()["Steps"]
    card = next(card for card in steps[0]["Seats"][1]["Hand"] if card["Id"] == unlabelled)
    assert card == {"Id": unlabelled, "Url": None, "Landmark": None}


def test_nothing_secret_is_kept(recorded, viewer) -> None:
    path, _record = recorded
    lines = read_replay(path)
    lines[0]["base_url"] = "http://user:hunter2@arena.example:8443/prod/?key=hunter2"
    lines[0]["recognizer"] = "customvision:key=hunter2"
    lines[0]["BotPassword"] = "hunter2"
    lines.insert(1, {"type": "note", "t": 1.0, "message": "password hunter2"})
    state = next(line for line in lines if line["type"] == "gamestate")
    state["PlayerKey"] = "hunter2"
    state["gamestate"]["PlayerKey"] = "hunter2"
    state["gamestate"]["MyHand"][0][1] = "https://photos.example/cards/a.png?sig=hunter2"
    server = viewer()
    sent = server.send("".join(json.dumps(line) + "\n" for line in lines).encode(), "secret.jsonl", **server.admin)
    assert sent.status_code == 201, sent.text
    kept = server.server.app.state.records.db.execute("SELECT * FROM replay_files").fetchall()
    assert len(kept) == 1 and "hunter2" not in json.dumps([dict(row) for row in kept])
    steps = server.http.get(f"/viewer/api/files/{sent.json()['FileId']}/steps")
    assert "hunter2" not in steps.text and steps.json()["RecordedOn"] == "http://arena.example:8443"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "the body is empty"),
        (b"not json\nat all\n", "not JSON"),
        (b'{"type": "gamestate"}\n', "the first line must be the header"),
        (b'{"type": "header", "version": 7}\n', "replay format version 7"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"type": "header", "version": 1}\n{"type": "end", "status": "WON"}\n', "holds no gamestate"),
    ],
)
def test_a_malformed_file_is_refused_saying_why_and_nothing_is_kept(viewer, data, said) -> None:
    server = viewer()
    refused = server.send(data, "bad.jsonl", **server.admin)
    assert refused.status_code == 400 and said in refused.json()["ErrorMessage"]
    assert server.http.get("/viewer/api/files").json()["Files"] == []


def test_a_file_with_a_bad_line_is_refused_naming_the_line(recorded, viewer) -> None:
    path, _record = recorded
    lines = read_replay(path)
    number = next(index for index, line in enumerate(lines, start=1) if line["type"] == "gamestate")
    lines[number - 1]["gamestate"]["MyHand"] = "five cards"
    server = viewer()
    refused = server.send("".join(json.dumps(line) + "\n" for line in lines).encode(), "bad.jsonl", **server.admin)
    assert refused.status_code == 400
    assert f"line {number} (gamestate): gamestate.MyHand must be a list" in refused.json()["ErrorMessage"]
    too_big = server.send(b"x" * (8 * 1024 * 1024 + 1), "big.jsonl", **server.admin)
    assert too_big.status_code == 413 and "limit" in too_big.json()["ErrorMessage"]
    assert server.http.get("/viewer/api/files").json()["Files"] == []


def test_replay_viewer_sends_the_file_and_prints_where_it_shows(recorded, viewer, tmp_path) -> None:
    path, _record = recorded
    # Replayed in the terminal where the match is not in the records: the hint names the way to the viewer.
    terminal = runner.invoke(app, ["replay", str(path), "--turn", "0", "--db", str(tmp_path / "elsewhere.sqlite3")])
    assert terminal.exit_code == 0 and f"rummy-vision replay {path} --viewer" in terminal.stderr.replace("\n", "")
    server = viewer()
    on_server = ["--server", server.server.base, "--db", str(server.db)]
    shown = runner.invoke(app, ["replay", str(path), "--viewer", *on_server])
    assert shown.exit_code == 0, shown.output
    file_id = server.http.get("/viewer/api/files").json()["Files"][0]["FileId"]
    assert f"{server.server.base}/viewer#file/{file_id}" in shown.stdout
    assert f"{server.server.base}/viewer/review/file/{file_id}" in shown.stdout
    assert "not the arena's photos" in shown.stdout.replace("\n", " ")
    # No server there: one readable line, exit status 2.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    nobody = ["--server", f"http://127.0.0.1:{free}", "--db", str(server.db)]
    missing = runner.invoke(app, ["replay", str(path), "--viewer", *nobody])
    assert missing.exit_code == 2 and "is `rummy-vision serve` running there?" in missing.stderr
    # A file the server refuses: its reason.
    bad = path.with_name("bad.jsonl")
    bad.write_text("not json\nat all\n")
    refused = runner.invoke(app, ["replay", str(bad), "--viewer", *on_server])
    assert refused.exit_code == 2 and "not JSON" in refused.stderr


def test_a_full_store_refuses_more_saying_how_to_make_room(recorded, viewer, monkeypatch) -> None:
    import server.replay_file_store as store

    path, _record = recorded
    monkeypatch.setattr(store, "MAX_FILES", 0)
    server = viewer()
    refused = server.send(path.read_bytes(), path.name, **server.admin)
    assert refused.status_code == 507 and "DELETE /viewer/api/files/ID" in refused.json()["ErrorMessage"]
    monkeypatch.setattr(store, "MAX_FILES", 1000)
    sent = server.send(path.read_bytes(), path.name, **server.admin)
    assert sent.status_code == 201
    removed = server.http.delete(f"/viewer/api/files/{sent.json()['FileId']}", headers=server.admin)
    assert removed.status_code == 200 and server.http.get("/viewer/api/files").json()["Files"] == []
