"""Bot-vs-bot rounds played in process, straight through the referee's engine.

A contender is a strategy name or character preset (our strategies, labelling cards through a
recognizer over the match's true labels: `oracle`, or `noisy:P` to add recognition errors) or a
user's arena editor file. Each round is a one-round match with a fresh bot, as on the arena.
A bot that raises or answers a malformed move is not allowed to spoil the round: the move is
replaced by a safe legal one (as the bot client does online) and counted as a fault.
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client.deadline import check_move, safe_moves
from rummy import DEFAULT_RULES, MalformedMove, Match, RulesConfig, render_gamestate

CalculateMove = Callable[[dict[str, Any]], Any]
LabelSource = Callable[[], Mapping[str, str]]


@dataclass
class Agent:
    """One round's bot: its calculate_move, and where it keeps its last suggestions (ours only)."""

    calculate_move: CalculateMove
    source: Any = None  # the ArenaAgent behind calculate_move, for our strategies

    @property
    def last_suggestions(self) -> list[dict[str, Any]]:
        return list(getattr(self.source, "last_suggestions", []))


@dataclass(frozen=True)
class Contender:
    """Who plays: `spec` as the user typed it (strategy, preset or path to a .py file)."""

    spec: str
    recognizer: str = "oracle"
    strategy_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return Path(self.spec).stem if self.is_file else self.spec

    @property
    def is_file(self) -> bool:
        return self.spec.endswith(".py") or Path(self.spec).is_file()

    def check(self) -> None:
        """Fail before any game on a typo: an unknown strategy, a missing or broken bot file, a bad recognizer."""
        if self.is_file:
            from bot.players.user_bot import load_user_bot

            load_user_bot(self.spec)
            return
        from recognizers.registry import get_recognizer
        from strategies.registry import get_strategy

        get_strategy(self.spec, **self.strategy_options)
        get_recognizer(self.recognizer, source=dict)

    def new_bot(self, labels: LabelSource, noise_seed: int) -> Agent:
        if self.is_file:
            from bot.players.user_bot import load_user_bot

            return Agent(load_user_bot(self.spec).new_match())
        from recognizers.registry import get_recognizer
        from strategies.agent import ArenaAgent
        from strategies.registry import get_strategy

        recognizer = get_recognizer(self.recognizer, source=labels, noise_seed=noise_seed)
        options = dict(self.strategy_options)
        if "seed" not in options and _takes_seed(self.spec):
            # Seeded from the deal, so a round replays the same whichever process or backend plays it.
            options["seed"] = noise_seed
        agent = ArenaAgent(get_strategy(self.spec, **options), recognizer)
        return Agent(agent.calculate_move, agent)


def _takes_seed(strategy: str) -> bool:
    from strategies.registry import STRATEGIES

    factory = STRATEGIES.get(strategy)
    if factory is None:
        return False
    try:
        return "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    move: dict[str, Any]
    think_ms: float
    fault: str  # "" for the bot's own move, else why a safe move replaced it
    points: int
    wasted: bool
    suggestions: tuple[dict[str, Any], ...] = ()  # the bot's best moves with values, when it has them


@dataclass(frozen=True)
class RoundResult:
    deal_seed: str
    players: tuple[str, str]  # the contenders' names by seat
    first_mover: int
    points: tuple[int, int]  # final round scores by seat, hand penalty included
    winner: int  # seat
    moves: tuple[MoveRecord, ...]
    kinds: tuple[str, ...]

    def replayable(self) -> tuple[object, ...]:
        """Everything but the timings: equal for the same deal and bots, whichever process played it."""
        moves = tuple((move.seat, repr(move.move), move.fault) for move in self.moves)
        return (self.deal_seed, self.players, self.first_mover, self.points, self.winner, moves)

    def margin(self, seat: int) -> int:
        return self.points[seat] - self.points[1 - seat]

    def think_ms(self, seat: int) -> list[float]:
        return [move.think_ms for move in self.moves if move.seat == seat]

    def faults(self, seat: int) -> int:
        return sum(1 for move in self.moves if move.seat == seat and move.fault)


def play_round(
    deal_seed: str,
    seats: tuple[Contender, Contender],
    *,
    rules: RulesConfig = DEFAULT_RULES,
    move_time_ms: int | None = None,
    game_id: int = 0,
) -> RoundResult:
    """One round on the deal `deal_seed`, `seats[0]` as player 0; the same seed always deals the same cards."""
    match = Match(seed=deal_seed, rules=rules)

    def true_labels() -> dict[str, str]:
        return {card.url: card.kind for hand in match.current.hands for card in hand}

    noise_base = random.Random(f"noise:{deal_seed}").getrandbits(32)
    bots = [contender.new_bot(true_labels, noise_base + seat) for seat, contender in enumerate(seats)]
    fallback_rng = random.Random(f"fallback:{deal_seed}")
    first_mover = match.current.mover
    kinds = match.current.deal.kinds
    records: list[MoveRecord] = []
    while not match.over:
        seat = match.current.mover
        deadline_ms = int(time.time() * 1000) + move_time_ms if move_time_ms else 0
        view = render_gamestate(
            match, seat, game_id=game_id, opponent_id=seats[1 - seat].name, response_deadline_ms=deadline_ms
        )
        started = time.perf_counter()
        fault = ""
        try:
            move = check_move(bots[seat].calculate_move(view), view)
        except MalformedMove as error:
            fault, move = f"malformed move: {error}", safe_moves(view, fallback_rng)[0]
        except Exception as error:  # noqa: BLE001 - a user's bot may raise anything; the round goes on
            fault, move = f"bot raised {type(error).__name__}: {error}", safe_moves(view, fallback_rng)[0]
        think_ms = (time.perf_counter() - started) * 1000
        outcome = match.apply(seat, move)
        suggestions = () if fault else tuple(bots[seat].last_suggestions)
        records.append(MoveRecord(seat, move.to_json(), think_ms, fault, outcome.points, outcome.wasted, suggestions))
    finished = match.finished_rounds[-1]
    return RoundResult(
        deal_seed=deal_seed,
        players=(seats[0].name, seats[1].name),
        first_mover=first_mover,
        points=(finished.points[0], finished.points[1]),
        winner=finished.winner(),
        moves=tuple(records),
        kinds=kinds,
    )


def deal_seeds(seed: int | str, deals: int) -> list[str]:
    return [f"{seed}:{index}" for index in range(deals)]


def schedule(a: Contender, b: Contender, rounds: int, seed: int | str, duplicate: bool) -> list[tuple[str, int]]:
    """(deal seed, seat of `a`) for each round; duplicate deals are played twice with the seats swapped."""
    if duplicate:
        pairs = (rounds + 1) // 2
        return [(deal, seat) for deal in deal_seeds(seed, pairs) for seat in (0, 1)]
    rng = random.Random(f"seats:{seed}")
    return [(deal, rng.randrange(2)) for deal in deal_seeds(seed, rounds)]
