"""Bot-vs-bot rounds played in process, straight through the referee's engine.

A contender is a strategy name or character preset (our strategies, labelling cards through a
recognizer over the match's true labels: `oracle`, or `noisy:P` to add recognition errors) or a
user's arena editor file. Each round is a one-round match with a fresh bot, as on the arena.
A bot that raises or answers a malformed move is not allowed to spoil the round: the move is
replaced by a safe legal one (as the bot client does online) and counted as a fault.

A user's file runs in its own process (bot/players/user_bot_process.py), loaded before the round's first
move and held to the move time: a move that comes late is a fault too, and the round goes on.
Our strategies run in this process, unguarded, so that the same seeds give the same rounds.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.players.deadline import Budget, as_sent, check_move, safe_moves
from bot.players.faults import Fault, fault_from_exception, fault_from_problem, source_file
from bot.players.labelling import chosen_recognizer, refuse_blind, split_player
from bot.players.user_bot import load_user_bot
from bot.players.user_bot_process import BotProcessError, UserBotProcess
from recognizers.registry import get_recognizer
from rummy import DEFAULT_RULES, MalformedMove, Match, RulesConfig, render_gamestate
from rummy.belief import error_model_of
from strategies.agent import ArenaAgent
from strategies.provenance import strategy_source
from strategies.registry import get_strategy, needs_labels, takes_option

CalculateMove = Callable[[dict[str, Any]], Any]
LabelSource = Callable[[], Mapping[str, str]]
LOAD_ALLOWANCE_S = 30.0  # how long a bot file may take to load before the round's first move
DEFAULT_MOVE_TIME_MS = 1000  # a bot file's move time when the round sets none


@dataclass
class Agent:
    """One round's bot: its calculate_move, and where it keeps its last suggestions (ours only)."""

    calculate_move: CalculateMove | None
    source: Any = None  # the ArenaAgent behind calculate_move, for our strategies
    process: UserBotProcess | None = None  # a user's file, run in its own process instead

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    def cards_unknown(self) -> tuple[int, int]:
        """(cards left unknown, cards seen) by our strategy's recognizer; (0, 0) for a bot file."""
        counted = getattr(self.source, "cards_unknown", None)
        return counted() if callable(counted) else (0, 0)

    def unknown_reasons(self) -> dict[str, int]:
        """Why those cards were left unknown, each reason with its count of cards."""
        said = getattr(self.source, "unknown_reasons", None)
        return dict(said()) if callable(said) else {}

    def contradictions(self) -> tuple[int, str]:
        """(moves decided on a belief whose evidence contradicted itself, the first note); (0, "") for a bot file."""
        return getattr(self.source, "contradicted", 0), getattr(self.source, "contradiction", "")

    @property
    def last_suggestions(self) -> list[dict[str, Any]]:
        return list(getattr(self.source, "last_suggestions", []))


@dataclass(frozen=True)
class Contender:
    """Who plays: `spec` as the user typed it (strategy, preset or path to a .py file)."""

    spec: str
    recognizer: str = "oracle"
    strategy_options: Mapping[str, Any] = field(default_factory=dict)
    shown: str = ""  # the name as the user typed it, when it says more than spec (PLAYER@RECOGNIZER)
    # Measuring only (`measure noise-cost --reveal`): "own" or "opp", the hand whose true landmarks it is told.
    reveal: str = ""

    @property
    def name(self) -> str:
        if self.shown:
            return self.shown
        return Path(self.spec).stem if self.is_file else self.spec

    @property
    def is_file(self) -> bool:
        return self.spec.endswith(".py") or Path(self.spec).is_file()

    def check(self) -> None:
        """Fail before any game on a typo: an unknown strategy, a missing or broken bot file, a bad recognizer."""
        if self.is_file:
            load_user_bot(self.spec)
            return

        get_strategy(self.spec, **self.strategy_options)
        refuse_blind(self.spec, self.recognizer, get_recognizer(self.recognizer, source=dict))

    def source(self) -> dict[str, Any]:
        """What plays for this contender: the bot file, or the strategy's objective, budget, table and
        weights with the recognizer that labels its cards (strategies.provenance)."""
        if self.is_file:
            return {"bot_file": str(Path(self.spec).expanduser().resolve())}

        source = {**strategy_source(get_strategy(self.spec, **self.strategy_options)), "recognizer": self.recognizer}
        # A recognizer that needs keys was checked before play; without them its model is the assumed one.
        with contextlib.suppress(ValueError, OSError):
            if needs_labels(self.spec):  # a picture-blind strategy reads no belief
                source["error_model"] = error_model_of(get_recognizer(self.recognizer, source=dict)).source
        return source

    def new_bot(self, labels: LabelSource, noise_seed: int) -> Agent:
        if self.is_file:
            process = UserBotProcess(Path(self.spec).expanduser().resolve())
            # Import-time code runs before the first move's clock; if loading fails, each move says why.
            with contextlib.suppress(BotProcessError):
                process.wait_loaded(LOAD_ALLOWANCE_S)
            return Agent(None, process=process)

        recognizer = get_recognizer(self.recognizer, source=labels, noise_seed=noise_seed)
        options = dict(self.strategy_options)
        if "seed" not in options and takes_option(self.spec, "seed"):
            # Seeded from the deal, so a round replays the same whichever process or backend plays it.
            options["seed"] = noise_seed
        agent = ArenaAgent(get_strategy(self.spec, **options), recognizer)
        if self.reveal:
            agent.reveal = _revealer(labels, self.reveal)
        return Agent(agent.calculate_move, agent)


