"""The pages' small card pictures kept on disk beside the records file: a restarted server, or one showing a
match `rummy-vision match` recorded, serves them without drawing; a broken or foreign file is drawn again,
never served; the folder stays within its bound."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from rummy.cards import token_of
from server.cards.picture_folder import PictureFolder, folder_beside
from server.cards.viewer_cards import ROUNDS_DRAWN, opening_cards
from server.storage.records import Records


def _drawn_by_a_first_server(start_viewer_server, game_id: int) -> tuple[list[dict], dict[int, bytes]]:
    """A server shows the match's steps (drawing its pictures, kept on disk) and stops: the opening step's
    cards and their pictures as it served them."""
    first = start_viewer_server()
    step = first.get(f"/viewer/api/games/{game_id}/steps").json()["Steps"][0]
    cards = [card for seat in step["Seats"] for card in seat["Hand"]]
    assert first.app.state.images.wait_prerendered(timeout=120) and first.app.state.images.drawn > 0
    pictures = {card["Id"]: _small(first, card) for card in cards}
    first.stop()
    return cards, pictures


def _small(server, card: dict) -> bytes:
    answer = server.get(card["Url"] + "?caption=1&small=1")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/webp"
    return answer.content


def test_a_restarted_server_serves_the_pictures_from_disk_and_draws_none(
    start_viewer_server, finished_game, db_path
) -> None:
    cards, drawn_before = _drawn_by_a_first_server(start_viewer_server, finished_game)
    restarted = start_viewer_server()
    images = restarted.app.state.images
    data = restarted.get(f"/viewer/api/games/{finished_game}/steps?pictures=0").json()
    # The opening step's 20 pictures come inline with the steps, read from disk.
    assert len(cards) == 20 and sorted(data["Pictures"]) == sorted(card["Url"] + "?caption=1&small=1" for card in cards)
    assert {card["Id"]: _small(restarted, card) for card in cards} == drawn_before
    assert images.wait_prerendered(timeout=120)
    assert images.drawn == 0 and images.drawn_on_request == 0


def test_a_broken_or_foreign_picture_file_is_drawn_again_never_served(
    start_viewer_server, finished_game, db_path
) -> None:
    cards, right = _drawn_by_a_first_server(start_viewer_server, finished_game)
    broken, foreign, other = cards[0], cards[1], cards[2]
    folder = PictureFolder(folder_beside(db_path))
    cut = folder.path_of(token_of(broken["Url"]), True)
    cut.write_bytes(cut.read_bytes()[:-10])  # a write cut short
    # Another card's file under this card's name: well formed, but not this card's.
    folder.path_of(token_of(foreign["Url"]), True).write_bytes(
        folder.path_of(token_of(other["Url"]), True).read_bytes()
    )

    restarted = start_viewer_server()
    images = restarted.app.state.images
    assert _small(restarted, broken) == right[broken["Id"]]
    assert _small(restarted, foreign) == right[foreign["Id"]]
    assert images.folder.rejected == 2 and images.drawn == 2
    # Drawn again, the files are whole: a third server reads them.
    third = start_viewer_server()
    assert _small(third, broken) == right[broken["Id"]] and third.app.state.images.drawn == 0


def test_the_folder_stays_within_its_bound_and_keeps_the_pictures_used_last(tmp_path: Path) -> None:
    folder = PictureFolder(tmp_path / "records.sqlite3.cards", max_bytes=20_000)
    picture = bytes(range(256)) * 4  # 1 KB
    for number in range(100):
        folder.put(f"token-{number}", False, picture)
        assert folder.get("token-0", False) == picture  # used after every write: never the one to go
        assert folder.total_bytes() <= 20_000
    assert folder.get("token-1", False) is None  # used longest ago: gone
    assert folder.get("token-99", False) == picture
    names = [path.name for path in folder.folder.iterdir()]
    assert all(name.endswith(".card") for name in names)  # written under a temporary name, then renamed
    assert not any("token" in name for name in names)  # the folder's listing names no token


def test_pictures_drawn_by_other_drawing_code_are_not_served(tmp_path: Path) -> None:
    place = tmp_path / "records.sqlite3.cards"
    PictureFolder(place, code=b"older drawing code").put("token", True, b"picture")
    assert PictureFolder(place, code=b"older drawing code").get("token", True) == b"picture"
    newer = PictureFolder(place, code=b"newer drawing code")
    assert newer.get("token", True) is None and newer.rejected == 1
    assert not newer.path_of("token", True).exists()


def test_match_leaves_the_first_rounds_opening_pictures_for_a_later_server(db_path, start_viewer_server) -> None:
    rounds = ROUNDS_DRAWN + 1
    answer = CliRunner().invoke(app, ["match", "greedy", "random", "--rounds", str(rounds), "--db", str(db_path)])
    assert answer.exit_code == 0, answer.output
    records = Records(db_path)
    game_ids = [int(game["GameId"]) for game in records.list_matches()]
    openings = {game_id: opening_cards(records.match_record(game_id)) for game_id in game_ids}
    records.close()
    assert len(game_ids) == rounds
    server = start_viewer_server()
    images = server.app.state.images
    first_rounds, later = sorted(game_ids)[:ROUNDS_DRAWN], max(game_ids)
    for game_id in first_rounds:
        assert len(openings[game_id]) == 20
        for token, _landmark in openings[game_id]:
            assert images.cached(token, caption=True, small=True) is not None
            assert images.cached(token, caption=False, small=True) is not None
    assert images.drawn == 0  # read from the folder `match` left beside the records
    data = server.get(f"/viewer/api/games/{first_rounds[0]}/steps?pictures=0").json()
    assert len(data["Pictures"]) == 20
    # A later round was left undrawn (drawing every round would take the match ten times as long).
    assert server.get(f"/viewer/api/games/{later}/steps?pictures=0").json()["Pictures"] == {}


def test_the_run_page_draws_its_rounds_opening_steps(db_path, start_viewer_server) -> None:
    rounds = ROUNDS_DRAWN + 1
    answer = CliRunner().invoke(app, ["match", "greedy", "random", "--rounds", str(rounds), "--db", str(db_path)])
    assert answer.exit_code == 0, answer.output
    records = Records(db_path)
    later = max(int(game["GameId"]) for game in records.list_matches())
    opening = opening_cards(records.match_record(later))
    records.close()
    server = start_viewer_server()
    images = server.app.state.images
    assert all(images.cached(token, caption=True, small=True) is None for token, _ in opening)  # left undrawn
    # (Its id from the records: the list would draw its newest rounds itself.)
    records = Records(db_path)
    ((run_id,),) = records.db.execute("SELECT run_id FROM runs").fetchall()
    records.close()
    assert server.get(f"/viewer/api/runs/{run_id}").status_code == 200
    assert images.wait_prerendered(timeout=120)
    assert all(images.cached(token, caption=True, small=True) is not None for token, _ in opening)
