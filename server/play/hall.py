"""People's seats: each game a person plays is a seat in the referee like any bot's.

A person plays under a bot account of the user `people` (created on first use; its password is
new for every server process and never leaves it). A `PlaySession` offers the game with
`Referee.offer_game`, sends moves with `Referee.make_move` and polls with `Referee.poll`, exactly
the calls behind GM-OfferGame, GM-MakeMove and GM-PollForGameState, so the same deadlines apply
and the match is recorded like any other. A person who leaves loses when the deadline passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from rummy import DEFAULT_RULES
from rummy.cards import token_of
from server.accounts import Accounts
from server.house_agents import HOUSE_BOTS
from server.logins import network_of
from server.play.ledger import Ledger, PlayedMove
from server.protocol import MakeMoveRequest, OfferGameRequest, PollRequest, Result
from server.referee import Referee, Refusal
from server.review_cache import graded
from server.storage.records import Records
from server.styles import NO_LIMIT_MS, GameStyle
from server.worker_pools import BUSY_TIME_MS, coach_busy, in_coach_pool
from strategies.coaching.coach import Advice, CoachConfig, advise
from strategies.coaching.game_review import ReviewError, review_record, seat_review
from strategies.coaching.grading import default_grader
from strategies.coaching.selection import HandCard, Verdict, check_selection
from strategies.position import Position, parse_position
from strategies.registry import get_strategy

log = logging.getLogger(__name__)

PEOPLE_USER = "people"
DEFAULT_NAME = "human"
# These passwords are random, 144 bits, and never leave the server: a cheap hash is enough.
PEOPLE_HASH_ITERATIONS = 10_000
POLL_MS = 5000
MAX_RUNNING = 64  # games in play at once; each holds a seat and a task
MAX_RUNNING_PER_NETWORK = 8  # of those, started from one address's network (server.logins.network_of)
KEEP_FINISHED_S = 1800.0
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,23}$")


class PlayError(ValueError):
    """A request the play routes refuse; the message says why (answered with HTTP 400)."""


@dataclass(eq=False)
class PlaySession:
    token: str
    name: str
    password: str
    opponent: str
    style: GameStyle
    coach: CoachConfig
    base_url: str
    owner: str = ""  # the secret of the browser that started it (a cookie): only that browser may drive it
    network: str = ""  # where it was started from, for the per-network cap
    player_key: str = ""
    game_id: int = 0
    seat: int = 0
    gamestate: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    advice: dict[tuple[int, int], asyncio.Future[tuple[Position, Advice | None]]] = field(default_factory=dict)
    sources: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)  # positions as analysis JSON
    decisions: list[tuple[int, int, int, tuple[int, int], dict[str, Any]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None
    played_cache: tuple[int, list[PlayedMove], list[dict[str, Any]]] | None = None

    @property
    def running(self) -> bool:
        return self.gamestate.get("GameStatus") == "RUNNING"

    @property
    def round_index(self) -> int:
        if not self.running:
            return self.style.rounds - 1
        return self.style.rounds - int(self.gamestate["RemainingRounds"])

    def position_key(self) -> tuple[int, int]:
        return (self.round_index, int(self.gamestate.get("RemainingMoves", 0)))


class PlayHall:
    def __init__(self, referee: Referee, records: Records, accounts: Accounts) -> None:
        self.referee = referee
        self.records = records
        self.accounts = accounts
        self.sessions: dict[str, PlaySession] = {}
        self._passwords: dict[str, str] = {}

    # --- starting -----------------------------------------------------------------------------

    def _password(self, name: str) -> str:
        known = self._passwords.get(name)
        if known is not None:
            return known
        bot = self.accounts.get(name)
        if bot is None:
            password = self.accounts.add_bot(name, user=PEOPLE_USER, iterations=PEOPLE_HASH_ITERATIONS)
        elif bot.user != PEOPLE_USER:
            raise PlayError(f"{name!r} is a registered bot's name; choose another name to play under")
        else:
            password = self.accounts.new_password(name, iterations=PEOPLE_HASH_ITERATIONS)
        self._passwords[name] = password
        return password

    async def start(
        self,
        *,
        opponent: str,
        style_id: int,
        coach: CoachConfig,
        base_url: str,
        name: str | None = None,
        owner: str = "",
        address: str = "",
    ) -> PlaySession:
        name = (name or DEFAULT_NAME).strip()
        if not NAME_PATTERN.match(name) or name.startswith("housebot-"):
            raise PlayError("a name is 1 to 24 letters, digits, spaces, dots, dashes or underscores")
        if opponent not in HOUSE_BOTS:
            raise PlayError(f"unknown opponent {opponent!r}; choose one of {', '.join(HOUSE_BOTS)}")
        if opponent in self.referee.house.withdrawn:
            raise PlayError(f"{opponent} is withdrawn: {self.referee.house.withdrawn[opponent]}")
        try:
            HOUSE_BOTS[opponent]()
            get_strategy(coach.strategy)
        except Exception as error:  # e.g. `perfect` without its table: say so before the match starts
            raise PlayError(f"cannot play that way here: {error}") from None
        style = self.referee.styles.get(style_id)
        if style is None:
            raise PlayError(f"no game style {style_id}; choose one of {', '.join(map(str, self.referee.styles))}")
        if sum(1 for session in self.sessions.values() if session.running) >= MAX_RUNNING:
            raise PlayError(f"{MAX_RUNNING} games are in play already; finish one first")
        network = network_of(address)
        if sum(1 for s in self.sessions.values() if s.running and s.network == network) >= MAX_RUNNING_PER_NETWORK:
            raise PlayError(f"{MAX_RUNNING_PER_NETWORK} games from your address are in play already; finish one first")
        password = self._password(name)
        session = PlaySession(
            secrets.token_urlsafe(18), name, password, opponent, style, coach, base_url, owner=owner, network=network
        )
        answer = await self._call(
            self.referee.offer_game,
            OfferGameRequest(
                BotId=name,
                BotPassword=password,
                MaximumWaitTime=0,
                GameStyleId=style_id,
                OpponentId=opponent,
            ),
            base_url,
        )
        if "GameState" not in answer:
            raise PlayError(answer.get("ErrorMessage") or f"the referee answered {answer['Result']}")
        session.player_key = answer["PlayerKey"]
        session.gamestate = answer["GameState"]
        session.game_id = int(session.gamestate["GameId"])
        summary = self.records.match_summary(session.game_id)
        session.seat = summary["Players"].index(name) if summary is not None else 0
        self.sessions[session.token] = session
        self._consider(session)
        session.runner = asyncio.get_running_loop().create_task(self._run(session))
        return session

    def get(self, token: str, owner: str | None = None) -> PlaySession:
        """The session `token`; with `owner`, only if that browser started it (KeyError otherwise)."""
        session = self.sessions.get(token)
        if session is None or (owner is not None and not hmac.compare_digest(session.owner, owner)):
            raise KeyError(token)
        return session

    def shows_card(self, owner: str, token: str) -> bool:
        """True when a game this browser plays shows the card `token` (its hands or laid cards) right now."""
        for session in self.sessions.values():
            if owner and hmac.compare_digest(session.owner, owner) and token in card_tokens(session.gamestate):
                return True
        return False

    async def close(self) -> None:
        for session in self.sessions.values():
            if session.runner is not None:
                session.runner.cancel()
            for future in session.advice.values():
                future.cancel()

    # --- the seat's protocol client -----------------------------------------------------------

    async def _call(self, handler: Any, request: Any, base_url: str) -> dict[str, Any]:
        """One referee call as a bot makes it; a refusal is an answer, and a busy seat is retried."""
        for _attempt in range(250):
            try:
                result: dict[str, Any] = await handler(request, base_url)
                return result
            except Refusal as refusal:
                if refusal.answer["Result"] != Result.CALL_ALREADY_IN_PROCESS:
                    return refusal.answer
                await asyncio.sleep(0.02)
        raise PlayError("the referee stayed busy with this seat")

    async def _run(self, session: PlaySession) -> None:
        """Poll while the opponent thinks; wait for the person's move (or its deadline) on their turn."""
        stopping = self.referee.matches.shutdown
        try:
            # Once the server stops, polls answer at once without news: looping on would spin forever.
            while session.running and not stopping.is_set():
                if session.gamestate.get("IsMover"):
                    left_s = session.gamestate["ResponseDeadline"] / 1000 - self.referee.settings.clock()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(session.moved.wait(), timeout=max(0.05, left_s + 0.2))
                    session.moved.clear()
                    if session.gamestate.get("IsMover") and session.running:
                        await self._poll(session, 0)  # the deadline has passed: learn how it ended
                    continue
                await self._poll(session, POLL_MS)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("play session of game %d failed", session.game_id)
        finally:
            asyncio.get_running_loop().call_later(KEEP_FINISHED_S, self.sessions.pop, session.token, None)

    async def _poll(self, session: PlaySession, wait_ms: int) -> None:
        answer = await self._call(
            self.referee.poll,
            PollRequest(
                BotId=session.name, BotPassword=session.password, MaximumWaitTime=wait_ms, PlayerKey=session.player_key
            ),
            session.base_url,
        )
        if "GameState" in answer:
            await self._update(session, answer["GameState"])
        elif answer["Result"] == Result.INVALID_PLAYER_KEY:
            raise RuntimeError(f"the referee forgot game {session.game_id}'s seat")

    async def _update(self, session: PlaySession, gamestate: dict[str, Any]) -> None:
        if gamestate == session.gamestate:
            return
        session.gamestate = gamestate
        self._consider(session)
        async with session.changed:
            session.version += 1
            session.changed.notify_all()

    async def wait_for_change(self, session: PlaySession, since: int, wait_s: float) -> None:
        async with session.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(session.changed.wait_for(lambda: session.version != since), wait_s)

    # --- the person's moves -------------------------------------------------------------------

    def labels(self, session: PlaySession) -> dict[int, str | None]:
        state = session.gamestate
        return {
            card[0]: self.referee.landmark_of_url(card[1])
            for card in state.get("MyHand", []) + state.get("OppHand", [])
        }

    def hands(self, session: PlaySession) -> tuple[list[HandCard], list[HandCard]]:
        labels = self.labels(session)
        state = session.gamestate
        mine = [HandCard(card[0], labels.get(card[0])) for card in state.get("MyHand", [])]
        theirs = [HandCard(card[0], labels.get(card[0])) for card in state.get("OppHand", [])]
        return mine, theirs

    def check(self, session: PlaySession, action: str, mine: list[int], theirs: list[int], confirm: bool) -> Verdict:
        if not session.running:
            return Verdict(None, "the match is over")
        if not session.gamestate.get("IsMover"):
            return Verdict(None, "it is the opponent's turn: wait for their move")
        my_hand, opp_hand = self.hands(session)
        return check_selection(action, mine, theirs, my_hand, opp_hand, confirm_pass=confirm)

    async def move(
        self, session: PlaySession, action: str, mine: list[int], theirs: list[int], confirm: bool
    ) -> tuple[Verdict, dict[str, Any] | None]:
        """Check the selection; send it through the referee only when it is a move (a pass only if confirmed)."""
        verdict = self.check(session, action, mine, theirs, confirm)
        if not verdict.ok or verdict.move is None:
            return verdict, None
        key = session.position_key()
        round_index = session.round_index
        turn = DEFAULT_RULES.max_turns - int(session.gamestate["RemainingMoves"]) + 1
        answer = await self._call(
            self.referee.make_move,
            MakeMoveRequest(
                BotId=session.name, BotPassword=session.password, PlayerKey=session.player_key, Move=verdict.move
            ),
            session.base_url,
        )
        if answer.get("Result") == Result.SUCCESS and key in session.advice:
            step = self.records.applied_move_count(session.game_id)
            session.decisions.append((step, round_index, turn, key, verdict.move))
        if "GameState" in answer:
            await self._update(session, answer["GameState"])
        session.moved.set()
        return verdict, answer

    # --- the coach and the review -------------------------------------------------------------

    def _consider(self, session: PlaySession) -> None:
        """On the person's turn, start the coach on this position (for the coach toggle and the review)."""
        state = session.gamestate
        if not (session.running and state.get("IsMover")):
            return
        key = session.position_key()
        if key in session.advice:
            return
        labels = {card_id: name for card_id, name in self.labels(session).items() if name is not None}
        ledger = Ledger(self.records, session.game_id)
        in_hands = [name for name in labels.values()]
        deck = ledger.deck_counts(session.round_index, in_hands)
        source = {
            "GameState": dict(state),
            "CardLabels": {str(card_id): name for card_id, name in labels.items()},
            "DeckCounts": deck,
        }
        try:
            position = parse_position(source)
        except ValueError as error:
            log.warning("game %d: no coach for this position: %s", session.game_id, error)
            return
        config = session.coach
        if coach_busy():  # many games' coaches wait: this one thinks briefly, so every game's advice comes
            config = dataclasses.replace(config, time_ms=min(config.time_ms, BUSY_TIME_MS))

        def think() -> tuple[Position, Advice | None]:
            try:
                return position, advise(position, config)
            except Exception:
                log.exception("game %d: the coach failed", session.game_id)
                return position, None

        session.sources[key] = source
        # In the coaches' own low-priority thread: never ahead of a house bot's move or a picture.
        session.advice[key] = asyncio.ensure_future(in_coach_pool(think))

    async def advice_now(self, session: PlaySession) -> Advice | None:
        thinking = session.advice.get(session.position_key()) if session.running else None
        if thinking is None:
            return None
        _position, advice = await asyncio.shield(thinking)
        return advice

    async def review(self, session: PlaySession) -> dict[str, Any]:
        """The person's part of the match's review: the review engine of `rummy-vision review` and the viewer
        (the same grading, shared with the viewer's cache), by the coach's objective, not the coach's hints."""
        objective = session.coach.objective.value
        record = self.records.match_record(session.game_id)
        if record is None:
            raise ReviewError(f"no match {session.game_id} in the records")
        data = await graded(
            (str(self.records.path), f"game {session.game_id}", objective),
            lambda: review_record(record, default_grader(objective)),
        )
        if not isinstance(data, dict):
            raise ReviewError(bytes(data.body).decode(errors="replace"))
        return seat_review(data, list(record["Players"]).index(session.name))

    def played(self, session: PlaySession) -> tuple[list[PlayedMove], list[dict[str, Any]]]:
        """The match's moves and rounds so far (read again only when the seat's state has changed)."""
        cached = session.played_cache
        if cached is not None and cached[0] == session.version:
            return cached[1], cached[2]
        ledger = Ledger(self.records, session.game_id)
        moves, rounds = ledger.moves(), ledger.rounds()
        session.played_cache = (session.version, moves, rounds)
        return moves, rounds


def card_tokens(gamestate: dict[str, Any]) -> set[str]:
    """The tokens of every card URL a gamestate shows ([id, url] pairs in its lists)."""
    tokens = set()
    for value in gamestate.values():
        if isinstance(value, list):
            for item in value:
                if isinstance(item, list) and len(item) >= 2 and isinstance(item[1], str):
                    tokens.add(token_of(item[1]))
    return tokens


def no_limit(style: GameStyle) -> bool:
    return style.move_time_ms >= NO_LIMIT_MS