REVEALED_HANDS = {"own": "MyHand", "opp": "OppHand"}


def _revealer(labels: LabelSource, hand: str) -> Callable[[Mapping[str, Any]], Mapping[int, str]]:
    """The true landmark of each card in one hand of a gamestate (`hand`: "own" or "opp"), from the referee's."""
    key = REVEALED_HANDS[hand]

    def reveal(gamestate: Mapping[str, Any]) -> Mapping[int, str]:
        truth = labels()
        return {card_id: truth[url] for card_id, url in gamestate[key] if url in truth}

    return reveal


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    move: dict[str, Any]
    think_ms: float
    fault: str  # "" for the bot's own move, else why a safe move replaced it
    points: int
    wasted: bool
    suggestions: tuple[dict[str, Any], ...] = ()  # the bot's best moves with values, when it has them
    fault_detail: Fault | None = None  # the fault with its key and traceback, when `fault` is set
    # --strict: a move the arena would answer INVALID_MOVE is recorded unplayed (`move` is what the bot sent)
    result: str = "SUCCESS"
    log: str = ""  # what a bot file printed while choosing this move (bounded; the arena's editor shows it)


@dataclass(frozen=True)
class RoundResult:
    deal_seed: str
    players: tuple[str, str]  # the contenders' names by seat
    first_mover: int
    points: tuple[int, int]  # final round scores by seat, hand penalty included
    winner: int  # seat
    moves: tuple[MoveRecord, ...]
    kinds: tuple[str, ...]
    started_at: float = 0.0  # epoch seconds when the round began (not part of `replayable`)
    game_id: int | None = None  # the server's GameId, for a round played over a server
    unknown_cards: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))  # (unknown, seen) by seat
    # Why they were unknown, by seat: (reason, cards) pairs.
    unknown_reasons: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    lost_on_time: int | None = None  # --strict: the seat that sent no valid move by its deadline (it lost)
    # By seat: moves decided on a belief whose evidence contradicted itself, and the first note (strategies.agent).
    contradicted: tuple[tuple[int, str], tuple[int, str]] = ((0, ""), (0, ""))

    def replayable(self) -> tuple[object, ...]:
        """Everything but the timings: equal for the same deal and bots, whichever process played it."""
        moves = tuple((move.seat, repr(move.move), move.fault) for move in self.moves)
        return (self.deal_seed, self.players, self.first_mover, self.points, self.winner, moves)

    def margin(self, seat: int) -> int:
        return self.points[seat] - self.points[1 - seat]

    def think_ms(self, seat: int) -> list[float]:
        return [move.think_ms for move in self.moves if move.seat == seat]

    def played_ms(self, seat: int) -> list[float]:
        """How long the seat's own moves took: its faults left out, as the late moves leave them."""
        return [move.think_ms for move in self.moves if move.seat == seat and not move.fault]

    def late_moves(self, seat: int, move_time_ms: int | None) -> int:
        """The seat's own moves (not faults) that took longer than `move_time_ms` (0 without one)."""
        if not move_time_ms:
            return 0
        return sum(1 for ms in self.played_ms(seat) if ms > move_time_ms)

    def faults(self, seat: int) -> int:
        """The seat's moves the arena would not have played: replaced by a safe one, or (--strict) refused."""
        return sum(1 for move in self.moves if move.seat == seat and move.fault)

    def fault_details(self, seat: int) -> list[Fault]:
        return [
            move.fault_detail or fault_from_problem(move.fault)
            for move in self.moves
            if move.seat == seat and move.fault
        ]


