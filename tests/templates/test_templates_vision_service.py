"""The vision templates label their cards through the referee's own vision service (`serve --vision`).

No fake: the real referee on loopback answers the templates' Azure and Custom Vision calls for its cards,
with the key it was started with. By URL (the default when the service itself is local) and by the
picture's bytes (what a template does for a real, cloud key when the card is on a private host).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_templates_play import STYLE, write_template

from bot.client.config import Credentials
from bot.client.protocol_client import ArenaClient, RetryPolicy
from bot.client.runner import PlayOptions, Runner
from bot.players.match_bots import file_bot
from bot.replay.recording import read_replay
from server.vision import DEFAULT_VISION_KEY, how_to_point_bots

FAST = RetryPolicy(first_wait_s=0.01, max_wait_s=0.1)
MOVE_MS = 10_000
# The line every vision template prints at each move (say_labels).
LABELS_SAID = re.compile(r"labels: \d+ of \d+ cards known, (?P<unknown>\d+) unknown \((?P<waiting>\d+) calls waiting\)")


def point_at(monkeypatch: pytest.MonkeyPatch, root: str, key: str = DEFAULT_VISION_KEY) -> None:
    """The environment `serve --vision` prints, set for the bot process."""
    for line in how_to_point_bots(root, key):
        for pair in line.split():
            name, _, value = pair.partition("=")
            monkeypatch.setenv(name, value)


def play(served, path: Path, tmp_path: Path, opponent: str = "housebot-greedy"):
    options = PlayOptions(
        game_style_id=STYLE, opponent_id=opponent, games=1, record_dir=tmp_path, move_time_s=MOVE_MS / 1000
    )
    with ArenaClient(served.base, Credentials("tester", served.password), policy=FAST) as client:
        [summary] = Runner(client, file_bot(path), options).run()
    assert summary.error is None and summary.fallbacks == 0, summary
    return summary


@pytest.mark.parametrize("how", ["url", "bytes"])
@pytest.mark.parametrize("name", ["vision", "customvision", "strong"])
def test_template_labels_every_card_through_the_referees_vision_service(
    name, how, referee, monkeypatch, tmp_path
) -> None:
    served = referee(move_time_ms=MOVE_MS, vision="oracle")
    point_at(monkeypatch, served.base.removesuffix("/prod/"))
    monkeypatch.setenv("SEND_PICTURE_BYTES", "always" if how == "bytes" else "auto")
    summary = play(served, write_template(tmp_path, name), tmp_path)
    records = read_replay(summary.record_path)
    asked_to_move = [r["gamestate"] for r in records if r["type"] == "gamestate" and r["gamestate"]["IsMover"]]
    shown = {url for state in asked_to_move for _id, url in state["MyHand"] + state["OppHand"]}
    service = served.app.state.vision
    assert service.asked[how] >= len(shown) and service.asked["bytes" if how == "url" else "url"] == 0
    laid = [r for r in records if r["type"] == "move" and r["applied"] and "Lay" in r["move"]]
    assert laid, "with every card labelled the bot lays sets"
    # The template's own log, kept with each move. On a loaded machine a call may outlast the template's own
    # thinking cap (MAX_THINK_SECONDS) and its card is unknown for that move, so what is asserted is behaviour,
    # not speed: a card is unknown only while its call is still waiting (never dropped or failed), and the
    # labelling caught up.
    logs = [r["log"] for r in records if r["type"] == "move" and r.get("log")]
    said = [LABELS_SAID.search(log) for log in logs]
    assert logs and all(said), logs[:3]
    counts = [(int(m["unknown"]), int(m["waiting"])) for m in said if m]
    assert all(unknown == waiting for unknown, waiting in counts), logs
    assert any(unknown == 0 for unknown, _waiting in counts), logs


def test_a_wrong_key_is_refused_and_the_template_plays_blind(referee, monkeypatch, tmp_path) -> None:
    served = referee(move_time_ms=MOVE_MS, vision="oracle")
    point_at(monkeypatch, served.base.removesuffix("/prod/"), key="not-the-key")
    summary = play(served, write_template(tmp_path, "vision"), tmp_path, opponent="housebot-practise")
    assert summary.moves > 0 and served.app.state.vision.asked == {"url": 0, "bytes": 0}


@pytest.mark.parametrize("name", ["vision", "customvision", "strong"])
def test_new_bot_says_how_to_play_with_labels_offline(name, tmp_path) -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    result = CliRunner().invoke(app, ["new-bot", str(tmp_path / "b.py"), "--template", name])
    said = " ".join(result.output.split())
    assert result.exit_code == 0 and "serve --vision oracle" in said and "harsh:0.1" in said
