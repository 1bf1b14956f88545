"""What plays a match: a user's editor file, or one of our strategies with a recognizer.

Both give the runner a fresh guarded mover per match, built from the match's first gamestate (the
oracle recognizer needs the match's GameId): a user's file runs in its own process (one per match,
started ahead by `warm()`), our strategies in a thread of this one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.players.deadline import BotOutcome, Budget, GuardedBot
from bot.players.labelling import chosen_recognizer, refuse_blind, refuse_without_oracle
from bot.players.prefetch import PrefetchingBot, is_paid
from bot.players.user_bot import UserBotFile, start_checked
from bot.players.user_bot_process import UserBotProcess
from strategies.agent import ArenaAgent

if TYPE_CHECKING:
    from bot.players.view_labels import RecordLabels


class Mover(Protocol):
    """One match's bot: a checked move within the budget, or why there is none."""

    def run(self, gamestate: dict[str, Any], budget: Budget) -> BotOutcome: ...

    def close(self) -> None: ...

    def labels(self) -> dict[int, str]:
        """The landmarks the bot's recognizer gave the cards it last saw (empty for a bot file)."""
        ...

    def cards_unknown(self) -> tuple[int, int]:
        """(cards left unknown, cards seen) by the bot's recognizer this match; (0, 0) for a bot file."""
        ...

    def unknown_reasons(self) -> dict[str, int]:
        """Why the bot's recognizer left those cards unknown: each reason with its count (empty for a bot file)."""
        ...

    def label_view(self, gamestate: dict[str, Any], record: RecordLabels | None) -> None:
        """On a gamestate the bot does not move on: label the cards in view and hand the landmarks to
        `record` (for the replay file); a paid recognizer's bot also labels ahead of its turn without one."""
        ...


class MatchBot(Protocol):
    @property
    def label(self) -> str:
        """For records and output: "strategy:<name>" or "file:<path>"."""
        ...

    @property
    def recognizer(self) -> str | None: ...

    def warm(self) -> None:
        """Get the next match's bot ready (called while an offer waits for an opponent)."""
        ...

    def new_match(self, gamestate: dict[str, Any]) -> Mover: ...

    def end_match(self, mover: Mover) -> None: ...

    def close(self) -> None:
        """Stop anything `warm()` started and no match used."""
        ...


class FileBot:
    """A user's bot file; each match gets a fresh process, started (and loading the file) by `warm()`."""

    recognizer: str | None = None

    def __init__(self, bot_file: UserBotFile, spare: UserBotProcess | None = None) -> None:
        self.bot_file = bot_file
        self._spare = spare

    @property
    def label(self) -> str:
        return f"file:{self.bot_file.path}"

    def warm(self) -> None:
        if self._spare is None:
            self._spare = UserBotProcess(self.bot_file.path)

    def new_match(self, gamestate: dict[str, Any]) -> Mover:
        self.warm()
        process, self._spare = self._spare, None
        assert process is not None
        return process

    def end_match(self, mover: Mover) -> None:
        mover.close()

    def close(self) -> None:
        if self._spare is not None:
            self._spare.close()
            self._spare = None


RecognizerFactory = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class StrategyBot:
    strategy: str
    recognizer: str | None
    make_recognizer: RecognizerFactory
    nodes: int | None = None  # a node budget per move for search strategies (None: their time budget)

    @property
    def label(self) -> str:
        return f"strategy:{self.strategy}"

    def warm(self) -> None:
        pass

    def new_match(self, gamestate: dict[str, Any]) -> Mover:
        # strategies.registry loads numpy and the kernel's tables (~0.3 s), which a bot file plays without
        from strategies.registry import get_strategy

        options = {} if self.nodes is None else {"nodes": self.nodes}
        agent = ArenaAgent(get_strategy(self.strategy, **options), self.make_recognizer(gamestate))
        on_close = getattr(agent.recognizer, "close", None)
        if self.recognizer is not None and is_paid(self.recognizer):
            return PrefetchingBot(agent.calculate_move, agent.recognizer, on_close=on_close)
        return GuardedBot(agent.calculate_move, on_close=on_close)

    def end_match(self, mover: Mover) -> None:
        mover.close()

    def close(self) -> None:
        pass


def file_bot(path: str | Path) -> FileBot:
    """Check the file by loading it in a bot process, which then plays the first match."""
    bot_file = UserBotFile(Path(path).expanduser().resolve())
    return FileBot(bot_file, spare=start_checked(bot_file.path))


def strategy_bot(strategy: str, recognizer: str | None, *, base_url: str, nodes: int | None = None) -> StrategyBot:
    """Check the names now (a typo fails before any game) and build a fresh recognizer per match."""
    # strategies.registry loads numpy and the kernel's tables (~0.3 s), which a bot file plays without
    from strategies.registry import get_strategy, takes_option

    get_strategy(strategy)  # raises ValueError naming the known strategies
    if nodes is not None and not takes_option(strategy, "nodes"):
        raise ValueError(f"--nodes is a search budget; strategy {strategy!r} does not search")

    spec = chosen_recognizer(strategy, recognizer, base_url)
    # Raises for an unknown name, missing settings, or one that cannot label live cards for this strategy.
    probe = recognizer_for_match(spec, base_url, game_id=None)
    refuse_blind(strategy, spec, probe)
    refuse_without_oracle(strategy, spec, probe)  # a referee started without --oracle: blind, like the stub

    def make_recognizer(gamestate: dict[str, Any]) -> Any:
        return recognizer_for_match(spec, base_url, gamestate.get("GameId"))

    return StrategyBot(strategy, spec, make_recognizer, nodes)


def recognizer_for_match(spec: str, base_url: str, game_id: int | None) -> Any:
    """A recognizer from recognizers.registry. `oracle` (also inside `noisy:P`) reads the true labels from
    the local server started with --oracle, at <server root>/oracle/labels/<GameId>; others ignore both."""
    from recognizers.registry import get_recognizer  # recognizers.registry (~0.06 s): only a strategy bot labels cards

    return get_recognizer(spec, base_url=oracle_base(base_url), game_id=game_id)


def oracle_base(base_url: str) -> str:
    """The server root for /oracle/labels/{GameId}: the protocol base without its trailing /prod/."""
    trimmed = base_url.rstrip("/")
    return trimmed[: -len("/prod")] if trimmed.endswith("/prod") else trimmed
