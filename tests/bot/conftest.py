import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The bot tests share loopback helpers (fake referee, fault proxy) without a package.
sys.path.insert(0, str(Path(__file__).parent))

from bot_fake_referee import RefereeLog, create_referee  # noqa: E402
from bot_loopback import serve  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FIXTURE_BOTS = REPO / "fixtures" / "bots"
RANDOM_TEMPLATE = REPO / "bot" / "templates" / "files" / "random.py"  # what `new-bot --template random` writes


@pytest.fixture
def fixture_bots() -> Path:
    return FIXTURE_BOTS


@pytest.fixture
def random_template() -> Path:
    """The random starter template, as a bot file: the arena editor's first template, played as users play it."""
    return RANDOM_TEMPLATE


@pytest.fixture
def fake_referee() -> Iterator[Callable[..., tuple[str, RefereeLog]]]:
    """Start fake referees on loopback: call with create_referee's options; returns (base URL /prod/, log)."""
    stack = []

    def start(**options: object) -> tuple[str, RefereeLog]:
        app, log = create_referee(**options)
        context = serve(app)
        root = context.__enter__()
        stack.append(context)
        return root + "/prod/", log

    yield start
    for context in reversed(stack):
        context.__exit__(None, None, None)


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[Callable[..., tuple[str, dict[str, str]]]]:
    """Start the real referee (server.app) on loopback; returns (base URL /prod/, {bot name: password}).

    Registers `tester` and `other` (different users); house bots such as housebot-practise are built in.
    """
    from server.app import create_app
    from server.settings import Settings

    stack = []

    def start(*, move_time_ms: int = 500, oracle: bool = True, **settings: object) -> tuple[str, dict[str, str]]:
        db = tmp_path / f"records-{len(stack)}.sqlite3"
        app = create_app(Settings(db_path=db, oracle=oracle, move_time_ms=move_time_ms, **settings))
        passwords = {name: app.state.accounts.add_bot(name, iterations=1000) for name in ("tester", "other")}
        context = serve(app)
        root = context.__enter__()
        stack.append(context)
        return root + "/prod/", passwords

    yield start
    for context in reversed(stack):
        context.__exit__(None, None, None)


SEED_OUR_BOT_MOVES_FIRST = 1
OPPONENT_LAYS_FIRST = "housebot-greedy"  # lays a set on its first move whenever its hand holds one


def seed_where_the_opponent_moves_first() -> int:
    """The first server seed whose first match deals the first move to the house bot: the referee seeds a
    server's n-th match "<seed>:<n>" and seats the offering bot first, the house bot second."""
    from rummy.engine import Match

    return next(seed for seed in itertools.count(1) if Match(seed=f"{seed}:1").current.mover == 1)


def record_match(
    real_server, tmp_path: Path, *, seed: int, opponent: str, style: int | None = None
) -> tuple[Path, dict]:
    """A match of greedy (oracle labels) against `opponent` on the real referee with a seeded deal: (its
    `play` replay file, the referee's record of it). Minute-long moves, so a loaded machine never makes the
    bot fall back."""
    from test_bot_server_integration import play

    from bot.players.match_bots import strategy_bot
    from server.storage.records import Records

    base, passwords = real_server(move_time_ms=60_000, seed=seed)
    bot = strategy_bot("greedy", "oracle", base_url=base)
    styled = {} if style is None else {"style": style}
    (summary,) = play(base, passwords["tester"], bot, tmp_path / "replays", move_time_s=60, opponent=opponent, **styled)
    assert summary.fallbacks == 0, summary
    records = Records(tmp_path / "records-0.sqlite3")
    try:
        record = records.match_record(int(summary.game_id))
    finally:
        records.close()
    assert record is not None
    return Path(str(summary.record_path)), record


@pytest.fixture
def match_recorder(real_server, tmp_path: Path) -> Callable[..., tuple[Path, dict]]:
    """`record_match` on this test's referee: call it with seed=, opponent= and optionally style=."""

    def record(*, seed: int, opponent: str, style: int | None = None) -> tuple[Path, dict]:
        return record_match(real_server, tmp_path, seed=seed, opponent=opponent, style=style)

    return record


@pytest.fixture
def recorded(real_server, tmp_path: Path) -> tuple[Path, dict]:
    """A match of greedy (oracle labels) against housebot-practise on the real referee: (its `play` replay
    file, the referee's record of it), on a seeded deal where our bot moves first."""
    from bot.replay.recording import read_replay

    path, record = record_match(real_server, tmp_path, seed=SEED_OUR_BOT_MOVES_FIRST, opponent="housebot-practise")
    first = next(line for line in read_replay(path) if line.get("type") == "gamestate")
    assert first["gamestate"]["IsMover"], "the seed no longer gives our bot the first move"
    return path, record


@pytest.fixture
def recorded_opponent_first(real_server, tmp_path: Path) -> tuple[Path, dict]:
    """As `recorded`, against housebot-greedy on a deal where it moves first and lays a set before our bot's
    first move: those cards are in view only in the round's first gamestate, which our bot does not move on."""
    from bot.replay.recording import read_replay

    path, record = record_match(
        real_server, tmp_path, seed=seed_where_the_opponent_moves_first(), opponent=OPPONENT_LAYS_FIRST
    )
    states = [line["gamestate"] for line in read_replay(path) if line.get("type") == "gamestate"]
    assert not states[0]["IsMover"], "the seed no longer gives the opponent the first move"
    assert states[1]["OppPoints"] > 0 and len(states[1]["OppHand"]) < len(states[0]["OppHand"]), (
        "the opponent no longer lays a set on its first move"
    )
    return path, record
