"""Running matches: seats and PlayerKeys, long polls, deadlines, moves, house bots.

Everything here runs on the server's event loop (one thread), so a seat's state never changes between
two lines without an `await`. Slow work (password hashing, house bots thinking) runs in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from dataclasses import dataclass, field
from typing import Any

from rummy import MalformedMove, Match, Round, parse_move, render_gamestate
from rummy.records import Records, token_of
from server.accounts import Accounts, Bot, BotStatus, status_result
from server.housebots import HOUSE_USER, fallback_move, house_agent, is_house_bot
from server.lobby import Lobby, OfferTerms
from server.protocol import (
    GAME_TYPE_ID,
    CancelRequest,
    GameStylesRequest,
    MakeMoveRequest,
    OfferGameRequest,
    PollRequest,
    Result,
    answer,
)
from server.settings import Settings
from server.styles import GameStyle, styles_with_move_time

log = logging.getLogger(__name__)
HOUSE_POLL_MS = 5000
# A house bot's move goes out this long before its deadline at the latest (at most a fifth of the
# move time): the thinking thread shares the interpreter with the server, and a busy server can
# starve it past the share of the time the strategy planned to use.
HOUSE_SAFETY_S = 0.1


class Refusal(Exception):
    """Ends a call early with this answer (HTTP 200: a protocol answer, not a malformed request)."""

    def __init__(self, result: Result, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.answer = answer(result, ErrorMessage=message, **fields)


@dataclass(eq=False)
class Seat:
    key: str
    bot: Bot
    style: GameStyle
    terms: OfferTerms
    live: LiveMatch | None = None
    index: int = 0
    cancelled: bool = False
    busy: bool = False
    # What this seat has been told, so that a long poll knows whether there is news.
    told_started: bool = False
    told_end: bool = False
    poke: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class LiveMatch:
    game_id: int
    style: GameStyle
    match: Match
    seats: tuple[Seat, Seat]
    url_prefix: str
    turn: int = 0  # accepted moves so far
    deadline_ms: int = 0
    timer: asyncio.TimerHandle | None = None
    tokens: set[str] = field(default_factory=set)

    def opponent_name(self, index: int) -> str:
        return self.seats[1 - index].bot.name


class Referee:
    def __init__(self, settings: Settings, records: Records, accounts: Accounts) -> None:
        self.settings = settings
        self.records = records
        self.accounts = accounts
        self.styles = styles_with_move_time(settings.move_time_ms)
        self.lobby = Lobby()
        self.seats: dict[str, Seat] = {}
        self.live: dict[int, LiveMatch] = {}
        self.landmarks: dict[str, str] = {}  # card token -> landmark, for cards of matches in memory
        self._tasks: set[asyncio.Task[None]] = set()
        self._matches_started = 0

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        aborted = self.records.abort_running(self.settings.clock())
        if aborted:
            log.warning("marked %d match(es) left running by an earlier server as ABORTED", aborted)

    async def close(self) -> None:
        for live in self.live.values():
            if live.timer is not None:
                live.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        # Matches still running can never finish now; a restarted server would find them RUNNING.
        self.records.abort_running(self.settings.clock())

    # --- the five calls -----------------------------------------------------------------------

    async def game_styles(self, request: GameStylesRequest) -> dict[str, Any]:
        bot = await self._login(request.BotId, request.BotPassword)
        self._check_status(bot)
        if request.GameTypeId is not None and request.GameTypeId != GAME_TYPE_ID:
            return answer(
                Result.SUCCESS,
                GameStyles=[],
                Balance=bot.balance,
                ErrorMessage=f"GameTypeId {request.GameTypeId} is not hosted here; Rummy Vision is {GAME_TYPE_ID}",
            )
        styles = [style.to_json() for style in self.styles.values()]
        return answer(Result.SUCCESS, GameStyles=styles, Balance=bot.balance)

    async def offer_game(self, request: OfferGameRequest, base_url: str) -> dict[str, Any]:
        bot = await self._login(request.BotId, request.BotPassword)
        self._check_status(bot)
        style = self.styles.get(request.GameStyleId)
        if style is None:
            hosted = ", ".join(str(style_id) for style_id in self.styles)
            raise Refusal(
                Result.INVALID_LOGIN_OR_PASSWORD,
                f"GameStyleId {request.GameStyleId} is not hosted here; choose one of {hosted}",
            )
        if bot.balance < style.stake:
            raise Refusal(
                Result.INSUFFICIENT_BALANCE,
                f"style {style.style_id} needs a stake of {style.stake}; balance {bot.balance}",
            )
        opponent = request.OpponentId
        if opponent is not None and not is_house_bot(opponent) and self.accounts.get(opponent) is None:
            raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, "Check of OpponentId failed")
        terms = OfferTerms(
            bot=bot.name,
            user=bot.user,
            style_id=style.style_id,
            opponent_id=opponent,
            dont_play_same_bot=request.DontPlayAgainstSameBot,
            dont_play_same_user=request.DontPlayAgainstSameUser,
        )
        seat = self._new_seat(bot, style, terms)
        if opponent is not None and is_house_bot(opponent):
            house = Bot(opponent, HOUSE_USER, BotStatus.ACTIVE, 0)
            house_seat = self._new_seat(house, style, OfferTerms(opponent, HOUSE_USER, style.style_id))
            self._start_match(seat, house_seat, base_url)
        else:
            partner = self.lobby.pair(seat.key, terms)
            if partner is not None:
                self._start_match(self.seats[partner], seat, base_url)
            else:
                self.lobby.add(seat.key, terms)
        async with self._busy(seat):
            await self._wait_for_news(seat, request.MaximumWaitTime)
        if seat.live is None:
            return answer(Result.WAITING_FOR_GAME, PlayerKey=seat.key)
        told = self._state_answer(seat, base_url)
        return {"Result": told["Result"], "PlayerKey": seat.key, "GameState": told["GameState"]}

    async def poll(self, request: PollRequest, base_url: str) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with self._busy(seat):
            await self._wait_for_news(seat, request.MaximumWaitTime)
        if seat.live is None:
            return answer(Result.WAITING_FOR_GAME, PlayerKey=seat.key)
        return self._state_answer(seat, base_url)

    async def make_move(self, request: MakeMoveRequest, base_url: str) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with self._busy(seat):
            return self._move(seat, request.Move, base_url)

    async def cancel(self, request: CancelRequest) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with self._busy(seat):
            if seat.live is not None:
                if seat.live.match.over:
                    raise Refusal(Result.GAME_HAS_ENDED, "the match of this offer has ended")
                raise Refusal(Result.GAME_ALREADY_STARTED, "the offer was already matched; play or time out")
            self.lobby.withdraw(seat.key)
            seat.cancelled = True
            asyncio.get_running_loop().call_later(self.settings.keep_finished_s, self.seats.pop, seat.key, None)
            return answer(Result.SUCCESS)

    # --- what other routes need ---------------------------------------------------------------

    def landmark_of_token(self, token: str) -> str | None:
        return self.landmarks.get(token) or self.records.landmark_of_token(token)

    def landmark_of_url(self, url: str) -> str | None:
        return self.landmark_of_token(token_of(url))

    def oracle_labels(self, game_id: int, base_url: str) -> dict[str, str] | None:
        """{absolute url: landmark} for every card of the match's current round (None if not in memory)."""
        live = self.live.get(game_id)
        if live is None:
            return None
        shown = live.match.current
        cards = [*shown.hands[0], *shown.hands[1], *shown.deck, *shown.laid]
        return {base_url + card.url: card.kind for card in cards}

    # --- calls' building blocks ---------------------------------------------------------------

    async def _login(self, bot_id: str, password: str) -> Bot:
        login = self.accounts.login(bot_id)
        if login is None:
            raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, "unknown BotId or wrong BotPassword")
        if not self.accounts.known_good(login, password):
            if not await asyncio.to_thread(login.matches, password):
                raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, "unknown BotId or wrong BotPassword")
            self.accounts.remember_good(login, password)
        return login.bot

    @staticmethod
    def _check_status(bot: Bot) -> None:
        refused = status_result(bot)
        if refused is not None:
            raise Refusal(refused, f"bot {bot.name!r} is {bot.status.value.lower()}")

    async def _seat(self, bot_id: str, password: str, key: str) -> Seat:
        bot = await self._login(bot_id, password)
        seat = self.seats.get(key)
        if seat is None:
            raise Refusal(Result.INVALID_PLAYER_KEY, "unknown PlayerKey (or one of a match long over)")
        if seat.bot.name != bot.name:
            raise Refusal(Result.INVALID_PLAYER_KEY, "this PlayerKey belongs to another bot")
        if seat.cancelled:
            raise Refusal(Result.INVALID_PLAYER_KEY, "this offer was cancelled")
        return seat

    def _busy(self, seat: Seat) -> _BusySeat:
        return _BusySeat(seat)

    def _new_seat(self, bot: Bot, style: GameStyle, terms: OfferTerms) -> Seat:
        seat = Seat(key=secrets.token_urlsafe(24), bot=bot, style=style, terms=terms)
        self.seats[seat.key] = seat
        return seat

    def _has_news(self, seat: Seat) -> bool:
        live = seat.live
        if live is None:
            return False
        if not seat.told_started:
            return True
        if live.match.over:
            return not seat.told_end
        # While it is the seat's turn a poll answers at once, even if this turn was told before: the
        # earlier answer may have been lost on the way, and a bot must not wait out its own deadline.
        return live.match.mover == seat.index

    async def _wait_for_news(self, seat: Seat, wait_ms: int) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + wait_ms / 1000
        while not self._has_news(seat):
            remaining = end - loop.time()
            if remaining <= 0:
                return
            seat.poke.clear()
            try:
                await asyncio.wait_for(seat.poke.wait(), remaining)
            except TimeoutError:
                return

    def _gamestate(self, seat: Seat, base_url: str) -> dict[str, Any]:
        live = seat.live
        assert live is not None
        return render_gamestate(
            live.match,
            seat.index,
            game_id=live.game_id,
            opponent_id=live.opponent_name(seat.index),
            response_deadline_ms=live.deadline_ms,
            url_prefix=base_url,
        )

    def _state_answer(self, seat: Seat, base_url: str) -> dict[str, Any]:
        """The seat's GameState; the first answer after the end says SUCCESS, later ones GAME_HAS_ENDED."""
        live = seat.live
        assert live is not None
        result = Result.SUCCESS
        if live.match.over:
            result = Result.GAME_HAS_ENDED if seat.told_end else Result.SUCCESS
            seat.told_end = True
        seat.told_started = True
        return answer(result, GameState=self._gamestate(seat, base_url))

    # --- matches ------------------------------------------------------------------------------

    def _start_match(self, first: Seat, second: Seat, base_url: str) -> LiveMatch:
        now = self.settings.clock()
        self._matches_started += 1
        if self.settings.seed is not None:
            seed = f"{self.settings.seed}:{self._matches_started}"
        else:
            seed = str(int.from_bytes(os.urandom(8), "big"))
        style = first.style
        house_stakes = style.stake if not (is_house_bot(first.bot.name) or is_house_bot(second.bot.name)) else 0
        game_id = self.records.create_match(
            style_id=style.style_id,
            rounds=style.rounds,
            move_time_ms=style.move_time_ms,
            seed=seed,
            players=(first.bot.name, second.bot.name),
            stake=house_stakes,
            prize=style.prize if house_stakes else 0,
            now=now,
        )
        match = Match(seed=seed, rounds=style.rounds)
        live = LiveMatch(game_id, style, match, (first, second), self.settings.public_url or base_url)
        first.live, first.index = live, 0
        second.live, second.index = live, 1
        self.live[game_id] = live
        self.records.start_round(game_id, 0, match.current, now)
        self._remember_cards(live, match.current)
        self._arm_deadline(live)
        for seat in (first, second):
            if is_house_bot(seat.bot.name):
                self._spawn(self._run_house_bot(seat))
        self._poke(live)
        return live

    def _remember_cards(self, live: LiveMatch, played: Round) -> None:
        for card in [*played.hands[0], *played.hands[1], *played.deck]:
            token = token_of(card.url)
            self.landmarks[token] = card.kind
            live.tokens.add(token)

    def _arm_deadline(self, live: LiveMatch) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.match.over:
            live.deadline_ms = 0
            return
        move_time = live.style.move_time_ms
        live.deadline_ms = round(self.settings.clock() * 1000) + move_time
        live.timer = asyncio.get_running_loop().call_later(move_time / 1000, self._deadline_passed, live, live.turn)

    def _deadline_passed(self, live: LiveMatch, turn: int) -> None:
        if live.turn == turn and not live.match.over:
            self._time_out(live)

    def _time_out(self, live: LiveMatch) -> None:
        mover = live.match.mover
        assert mover is not None
        log.info("game %d: %s missed its deadline", live.game_id, live.seats[mover].bot.name)
        live.match.forfeit(mover)
        self._finish(live, "timeout")

    def _finish(self, live: LiveMatch, reason: str, *, recorded: bool = False) -> None:
        self._arm_deadline(live)  # the match is over: clears the timer and the deadline
        if not recorded:
            self.records.finish_match(live.game_id, live.match, reason, self.settings.clock())
        self._poke(live)
        asyncio.get_running_loop().call_later(self.settings.keep_finished_s, self._forget, live)

    def _forget(self, live: LiveMatch) -> None:
        self.live.pop(live.game_id, None)
        for seat in live.seats:
            self.seats.pop(seat.key, None)
        for token in live.tokens:
            self.landmarks.pop(token, None)

    @staticmethod
    def _poke(live: LiveMatch) -> None:
        for seat in live.seats:
            seat.poke.set()

    def _move(self, seat: Seat, raw_move: Any, base_url: str) -> dict[str, Any]:
        received = self.settings.clock()
        live = seat.live
        if live is None:
            raise Refusal(Result.WAITING_FOR_GAME, "no opponent yet: poll until the match starts", PlayerKey=seat.key)
        match = live.match
        if not match.over and received * 1000 > live.deadline_ms:
            self._time_out(live)  # the timer has not fired yet, but the deadline has passed
        round_index = match.round_index
        played = match.current
        error: str | None = None
        applied = False
        if match.over:
            told = self._state_answer(seat, base_url)
            error = "the match has ended; the move was not played"
        elif match.mover != seat.index:
            told = answer(Result.NOT_YOUR_MOVE, GameState=self._gamestate(seat, base_url))
            error = "it is the opponent's turn"
        else:
            try:
                match.apply(seat.index, parse_move(raw_move, match.rules))
            except MalformedMove as refused:
                error = str(refused)
                told = answer(Result.INVALID_MOVE, GameState=self._gamestate(seat, base_url))
            else:
                applied = True
                live.turn += 1
                if match.round_index != round_index and not match.over:
                    self._remember_cards(live, match.current)
                self._arm_deadline(live)
                told = self._state_answer(seat, base_url)
        if error is not None:
            told = {"Result": told["Result"], "ErrorMessage": error, "GameState": told["GameState"]}
        round_over = applied and match.round_index != round_index
        completed = applied and match.over
        self.records.record_move(
            game_id=live.game_id,
            round_index=round_index,
            seat=seat.index,
            bot=seat.bot.name,
            received_at=received,
            move=raw_move,
            result=told["Result"],
            applied=applied,
            error=error,
            gamestate=told["GameState"],
            finished_round=(round_index, played) if round_over else None,
            next_round=(match.round_index, match.current) if round_over and not match.over else None,
            finished_match=(match, "completed") if completed else None,
        )
        if applied:
            if completed:
                self._finish(live, "completed", recorded=True)
            else:
                self._poke(live)
        return told

    # --- house bots ---------------------------------------------------------------------------

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_house_bot(self, seat: Seat) -> None:
        live = seat.live
        assert live is not None
        agent = house_agent(seat.bot.name, self.landmark_of_url)
        thinking: asyncio.Future[dict[str, Any]] | None = None
        while not live.match.over:
            await self._wait_for_news(seat, HOUSE_POLL_MS)
            if live.match.over or not self._has_news(seat):
                continue
            gamestate = self._state_answer(seat, live.url_prefix)["GameState"]
            if not gamestate["IsMover"]:
                continue
            turn = live.turn
            if thinking is not None and not thinking.done():
                log.warning("game %d: %s is still thinking about an earlier move", live.game_id, seat.bot.name)
                move = fallback_move(gamestate)
            else:
                thinking = asyncio.ensure_future(asyncio.to_thread(agent.calculate_move, gamestate))
                thinking.add_done_callback(_retrieve)
                move = await self._house_move(live, seat, thinking, gamestate)
            if live.turn != turn or live.match.over:
                continue  # too late: the deadline passed while it was thinking
            told = self._move(seat, move, live.url_prefix)
            if told["Result"] == Result.INVALID_MOVE:
                log.error("game %d: %s sent %s: %s", live.game_id, seat.bot.name, move, told.get("ErrorMessage"))
                self._move(seat, fallback_move(gamestate), live.url_prefix)
        self._state_answer(seat, live.url_prefix)

    async def _house_move(
        self, live: LiveMatch, seat: Seat, thinking: asyncio.Future[dict[str, Any]], gamestate: dict[str, Any]
    ) -> dict[str, Any]:
        """The strategy's move if it comes in time; otherwise a safe one, sent before the deadline."""
        safety_s = min(HOUSE_SAFETY_S, live.style.move_time_ms / 5000)
        time_left_s = live.deadline_ms / 1000 - self.settings.clock() - safety_s
        try:
            # shield: a thread cannot be cancelled; the next turn sees it still running instead
            return await asyncio.wait_for(asyncio.shield(thinking), timeout=max(0.0, time_left_s))
        except TimeoutError:
            log.warning("game %d: %s ran out of time; it plays a safe move", live.game_id, seat.bot.name)
        except Exception:
            log.exception("game %d: %s failed to choose a move", live.game_id, seat.bot.name)
        return fallback_move(gamestate)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # marks a late thread's exception as seen, so asyncio does not warn at exit


class _BusySeat:
    """One call at a time per PlayerKey: a second one answers CALL_ALREADY_IN_PROCESS at once."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    async def __aenter__(self) -> Seat:
        if self.seat.busy:
            raise Refusal(Result.CALL_ALREADY_IN_PROCESS, "another call on this PlayerKey is still being answered")
        self.seat.busy = True
        return self.seat

    async def __aexit__(self, *exc_info: object) -> None:
        self.seat.busy = False
