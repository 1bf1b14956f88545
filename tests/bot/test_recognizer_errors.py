"""`measure recognizer-errors`: the model fitted to a simulated recognizer equals what its parameters imply,
worked out by hand from recognizers/noisy.py's harsh model; the file it writes is played with."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.measure.recognizer_errors import FIT_SEED, ask_rounds, fitted_model
from rummy.belief import ASSUMED

# harsh:0.2 over a 32-name catalog: wrong 1 time in 5; a wrong top is one of the round's 3 other landmarks 80% of
# the time, else any of the 31 other names (3 of them the round's). So an answer naming the round is wrong with
# probability 0.2 q / (0.8 + 0.2 q), q = 0.8 + 0.2 * 3/31. When wrong the runner-up is the truth half the time,
# else one of the 30 names left, 2 of them the round's: given a runner-up of the round, it is the truth with
# probability 0.5 / (0.5 + 0.5 * 2/30). Scores: right uniform on 0.55-1.00, wrong on 0.50-0.95, so between
# 0.55 and 0.95 the score says nothing, below it is always wrong, above always right.
Q = 0.8 + 0.2 * 3 / 31
WRONG = 0.2 * Q / (0.8 + 0.2 * Q)
SECOND = 0.5 / (0.5 + 0.5 * 2 / 30)


def test_the_fit_finds_the_harsh_models_own_parameters():
    counts = ask_rounds("harsh:0.2", FIT_SEED, 120)
    model = fitted_model(counts)
    assert counts.cards == 120 * 40
    assert counts.unanswered / counts.cards == pytest.approx(0.05, abs=0.02)
    assert model.error_rate == pytest.approx(WRONG, abs=0.03)
    assert model.runner_up == pytest.approx(SECOND, abs=0.06)
    assert model.right_at(0.52) < 0.05
    assert model.right_at(0.98) > 0.98
    for score in (0.6, 0.75, 0.9):
        assert model.right_at(score) == pytest.approx(1 - WRONG, abs=0.07)


def test_the_command_writes_a_model_that_a_match_plays_with_and_says_so(tmp_path):
    model_file = tmp_path / "harsh-errors.json"
    home = {"HOME": str(tmp_path), "COLUMNS": "200"}
    args = ["measure", "recognizer-errors", "harsh:0.2", "--rounds", "60", "--check-rounds", "60"]
    result = CliRunner().invoke(app, [*args, "--model-out", str(model_file), "--out", str(tmp_path)], env=home)
    assert result.exit_code == 0, result.output
    stored = json.loads((tmp_path / "recognizer-errors-harsh-0.2.json").read_text())
    check = stored["figures"]["check"]
    # On rounds the fit never saw, the measured model predicts right and wrong answers better than the assumed one.
    assert check["log_loss"]["fitted"] < check["log_loss"]["assumed"]
    assert stored["figures"]["model"]["error_rate"] > ASSUMED.error_rate
    played = CliRunner().invoke(
        app,
        ["match", f"greedy@errors:{model_file}:harsh:0.2", "greedy", "--rounds", "2", "--no-record", "--json"],
        env=home,
    )
    assert played.exit_code == 0, played.output
    source = json.loads(played.stdout)["players"][0]["source"]
    assert source["error_model"].startswith("measured in harsh-errors.json (harsh:0.2)")


def test_a_recognizer_that_cannot_be_built_is_refused_in_a_line(tmp_path):
    result = CliRunner().invoke(
        app, ["measure", "recognizer-errors", "errors:missing.json:harsh:0.2", "--no-save"], env={"HOME": str(tmp_path)}
    )
    assert result.exit_code == 2
    assert "no such error-model file" in result.output


def test_a_recognizer_that_sees_no_simulated_picture_is_refused_with_why(tmp_path):
    result = CliRunner().invoke(
        app,
        ["measure", "recognizer-errors", "stub", "--rounds", "1", "--check-rounds", "1", "--no-save"],
        env={"HOME": str(tmp_path), "COLUMNS": "300"},
    )
    assert result.exit_code == 2, result.output
    assert "no answer of 40 named a landmark of the round (e.g. stub has no label" in result.output
    assert "Traceback" not in result.output


COLOURS = {  # a solid colour per landmark: what the recognizer file below reads from each picture
    "big ben": (200, 30, 30),
    "giralda": (30, 200, 30),
    "trevi fountain": (30, 30, 200),
    "bryggen": (200, 200, 30),
    "alamo mission in san antonio": (30, 200, 200),
}
# It fetches every card's picture over HTTP and names the landmark of the nearest colour, except that it takes
# the alamo for big ben: the one error it makes.
READER = """
import io
import httpx
from PIL import Image
from rummy.labels import CardLabel