def play_round(
    deal_seed: str,
    seats: tuple[Contender, Contender],
    *,
    rules: RulesConfig = DEFAULT_RULES,
    move_time_ms: int | None = None,
    game_id: int = 0,
    strict: bool = False,
) -> RoundResult:
    """One round on the deal `deal_seed`, `seats[0]` as player 0; the same seed always deals the same cards.

    With `strict`, a faulty move gets what the arena gives it instead of a safe replacement (see `_play`)."""
    started_at = time.time()
    match = Match(seed=deal_seed, rules=rules)
    noise_base = random.Random(f"noise:{deal_seed}").getrandbits(32)
    bots: list[Agent] = []
    with contextlib.ExitStack() as stack:
        prefixes = ("", "")
        if any(contender.is_file for contender in seats):
            # card_host loads fastapi, uvicorn and the card renderer (~0.5 s): only when a bot file plays
            from bot.matches.card_host import card_host

            deal = match.current.deal
            base = stack.enter_context(card_host().showing([*deal.hands[0], *deal.hands[1], *deal.deck]))
            # A user's file gets absolute, fetchable URLs as over a server; ours label by the match's paths.
            prefixes = (base if seats[0].is_file else "", base if seats[1].is_file else "")
        try:
            for seat, contender in enumerate(seats):
                bots.append(contender.new_bot(lambda: match.current.landmarks_by_url(), noise_base + seat))
            return _play(match, deal_seed, seats, bots, move_time_ms, game_id, started_at, prefixes, strict=strict)
        finally:
            for bot in bots:
                bot.close()


def _play(
    match: Match,
    deal_seed: str,
    seats: tuple[Contender, Contender],
    bots: list[Agent],
    move_time_ms: int | None,
    game_id: int,
    started_at: float,
    url_prefixes: tuple[str, str] = ("", ""),
    *,
    strict: bool = False,
) -> RoundResult:
    """Play the round out. A faulty move (raised, malformed, illegal, late) is replaced by a safe one, or with
    `strict` is what the arena makes of it: a move that was sent is answered INVALID_MOVE (recorded unplayed)
    and the bot is asked again, until the move time is spent (at most STRICT_TRIES asks); then the mover has
    missed its deadline and loses the match (LOST_BY_TIMEOUT), as online."""
    fallback_rng = random.Random(f"fallback:{deal_seed}")
    first_mover = match.current.mover
    kinds = match.current.deal.kinds
    records: list[MoveRecord] = []
    while not match.over:
        seat = match.current.mover
        deadline_ms = int(time.time() * 1000) + move_time_ms if move_time_ms else 0
        view = render_gamestate(
            match,
            seat,
            game_id=game_id,
            opponent_id=seats[1 - seat].name,
            response_deadline_ms=deadline_ms,
            url_prefix=url_prefixes[seat],
        )
        started = time.perf_counter()
        turn_ends = started + (move_time_ms or DEFAULT_MOVE_TIME_MS) / 1000
        tries = 0
        while True:
            tries += 1
            detail, move, sent, log = _ask(bots[seat], view, move_time_ms, fallback_rng)
            if not strict or detail is None:
                break
            records.append(_refused(seat, sent, detail, started, log))
            if sent is None or tries >= STRICT_TRIES or time.perf_counter() >= turn_ends:
                match.forfeit(seat)
                return _result(match, deal_seed, seats, bots, first_mover, kinds, records, started_at, seat)
        think_ms = (time.perf_counter() - started) * 1000
        outcome = match.apply(seat, move)
        fault = detail.summary if detail is not None else ""
        suggestions = () if fault else tuple(bots[seat].last_suggestions)
        records.append(
            MoveRecord(
                seat, move.to_json(), think_ms, fault, outcome.points, outcome.wasted, suggestions, detail, log=log
            )
        )
    return _result(match, deal_seed, seats, bots, first_mover, kinds, records, started_at, None)


def _refused(seat: int, sent: Any, detail: Any, started: float, log: Any) -> MoveRecord:
    """The arena's answer to a faulty move (--strict): INVALID_MOVE for one that was sent, nothing for none."""
    think_ms = (time.perf_counter() - started) * 1000
    shown = as_sent(sent)
    refused = shown if isinstance(shown, dict) else {"NoMove": None} if sent is None else {"Raw": shown}
    why = f"INVALID_MOVE (--strict): {detail.summary}" if sent is not None else f"no move: {detail.summary}"
    return MoveRecord(seat, refused, think_ms, why, 0, False, (), detail, "INVALID_MOVE" if sent else "NO_MOVE", log)


