"""A recognizer that errs where its error model says it cannot is not played past in silence: the belief bends its
evidence and notes it with the move, and `match` says how many moves were decided so, with the note."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bot.cli import app
from bot.matches.local_match import Contender, RoundResult, play_round
from bot.matches.summary import contradictions
from rummy.belief import LABELS_CONTRADICTED, SETS_CONTRADICTED

# Names every card the first landmark it is shown, and states it is never wrong: forty cards of one landmark,
# where a deal holds ten of each, contradict the deal at the first gamestate.
SURE_AND_WRONG = """
from rummy.belief import ErrorModel
from rummy.labels import CardLabel


class OneName:
    name = "one-name"
    error_model = ErrorModel(0.0, source="one-name: states it is never wrong")

    def __init__(self, inner):
        self.inner = inner

    def recognize(self, cards, catalog):
        labels = self.inner.recognize(cards, catalog)
        first = next(label.landmark for label in labels.values() if label.landmark)
        return {card_id: CardLabel(first, 1.0, "one name for all") for card_id, _url in cards}


def make_recognizer(inner, **options):
    return OneName(inner)
"""


def _round(contradicted: tuple[tuple[int, str], tuple[int, str]]) -> RoundResult:
    return RoundResult("d:0", ("a", "b"), 0, (10, 20), 1, (), ("w", "x", "y", "z"), contradicted=contradicted)


def test_the_summary_adds_up_a_seats_moves_on_a_contradicted_belief():
    said = LABELS_CONTRADICTED
    rounds = [(_round(((0, ""), (2, said))), 1), (_round(((3, SETS_CONTRADICTED), (0, ""))), 1)]
    assert contradictions(rounds) == {"contradicted": 2, "contradiction": said}
    assert contradictions([(_round(((0, ""), (2, said))), 0)]) == {"contradicted": 0, "contradiction": ""}
    assert contradictions([]) == {"contradicted": 0, "contradiction": ""}


def test_the_agent_counts_its_moves_on_a_contradicted_belief(tmp_path):
    recognizer = tmp_path / "one_name.py"
    recognizer.write_text(SURE_AND_WRONG, encoding="utf-8")
    liar, honest = Contender("greedy", str(recognizer)), Contender("greedy", "oracle")
    result = play_round("7:0", (liar, honest))
    (moves, note), (none, nothing) = result.contradicted
    mine = sum(1 for move in result.moves if move.seat == 0)
    assert moves == mine and note == LABELS_CONTRADICTED  # forty cards of one landmark: at every move
    assert (none, nothing) == (0, "")


def test_match_warns_when_a_recognizer_is_wrong_where_it_says_it_cannot_be(tmp_path):
    recognizer = tmp_path / "one_name.py"
    recognizer.write_text(SURE_AND_WRONG, encoding="utf-8")
    env = {"HOME": str(tmp_path), "COLUMNS": "400"}
    arguments = ["match", f"greedy@{recognizer}", "greedy", "--rounds", "2", "--no-record", "--seed", "7"]
    result = CliRunner().invoke(app, arguments, env=env)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert f"greedy@{recognizer}: " in said and "moves were decided on a belief whose evidence contradicted" in said
    assert "the labels contradict the deal" in said and "measure recognizer-errors" in said
    # Its opponent, on the true labels, never is.
    assert said.count("contradicted itself") == 1
    found = json.loads(CliRunner().invoke(app, [*arguments, "--json"], env=env).output)
    counts = {player["name"]: player["contradicted_moves"] for player in found["players"]}
    assert counts[f"greedy@{recognizer}"] > 0 and counts["greedy"] == 0


def test_play_warns_too(real_server, tmp_path):
    recognizer = tmp_path / "one_name.py"
    recognizer.write_text(SURE_AND_WRONG, encoding="utf-8")
    base, passwords = real_server(move_time_ms=60_000)
    args = ["play", "--base-url", base, "--strategy", "greedy", "--recognizer", str(recognizer), "--no-record"]
    args += ["--opponent", "housebot-practise", "--password", passwords["tester"]]
    env = {"RUMMY_VISION_BOT_ID": "tester", "RUMMY_VISION_CONFIG": str(tmp_path / "none.toml"), "COLUMNS": "300"}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "moves were decided on a belief whose evidence contradicted itself (the labels contradict" in said
    found = json.loads(CliRunner().invoke(app, [*args, "--json"], env=env).stdout.splitlines()[0])
    assert found["contradicted"] > 0 and found["contradiction"] == LABELS_CONTRADICTED
