"""The local referee plays by the open-choice switches, and check-recording agrees with it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))

from bot_loopback import serve  # noqa: E402

from bot.client.config import Credentials  # noqa: E402
from bot.client.protocol_client import ArenaClient, RetryPolicy  # noqa: E402
from bot.client.runner import PlayOptions, Runner  # noqa: E402
from bot.players.match_bots import strategy_bot  # noqa: E402
from bot.replay.check_recording import check_recording  # noqa: E402
from rummy import RulesConfig  # noqa: E402


def test_a_referee_with_net_points_is_matched_by_the_same_switch(tmp_path: Path) -> None:
    from server.app import create_app
    from server.settings import Settings

    rules = RulesConfig(points_shown="net")
    # Minute-long moves: a loaded machine must not end the match on time or force fallback moves.
    app = create_app(Settings(db_path=tmp_path / "r.sqlite3", oracle=True, move_time_ms=60_000, rules=rules))
    password = app.state.accounts.add_bot("tester", iterations=1000)
    with serve(app) as root:
        base = root + "/prod/"
        options = PlayOptions(
            game_style_id=1, opponent_id="housebot-greedy", games=1, record_dir=tmp_path, move_time_s=60
        )
        with ArenaClient(base, Credentials("tester", password), policy=RetryPolicy(0.01, 0.1)) as client:
            [summary] = Runner(client, strategy_bot("greedy", "oracle", base_url=base), options).run()
    assert summary.error is None
    assert check_recording(summary.record_path, rules).divergences == []
    assert any(d.what == "points" for d in check_recording(summary.record_path).divergences)


def test_serve_refuses_an_unknown_choice() -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--points-shown", "gross", "--port", "0"])
    assert result.exit_code == 2 and "points_shown" in result.output