STRICT_TRIES = 20  # --strict: asks of a bot that keeps answering faulty moves, within its move time


def _ask(
    bot: Agent, view: dict[str, Any], move_time_ms: int | None, fallback_rng: random.Random
) -> tuple[Fault | None, Any, Any, str]:
    """(fault or None, the move to play, what the bot sent when faulty: its raw answer, None if it sent none,
    and what a bot file printed meanwhile)."""
    process, calculate_move = bot.process, bot.calculate_move
    if process is not None:
        guarded = process.run(view, _budget(move_time_ms or DEFAULT_MOVE_TIME_MS))
        if guarded.move is None:
            fault = guarded.fault or fault_from_problem(guarded.problem)
            return fault, safe_moves(view, fallback_rng)[0], guarded.raw, guarded.log
        return None, guarded.move, None, guarded.log
    assert calculate_move is not None
    raw: Any = None
    try:
        raw = calculate_move(view)
        return None, check_move(raw, view), None, ""
    except MalformedMove as error:
        return fault_from_problem(f"malformed move: {error}"), safe_moves(view, fallback_rng)[0], raw, ""
    except Exception as error:  # noqa: BLE001 - a bot may raise anything; the round goes on
        return (
            fault_from_exception(error, user_file=source_file(calculate_move)),
            safe_moves(view, fallback_rng)[0],
            None,
            "",
        )


def _result(
    match: Match,
    deal_seed: str,
    seats: tuple[Contender, Contender],
    bots: list[Agent],
    first_mover: int,
    kinds: tuple[str, ...],
    records: list[MoveRecord],
    started_at: float,
    lost_on_time: int | None,
) -> RoundResult:
    if lost_on_time is None:
        finished = match.finished_rounds[-1]
        points, winner = (finished.points[0], finished.points[1]), finished.winner()
    else:  # the round stops where the mover missed its deadline; its opponent wins the match
        points, winner = (match.current.points[0], match.current.points[1]), 1 - lost_on_time
    return RoundResult(
        deal_seed=deal_seed,
        players=(seats[0].name, seats[1].name),
        first_mover=first_mover,
        points=points,
        winner=winner,
        moves=tuple(records),
        kinds=kinds,
        started_at=started_at,
        unknown_cards=(bots[0].cards_unknown(), bots[1].cards_unknown()),
        unknown_reasons=(tuple(bots[0].unknown_reasons().items()), tuple(bots[1].unknown_reasons().items())),
        lost_on_time=lost_on_time,
        contradicted=(bots[0].contradictions(), bots[1].contradictions()),
    )


# The --help text of --nodes, shared by match and tournament.
NODES_HELP = (
    "Node budget per move for the search strategies (expectimax, heuristic, exact and the characters), "
    "instead of the clock. Replaces --time-ms: no move deadline is set."
)


def make_contender(spec: str, recognizer: str = "oracle", nodes: int | None = None, shown: str = "") -> Contender:
    """A contender; with `nodes`, search strategies get that node budget and the others are unchanged."""
    if nodes is not None and not spec.endswith(".py") and takes_option(spec, "nodes"):
        return Contender(spec, recognizer, {"nodes": nodes}, shown)
    return Contender(spec, recognizer, shown=shown)


def contender_for(
    typed: str, recognizer: str | None, nodes: int | None = None, base_url: str | None = None
) -> Contender:
    """The contender a command-line player names: NAME, NAME@RECOGNIZER or a bot file; `recognizer` (the
    command's --recognizer, None: the default where the match is played) serves players without `@`."""
    player, own = split_player(typed)
    chosen = chosen_recognizer(player, own if own is not None else recognizer, base_url)
    return make_contender(player, chosen, nodes, typed if own is not None else "")


def _budget(move_time_ms: int) -> Budget:
    now = time.monotonic()
    return Budget(send_by=now + move_time_ms / 1000, received=now, deadline=now + move_time_ms / 1000, margin_s=0.0)


def deal_seeds(seed: int | str, deals: int) -> list[str]:
    return [f"{seed}:{index}" for index in range(deals)]


def schedule(a: Contender, b: Contender, rounds: int, seed: int | str, duplicate: bool) -> list[tuple[str, int]]:
    """(deal seed, seat of `a`) for each round; duplicate deals are played twice with the seats swapped."""
    if duplicate:
        pairs = (rounds + 1) // 2
        return [(deal, seat) for deal in deal_seeds(seed, pairs) for seat in (0, 1)]
    rng = random.Random(f"seats:{seed}")
    return [(deal, rng.randrange(2)) for deal in deal_seeds(seed, rounds)]
