"""`rummy-vision play-human` fed with input lines, invalid ones included, to the end of a match and its review."""

from __future__ import annotations

import io

from play_helpers import check_review_is_the_records_review, own_review, valid_set
from rich.console import Console
from typer.testing import CliRunner

from bot.cli import app
from bot.client.play_human import InputError, PlayApi, TerminalGame, parse_command
from server.storage.records import Records

STATE = {
    "MyHand": [{"Id": 11, "Landmark": "big ben"}, {"Id": 12, "Landmark": "big ben"}, {"Id": 13, "Landmark": "giralda"}],
    "OppHand": [{"Id": 21, "Landmark": "giralda"}, {"Id": 22, "Landmark": "bryggen"}],
}


def test_inputs_are_read_by_number_or_name_and_bad_ones_are_explained() -> None:
    assert parse_command("lay 1 2 3", STATE).mine == (11, 12, 13)
    assert parse_command("lay big ben, big ben, giralda", STATE).mine == (11, 12, 13)
    assert parse_command("take bryggen", STATE).theirs == (22,)
    assert parse_command("t 1", STATE).theirs == (21,)  # a command's first letter is enough
    assert parse_command("give gir", STATE).mine == (13,)  # so is the start of a name
    assert parse_command("HINT", STATE).action == "hint"
    for line, words in [
        ("", "type a move"),
        ("dance 1", "not a command"),
        ("give", "which card"),
        ("give 9", "no card 9"),
        ("lay 1 1 2", "named twice"),
        ("lay big ben, big ben, big ben", "only 2 big ben"),
        ("take alcatraz", "no 'alcatraz'"),
    ]:
        try:
            parse_command(line, STATE)
        except InputError as error:
            assert words in str(error), (line, str(error))
        else:
            raise AssertionError(f"{line!r} was accepted")


def test_a_complete_match_fed_on_standard_input(tmp_path) -> None:
    db = tmp_path / "records.sqlite3"
    lines = ["dance", "lay 1", "take 99", "lay 1 1 2", "give", "hint", "help", "take 1"] + ["give 1"] * 30
    result = CliRunner().invoke(
        app,
        ["play-human", "--opponent", "practise", "--coach", "heuristic", "--objective", "margin", "--db", str(db)],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    output = result.output
    for explanation in ("not a command", "a Lay needs 3 to 5", "no card 99", "named twice", "which card"):
        assert explanation in output, explanation
    assert "Coach: heuristic" in output and "worth" in output
    assert any(words in output for words in ("You won the match", "You lost the match", "The match is drawn"))
    assert "Your game review" in output and "decisions were the best" in output
    records = Records(db)
    try:
        (summary,) = records.list_matches()
    finally:
        records.close()
    assert summary["Players"] == ["human", "housebot-practise"] and summary["Status"] == "FINISHED"


def test_the_terminal_game_lays_takes_and_gives_by_name(start_play_server) -> None:
    server = start_play_server(seed=5)
    console = Console(file=io.StringIO(), width=120)
    used: list[str] = []
    game: TerminalGame

    def read_line(_prompt: str) -> str:
        state = game.state
        mine, theirs = state["MyHand"], state["OppHand"]
        if not used:
            used.append("bad")
            return "lay " + mine[0]["Landmark"]  # one card is no Lay: explained, not sent
        if "take" not in used:
            used.append("take")
            return "take " + theirs[0]["Landmark"]
        if "give" not in used:
            used.append("give")
            return "give 1"
        chosen = valid_set(mine)
        if chosen:
            used.append("lay")
            names = {card["Id"]: card["Landmark"] for card in mine}
            return "lay " + ", ".join(names[card_id] for card_id in chosen)
        used.append("give")
        return "give 1"

    api = PlayApi(server.base, server.client)  # the server's client: the game is this browser's (its cookie)
    game = TerminalGame(api, console, read_line)
    final = game.play("housebot-easy", 5, "heuristic", "tester", "margin")
    assert final["GameStatus"] in ("WON", "LOST", "DRAWN")
    assert {"take", "give", "lay"} <= set(used)
    output = console.file.getvalue()
    assert "Not a move: a Lay needs 3 to 5 of your cards; you selected 1" in output
    review = own_review(server.client, game.token)
    check_review_is_the_records_review(review, server.client)
    assert review["Summary"] in " ".join(output.split())
    assert "Your three worst moments" in output or not review["Worst"]
