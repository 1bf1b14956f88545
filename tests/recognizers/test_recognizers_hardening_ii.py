"""Hardening II for pictures: decompression bombs are refused from their header, and a wrong gallery
label can be listed and forgotten."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from bot.cli import app
from recognizers.features import MAX_PIXELS, open_image
from server.cards import CardImages, draw_card, to_png

runner = CliRunner()


def _bomb() -> bytes:
    """A small PNG whose header declares more pixels than any card needs (6,000 x 5,000 = 30 Mpx)."""
    out = io.BytesIO()
    Image.new("1", (6000, 5000)).save(out, format="PNG")
    data = out.getvalue()
    assert len(data) < 200_000 and MAX_PIXELS < 6000 * 5000
    return data


def test_a_picture_declaring_too_many_pixels_is_refused_before_decoding(monkeypatch):
    bomb = _bomb()
    decoded: list[tuple[int, int]] = []
    real_load = Image.Image.load

    def counting_load(image: Image.Image):  # type: ignore[no-untyped-def]
        decoded.append(image.size)
        return real_load(image)

    monkeypatch.setattr(Image.Image, "load", counting_load)
    with pytest.raises(ValueError, match="30,000,000 pixels"):
        open_image(bomb)
    assert (6000, 5000) not in decoded


def test_serve_images_serves_a_drawn_card_instead_of_a_bomb(tmp_path):
    folder = tmp_path / "photos" / "big ben"
    folder.mkdir(parents=True)
    (folder / "bomb.png").write_bytes(_bomb())
    images = CardImages(tmp_path / "photos")
    assert images.png("t1", "big ben") == to_png(draw_card("big ben", "t1"))


def _import(folder: Path, gallery: Path):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["recognizers", "import", str(folder), "--gallery", str(gallery)])


def test_recognizers_import_refuses_a_bomb(tmp_path):
    folder = tmp_path / "pictures" / "big ben"
    folder.mkdir(parents=True)
    (folder / "bomb.png").write_bytes(_bomb())
    gallery = tmp_path / "gallery.sqlite3"
    result = _import(tmp_path / "pictures", gallery)
    assert "added 0 picture(s)" in result.output and "1 unreadable" in result.output


def test_a_wrong_label_is_listed_forgotten_and_imported_again_under_the_right_name(tmp_path):
    gallery = tmp_path / "gallery.sqlite3"
    picture = to_png(draw_card("big ben", "t7"))
    wrong = tmp_path / "wrong" / "trevi fountain"
    wrong.mkdir(parents=True)
    (wrong / "card.png").write_bytes(picture)
    assert "added 1 picture(s)" in _import(tmp_path / "wrong", gallery).output

    right = tmp_path / "right" / "big ben"
    right.mkdir(parents=True)
    (right / "card.png").write_bytes(picture)
    again = _import(tmp_path / "right", gallery)
    assert "added 0 picture(s)" in again.output and "forget" in again.output  # says how to fix it

    listed = runner.invoke(app, ["recognizers", "list", "--gallery", str(gallery), "--json"])
    assert listed.exit_code == 0, listed.output
    (entry,) = json.loads(listed.output)
    assert entry["Landmark"] == "trevi fountain"
    assert runner.invoke(app, ["recognizers", "forget", "999", "--gallery", str(gallery)]).exit_code == 2
    forgot = runner.invoke(app, ["recognizers", "forget", str(entry["Id"]), "--gallery", str(gallery)])
    assert forgot.exit_code == 0 and "removed 1 picture(s)" in forgot.output

    assert "added 1 picture(s)" in _import(tmp_path / "right", gallery).output
    shown = runner.invoke(app, ["recognizers", "list", "--gallery", str(gallery)], terminal_width=200)
    assert "big ben" in shown.output and "trevi fountain" not in shown.output
