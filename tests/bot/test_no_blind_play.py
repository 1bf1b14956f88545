"""`match` and `play` share one recognizer rule and refuse a recognizer that cannot label live cards."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.players.labelling import chosen_recognizer

runner = CliRunner()


@pytest.fixture
def fresh_home(tmp_path, monkeypatch):
    for variable, folder in (("HOME", ""), ("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(variable, str(tmp_path / folder))
    monkeypatch.delenv("RUMMY_VISION_CONFIG", raising=False)
    return {"COLUMNS": "400"}


def _said(result) -> str:
    return " ".join(result.output.split())


def test_one_default_rule_for_match_and_play():
    assert chosen_recognizer("expectimax", None) == "oracle"  # in process
    assert chosen_recognizer("expectimax", None, "http://127.0.0.1:8080/prod/") == "oracle"  # a local referee
    assert chosen_recognizer("random", None, "https://arena.example/prod/") == "stub"  # never asked for labels
    with pytest.raises(ValueError, match="name a --recognizer"):
        chosen_recognizer("expectimax", None, "https://arena.example/prod/")
    assert chosen_recognizer("greedy", "azure", "https://arena.example/prod/") == "azure"


def test_play_refuses_the_stub_for_a_strategy_that_needs_labels(fresh_home):
    arguments = ["play", "--strategy", "expectimax", "--recognizer", "stub", "--bot-id", "me", "--password", "pw"]
    result = runner.invoke(app, [*arguments, "--base-url", "http://127.0.0.1:9/prod/"], env=fresh_home)
    assert result.exit_code == 2
    assert "recognizer 'stub' cannot label live cards" in _said(result)


def test_play_on_the_arena_without_a_recognizer_asks_for_one(fresh_home):
    arguments = ["play", "--strategy", "expectimax", "--bot-id", "me", "--password", "pw"]
    result = runner.invoke(app, [*arguments, "--base-url", "https://arena.example/prod/"], env=fresh_home)
    assert result.exit_code == 2
    assert "name a --recognizer" in _said(result)


def test_match_refuses_local_with_an_empty_gallery(fresh_home):
    result = runner.invoke(
        app, ["match", "heuristic", "greedy", "--recognizer", "local", "--no-record"], env=fresh_home
    )
    assert result.exit_code != 0
    assert "local has an empty gallery" in _said(result)


def test_a_picture_blind_strategy_may_play_without_labels(fresh_home):
    arguments = ["match", "random", "random", "--recognizer", "stub", "--rounds", "2", "--no-record", "--json"]
    result = runner.invoke(app, arguments, env=fresh_home)
    assert result.exit_code == 0, result.output


def test_match_reports_the_share_of_cards_left_unknown_per_player(fresh_home):
    arguments = [
        "match",
        "greedy",
        "random",
        "--rounds",
        "2",
        "--seed",
        "3",
        "--no-record",
        "--recognizer",
        "harsh:1.0",
    ]
    result = runner.invoke(app, [*arguments, "--json"], env=fresh_home)
    assert result.exit_code == 0, result.output
    import json

    players = json.loads(result.stdout.strip().splitlines()[-1])["players"]
    for player in players:
        assert player["cards_seen"] > 40 and 0.02 < player["unknown_share"] < 1
        # Every unknown card is counted once under the reason the recognizer gave.
        unknown = round(player["unknown_share"] * player["cards_seen"])
        assert player["unknown_reasons"] == [{"reason": "noisy: no landmark found", "cards": unknown}]
    shown = runner.invoke(app, arguments, env=fresh_home)
    assert "greedy: its recognizer left" in _said(shown) and "unknown; those moves were played without" in _said(shown)
    assert "x noisy: no landmark found)" in _said(shown)
    clean = runner.invoke(app, ["match", "greedy", "random", "--rounds", "2", "--no-record", "--json"], env=fresh_home)
    assert all(player["unknown_share"] == 0 for player in json.loads(clean.stdout.strip().splitlines()[-1])["players"])


def test_tournament_reports_each_players_unknown_cards_and_why(fresh_home):
    import json  # only this test and the match one above read JSON

    arguments = ["tournament", "greedy", "greedy@harsh:1.0", "random", "--rounds", "2", "--seed", "3"]
    result = runner.invoke(app, [*arguments, "--json"], env=fresh_home)
    assert result.exit_code == 0, result.output
    standings = {entry["name"]: entry for entry in json.loads(result.stdout.strip().splitlines()[-1])["standings"]}
    blind = standings["greedy@harsh:1.0"]
    assert blind["cards_seen"] > 40 and 0.02 < blind["unknown_share"] < 1
    assert blind["unknown_reasons"] == [
        {"reason": "noisy: no landmark found", "cards": round(blind["unknown_share"] * blind["cards_seen"])}
    ]
    assert standings["greedy"]["unknown_share"] == 0 and standings["greedy"]["unknown_reasons"] == []
    shown = _said(runner.invoke(app, arguments, env=fresh_home))
    assert "greedy@harsh:1.0: its recognizer left" in shown and "x noisy: no landmark found)" in shown
    assert "greedy: its recognizer left" not in shown


def test_play_over_a_referee_without_the_oracle_is_refused_like_in_process(fresh_home, real_server):
    """The default recognizer on a local referee is its oracle; without `serve --oracle` the strategy would
    play blind (every card unknown), so it is refused before any game, naming recognizers that can label."""
    url, passwords = real_server(oracle=False)
    arguments = [
        "play",
        "--strategy",
        "greedy",
        "--base-url",
        url,
        "--bot-id",
        "tester",
        "--opponent",
        "housebot-practise",
    ]
    result = runner.invoke(app, [*arguments, "--password", passwords["tester"], "--no-record"], env=fresh_home)
    said = _said(result)
    assert result.exit_code == 2, said
    assert "started without --oracle" in said and "serve --oracle" in said and "local:azure" in said
    assert "unknown" not in said  # no match was played


def test_play_over_a_referee_with_the_oracle_is_not_refused(fresh_home, real_server):
    from bot.players.match_bots import strategy_bot

    url, _ = real_server(oracle=True)
    assert strategy_bot("greedy", None, base_url=url).recognizer == "oracle"
