"""A recording `play` wrote against the real local referee (default rules) checks without divergence."""

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


def test_a_real_recording_of_a_three_round_match(tmp_path: Path) -> None:
    from server.app import create_app
    from server.settings import Settings

    # Minute-long moves: a loaded machine must not end the match on time or force fallback moves.
    app = create_app(Settings(db_path=tmp_path / "records.sqlite3", oracle=True, move_time_ms=60_000))
    password = app.state.accounts.add_bot("tester", iterations=1000)
    with serve(app) as root:
        base = root + "/prod/"
        options = PlayOptions(
            game_style_id=2, opponent_id="housebot-greedy", games=1, record_dir=tmp_path, move_time_s=60
        )
        with ArenaClient(base, Credentials("tester", password), policy=RetryPolicy(0.01, 0.1)) as client:
            [summary] = Runner(client, strategy_bot("greedy", "oracle", base_url=base), options).run()
    assert summary.error is None and summary.status in ("WON", "LOST", "DRAWN")
    report = check_recording(summary.record_path)
    assert report.divergences == [], [d.describe() for d in report.divergences]
    assert report.moves_checked >= 10 and report.unchecked_points == 0
    # Under another choice the same real recording diverges: the check looks at what it claims to.
    assert check_recording(summary.record_path, RulesConfig(points_shown="net")).divergences
