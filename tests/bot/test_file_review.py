"""`review FILE` for a replay file whose match is not in the records: rebuilt from the file alone, with the
same grading as the review of the referee's record of that match."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.replay.file_review import review_file
from bot.replay.recording import read_replay
from bot.replay.replays import replay_file
from strategies.coaching.game_review import ReviewError, review_record
from strategies.coaching.grading import EngineGrader

runner = CliRunner()
NODES = 2000  # a small search: the two reviews only need to grade alike, not well


def graded_alike(path, record) -> tuple[int, int]:
    """Check that every decision the file review grades is graded as the records review grades it; returns
    (decisions graded from the file, decisions in the records)."""
    from_records = review_record(record, EngineGrader("win", search_nodes=NODES)).decisions
    from_file = review_file(path, EngineGrader("win", search_nodes=NODES))
    # The file's steps with a mover are the match's applied moves in order.
    order = [step.number for step in replay_file(path).steps if step.mover is not None]
    for decision in from_file.decisions:
        same = from_records[order.index(decision.step)]
        assert decision.player == same.player
        assert decision.played_label == same.played_label and decision.best_label == same.best_label
        assert decision.played_value == pytest.approx(same.played_value, abs=1e-9)
        assert decision.best_value == pytest.approx(same.best_value, abs=1e-9)
        assert decision.exact == same.exact and decision.source == same.source
    assert "Rebuilt from the replay file" in " ".join(from_file.notes)
    return len(from_file.decisions), len(from_records)


def test_a_file_review_grades_each_decision_as_the_records_review(recorded) -> None:
    from_file, from_records = graded_alike(*recorded)
    assert from_file >= from_records - 1  # the opponent's last move may end the round out of the file's sight


def test_a_set_the_opponent_lays_before_our_first_move_is_reviewed(recorded_opponent_first, tmp_path) -> None:
    # The laid cards were in view only in the round's first gamestate, which our bot did not move on: their
    # labels come from that gamestate's labels line, and every decision of the round is rebuilt.
    path, record = recorded_opponent_first
    lines = read_replay(path)
    laid = _laid_before_our_first_move(lines)
    on_moves = {int(card_id) for line in lines if line["type"] == "move" for card_id in line.get("labels") or {}}
    assert laid and not laid & on_moves
    from_file, from_records = graded_alike(path, record)
    assert from_file == from_records
    # So does `review FILE` where the match is not in the records.
    empty = tmp_path / "elsewhere.sqlite3"
    answer = runner.invoke(app, ["review", str(path), "--db", str(empty), "--json", "--nodes", str(NODES)])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout[answer.stdout.index("{") :])
    assert len(data["Decisions"]) == from_records


def test_a_file_without_the_labels_of_the_opponents_turns_is_refused_naming_the_card(
    recorded_opponent_first, tmp_path
) -> None:
    # As a file written before those labels were recorded: the round cannot be rebuilt, and the refusal says why.
    path, _record = recorded_opponent_first
    lines = read_replay(path)
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(line) + "\n" for line in lines if line["type"] != "labels"))
    with pytest.raises(ReviewError, match=r"no decision can be rebuilt .* card \d+ was never labelled"):
        review_file(old, EngineGrader("win", search_nodes=NODES))


def _laid_before_our_first_move(lines: list[dict]) -> set[int]:
    first, second = [line["gamestate"] for line in lines if line["type"] == "gamestate"][:2]
    ids = {card[0] for card in first["OppHand"]} - {card[0] for hand in ("MyHand", "OppHand") for card in second[hand]}
    return set(ids)


def test_cli_reviews_a_file_whose_match_is_not_in_the_records(recorded, tmp_path) -> None:
    path, record = recorded
    empty = tmp_path / "elsewhere.sqlite3"  # no records here: the match is known from the file only
    answer = runner.invoke(app, ["review", str(path), "--db", str(empty), "--json", "--nodes", str(NODES)])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout[answer.stdout.index("{") :])
    assert data["GameId"] == record["GameId"]
    assert {decision["Player"] for decision in data["Decisions"]} == set(record["Players"])
    assert all("loss" in decision and isinstance(decision["Exact"], bool) for decision in data["Decisions"])
    assert any("Rebuilt from the replay file" in note for note in data["Notes"])
    # A file that is no replay says so in one line.
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    refused = runner.invoke(app, ["review", str(bad), "--db", str(empty)])
    assert refused.exit_code == 2 and "replay file" in refused.output


def _as_a_bot_files_recording(path, tmp_path):
    """The same match as a bot file's recording holds it: gamestates and moves, no labels (its bot labelled
    the cards itself)."""
    lines = read_replay(path)
    bare = tmp_path / "bot-file.jsonl"
    kept = [{**line, "labels": {}} if line["type"] == "move" else line for line in lines if line["type"] != "labels"]
    header = kept[0]
    kept[0] = {**header, "bot": "file:/somewhere/bot.py", "recognizer": None}
    bare.write_text("".join(json.dumps(line) + "\n" for line in kept))
    return bare


def test_a_bot_files_recording_says_once_what_is_missing(recorded, tmp_path) -> None:
    path, _record = recorded
    bare = _as_a_bot_files_recording(path, tmp_path)
    empty = tmp_path / "elsewhere.sqlite3"
    refused = runner.invoke(app, ["review", str(bare), "--db", str(empty), "--nodes", str(NODES)], terminal_width=400)
    assert refused.exit_code == 2
    said = refused.stderr.strip().splitlines()[-1]
    assert "--recognizer" in said and "no labels" in said, refused.stderr
    assert said.count("never labelled") <= 1 and refused.stderr.count("error:") == 1


def test_a_bot_files_recording_is_reviewed_with_a_recognizer_the_user_names(recorded, tmp_path, monkeypatch) -> None:
    path, record = recorded
    bare = _as_a_bot_files_recording(path, tmp_path)
    # A recognizer that can label these pictures: the stub, given the true landmark of every card URL.
    truth = {card["Id"]: card["Landmark"] for round_ in record["Rounds"] for hand in round_["Hands"] for card in hand}
    truth.update({step_id: name for step in _record_steps(record) for step_id, name in step.labels.items()})
    urls = {
        card[1]: truth[card[0]]
        for line in read_replay(bare)
        if line["type"] == "gamestate"
        for hand in ("MyHand", "OppHand")
        for card in line["gamestate"][hand]
    }
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    (cache / "rummy-vision").mkdir(parents=True)
    (cache / "rummy-vision" / "stub_labels.json").write_text(json.dumps({"labels": urls}))
    empty = tmp_path / "elsewhere.sqlite3"
    arguments = ["review", str(bare), "--db", str(empty), "--json", "--nodes", str(NODES), "--recognizer", "stub"]
    answer = runner.invoke(app, arguments)
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout[answer.stdout.index("{") :])
    from_records = review_record(record, EngineGrader("win", search_nodes=NODES)).decisions
    assert len(data["Decisions"]) >= len(from_records) - 1


def _record_steps(record):
    from rummy.rebuild import replay_record

    return replay_record(record).steps


RAISES_WHEN_ASKED = (
    "class Broken:\n    name = 'broken'\n\n    def recognize(self, cards, catalog):\n        raise {what}\n\n\n"
    "def make_recognizer(inner, **options):\n    return Broken()\n"
)


@pytest.mark.parametrize(
    ("what", "said"),
    [
        ("RuntimeError('kaput\\x1b[2J')", "recognizer broken raised RuntimeError: kaput\\x1b[2J"),
        ("SystemExit(5)", "recognizer broken exited (SystemExit 5)"),
    ],
)
def test_a_recognizer_that_fails_is_said_not_crashed_on(recorded, tmp_path, what, said) -> None:
    """A recognizer the user names that raises (or exits) named no card: review says so in one line, where it
    crashed with a traceback (or ended with the file's exit code and no word); `recognize` too."""
    path, _record = recorded
    broken = tmp_path / "broken.py"
    broken.write_text(RAISES_WHEN_ASKED.format(what=what))
    empty = tmp_path / "elsewhere.sqlite3"
    arguments = ["review", str(path), "--db", str(empty), "--nodes", str(NODES), "--recognizer", f"{broken}:stub"]
    refused = runner.invoke(app, arguments, terminal_width=400)
    assert refused.exit_code == 2, refused.output
    assert f"recognizer '{broken}:stub' named none of the file's cards: {said}" in refused.stderr
    asked = runner.invoke(app, ["recognize", "-r", f"{broken}:stub", "http://127.0.0.1:9/c/1.jpg"], terminal_width=400)
    assert asked.exit_code == 1 and "error: recognizer broken" in asked.stderr
    assert ("exited (SystemExit 5)" if "Exit" in what else "raised RuntimeError('kaput\\x1b[2J')") in asked.stderr
    assert "\x1b" not in asked.stderr and "\x1b" not in refused.stderr  # shown, never sent to the terminal
