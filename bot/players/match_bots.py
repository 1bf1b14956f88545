"""What plays a match: a user's editor file, or one of our strategies with a recognizer.

Both give the runner a fresh `calculate_move(gamestate)` per match, built from the match's first
gamestate (the oracle recognizer needs the match's GameId).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.players.user_bot import CalculateMove, UserBotFile, forget_module, load_user_bot


class MatchBot(Protocol):
    @property
    def label(self) -> str:
        """For records and output: "strategy:<name>" or "file:<path>"."""
        ...

    @property
    def recognizer(self) -> str | None: ...

    def new_match(self, gamestate: dict[str, Any]) -> CalculateMove: ...

    def end_match(self, calculate_move: CalculateMove) -> None: ...


@dataclass(frozen=True)
class FileBot:
    bot_file: UserBotFile
    recognizer: str | None = None

    @property
    def label(self) -> str:
        return f"file:{self.bot_file.path}"

    def new_match(self, gamestate: dict[str, Any]) -> CalculateMove:
        return self.bot_file.new_match()

    def end_match(self, calculate_move: CalculateMove) -> None:
        forget_module(calculate_move)


RecognizerFactory = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class StrategyBot:
    strategy: str
    recognizer: str | None
    make_recognizer: RecognizerFactory

    @property
    def label(self) -> str:
        return f"strategy:{self.strategy}"

    def new_match(self, gamestate: dict[str, Any]) -> CalculateMove:
        from strategies.agent import ArenaAgent
        from strategies.registry import get_strategy

        return ArenaAgent(get_strategy(self.strategy), self.make_recognizer(gamestate)).calculate_move

    def end_match(self, calculate_move: CalculateMove) -> None:
        agent = getattr(calculate_move, "__self__", None)
        close = getattr(getattr(agent, "recognizer", None), "close", None)
        if callable(close):
            close()


def file_bot(path: str | Path) -> FileBot:
    return FileBot(load_user_bot(path))


def strategy_bot(strategy: str, recognizer: str | None, *, base_url: str) -> StrategyBot:
    """Check the names now (a typo fails before any game) and build a fresh recognizer per match."""
    from strategies.registry import get_strategy

    get_strategy(strategy)  # raises ValueError naming the known strategies
    spec = recognizer or "stub"
    recognizer_for_match(spec, base_url, game_id=None)  # raises for an unknown name or missing settings

    def make_recognizer(gamestate: dict[str, Any]) -> Any:
        return recognizer_for_match(spec, base_url, gamestate.get("GameId"))

    return StrategyBot(strategy, spec, make_recognizer)


def recognizer_for_match(spec: str, base_url: str, game_id: int | None) -> Any:
    """A recognizer from recognizers.registry. `oracle` (also inside `noisy:P`) reads the true labels from
    the local server started with --oracle, at <server root>/oracle/labels/<GameId>; others ignore both."""
    from recognizers.registry import get_recognizer

    return get_recognizer(spec, base_url=oracle_base(base_url), game_id=game_id)


def oracle_base(base_url: str) -> str:
    """The server root for /oracle/labels/{GameId}: the protocol base without its trailing /prod/."""
    trimmed = base_url.rstrip("/")
    return trimmed[: -len("/prod")] if trimmed.endswith("/prod") else trimmed