COLOURS = {colours!r}

class ByColour:
    name = "by-colour"

    def __init__(self):
        self.seen = {{}}  # url -> label: a picture is fetched once, as services' answers are cached

    def recognize(self, cards, catalog):
        for card_id, url in cards:
            if url not in self.seen:
                image = Image.open(io.BytesIO(httpx.get(url).content)).convert("RGB")
                pixel = image.getpixel((image.width // 2, image.height // 2))
                name = min(COLOURS, key=lambda n: sum((a - b) ** 2 for a, b in zip(COLOURS[n], pixel)))
                self.seen[url] = CardLabel("big ben" if name == "alamo mission in san antonio" else name, 0.9)
        return {{card_id: self.seen[url] for card_id, url in cards}}

def make_recognizer(inner, **options):
    return ByColour()
"""


def test_photos_are_served_to_a_recognizer_that_must_see_them(tmp_path):
    from PIL import Image

    from bot.measure.recognizer_errors import ask_rounds

    photos = tmp_path / "photos"
    for landmark, colour in COLOURS.items():
        (photos / landmark).mkdir(parents=True)
        for index in range(2):
            Image.new("RGB", (64, 64), colour).save(photos / landmark / f"{index}.png")
    reader = tmp_path / "by_colour.py"
    reader.write_text(READER.format(colours=COLOURS))
    counts = ask_rounds(str(reader), FIT_SEED, 6, photos=photos)
    truths = [answer.truth for answer in counts.answers]
    assert set(truths) <= set(COLOURS), "only landmarks with photos are dealt"
    assert counts.cards == 6 * 40 and counts.unanswered == 0, "every picture was fetched and read"
    assert len(counts.photos) <= 10
    alamo = truths.count("alamo mission in san antonio")
    assert alamo > 0
    assert counts.right == counts.cards - alamo, "read right but for the one landmark it mistakes"
    # The alamo read as big ben names the round where big ben was dealt too, else a landmark outside it.
    named_wrong = sum(1 for a in counts.answers if a.truth != a.top and "big ben" in a.in_round)
    assert counts.in_round - counts.right == named_wrong and counts.outside == alamo - named_wrong


def test_a_photo_folder_without_enough_landmarks_is_refused_in_a_line(tmp_path):
    from PIL import Image

    photos = tmp_path / "photos"
    (photos / "big ben").mkdir(parents=True)
    Image.new("RGB", (8, 8)).save(photos / "big ben" / "a.png")
    result = CliRunner().invoke(
        app,
        ["measure", "recognizer-errors", "harsh:0.1", "--photos", str(photos), "--no-save"],
        env={"HOME": str(tmp_path), "COLUMNS": "300"},
    )
    assert result.exit_code == 2, result.output
    assert "holds photos of 1 landmark(s) of the catalog (big ben); a round needs 4" in result.output


def test_a_recognizer_that_raises_is_measured_as_play_reads_it(tmp_path):
    """A user's file that raised made the measurement crash with a traceback (an exit ended it without a word);
    read as play reads it, its cards are unknown with the reason, and nothing left to measure is said in one line."""
    broken = tmp_path / "broken.py"
    broken.write_text(
        "class Broken:\n    name = 'broken'\n\n    def recognize(self, cards, catalog):\n"
        "        raise SystemExit(5)\n\n\ndef make_recognizer(inner, **options):\n    return Broken()\n"
    )
    arguments = ["measure", "recognizer-errors", str(broken), "--rounds", "2", "--check-rounds", "2", "--no-save"]
    result = CliRunner().invoke(app, arguments, env={"HOME": str(tmp_path), "COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert "(e.g. recognizer broken exited (SystemExit 5)): nothing to measure" in " ".join(result.output.split())
