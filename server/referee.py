"""The referee: the five arena calls, on top of logins, the lobby, seats and the matches in play.

Everything here runs on the server's event loop (one thread), so a seat's state never changes between
two lines without an `await`. Slow work (password hashing, house bots thinking) runs in worker threads.
The pieces: seats and long polls (server.seats), matches, deadlines and moves (server.matches_in_play),
house bots (server.house_seats), waiting offers (server.offers, over server.lobby), logins
(server.logins).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from rummy.cards import token_of
from server.accounts import Accounts, Bot, BotStatus, status_result
from server.house_agents import HOUSE_USER, is_house_bot
from server.house_seats import HousePlayers
from server.lobby import OfferTerms
from server.logins import Logins
from server.matches_in_play import MatchesInPlay
from server.offers import WaitingOffers
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
from server.seats import BusySeat, LiveMatch, Refusal, Seat, wait_for_news
from server.settings import Settings
from server.storage.records import Records
from server.styles import GameStyle, styles_with_move_time

__all__ = ["Referee", "Refusal"]

log = logging.getLogger(__name__)


class Referee:
    def __init__(self, settings: Settings, records: Records, accounts: Accounts) -> None:
        self.settings = settings
        self.records = records
        self.accounts = accounts
        self.logins = Logins(accounts)
        self.styles = styles_with_move_time(settings.move_time_ms)
        self.matches = MatchesInPlay(settings, records)
        self.house = HousePlayers(self.matches, self.landmark_of_url)
        self.matches.on_start = self._seat_started
        self.offers = WaitingOffers(settings, records, self.matches.seats)
        self.lobby = self.offers.lobby

    @property
    def seats(self) -> dict[str, Seat]:
        return self.matches.seats

    @property
    def live(self) -> dict[int, LiveMatch]:
        return self.matches.live

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        aborted = self.records.abort_running(self.settings.clock())
        if aborted:
            log.warning("marked %d match(es) left running by an earlier server as ABORTED (stakes refunded)", aborted)
        released = self.records.release_all_stakes()
        if released:
            log.warning("gave back the stakes of %d offer(s) an earlier server left waiting", released)
        self.offers.start()

    def begin_shutdown(self) -> None:
        """The server is stopping: no deadline fires from now on, and every long poll answers at once."""
        self.matches.begin_shutdown()

    async def close(self) -> None:
        self.begin_shutdown()
        self.offers.close()
        await self.house.close()
        self.logins.close()
        # Matches still running can never finish now (a restarted server would find them RUNNING), and
        # waiting offers are gone: every stake goes back.
        self.records.abort_running(self.settings.clock())
        self.records.release_all_stakes()

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
            raise self._short_of_stake(style, bot.balance)
        opponent = request.OpponentId
        if opponent is not None and not is_house_bot(opponent) and self.accounts.get(opponent) is None:
            raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, "Check of OpponentId failed")
        if opponent is not None and opponent in self.house.withdrawn:
            raise Refusal(
                Result.INVALID_LOGIN_OR_PASSWORD, f"{opponent} is withdrawn: {self.house.withdrawn[opponent]}"
            )
        waiting = self.offers.count_of(bot.name)
        if waiting >= self.settings.max_offers_per_bot:
            raise Refusal(
                Result.INVALID_LOGIN_OR_PASSWORD,
                f"bot {bot.name!r} already has {waiting} offers waiting; cancel one or wait for an opponent",
            )
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
            self.matches.start(seat, house_seat, base_url)
        else:
            if style.stake:
                # Held now, not at pairing: several waiting offers can never take the balance below zero.
                if not self.records.hold_stake(seat.key, bot.name, style.stake, self.settings.clock()):
                    self.seats.pop(seat.key, None)
                    current = self.accounts.get(bot.name)
                    raise self._short_of_stake(style, current.balance if current else 0)
                seat.stake_held = True
            partner = self.offers.pair_or_wait(seat, terms)
            if partner is not None:
                self.matches.start(partner, seat, base_url)
        async with BusySeat(seat):
            await wait_for_news(seat, request.MaximumWaitTime, self.matches.shutdown)
        if seat.live is None:
            return answer(Result.WAITING_FOR_GAME, PlayerKey=seat.key)
        told = self.matches.state_answer(seat, base_url)
        return {"Result": told["Result"], "PlayerKey": seat.key, "GameState": told["GameState"]}

    async def poll(self, request: PollRequest, base_url: str) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with BusySeat(seat):
            await wait_for_news(seat, request.MaximumWaitTime, self.matches.shutdown)
        if seat.live is None:
            return answer(Result.WAITING_FOR_GAME, PlayerKey=seat.key)
        return self.matches.state_answer(seat, base_url)

    async def make_move(self, request: MakeMoveRequest, base_url: str) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with BusySeat(seat):
            return self.matches.move(seat, request.Move, base_url)

    async def cancel(self, request: CancelRequest) -> dict[str, Any]:
        seat = await self._seat(request.BotId, request.BotPassword, request.PlayerKey)
        async with BusySeat(seat):
            if seat.live is not None:
                if seat.live.match.over:
                    raise Refusal(Result.GAME_HAS_ENDED, "the match of this offer has ended")
                raise Refusal(Result.GAME_ALREADY_STARTED, "the offer was already matched; play or time out")
            self.offers.withdraw(seat, "this offer was cancelled")
            return answer(Result.SUCCESS)

    # --- what other routes need ---------------------------------------------------------------

    def landmark_of_token(self, token: str) -> str | None:
        return self.matches.landmarks.get(token) or self.records.landmark_of_token(token)

    def card_in_play(self, token: str) -> bool:
        """True when the card `token` belongs to a match that is still being played."""
        return any(token in live.tokens and not live.match.over for live in self.live.values())

    def landmark_of_url(self, url: str) -> str | None:
        return self.landmark_of_token(token_of(url))

    def oracle_labels(self, game_id: int, *, by_url: bool = False) -> dict[str, str] | None:
        """{card id: landmark} for the cards in view in the match's current round (both hands and the laid
        cards), in id order (None if not in memory). Nothing about the deck: not its cards, not its order.
        With by_url the keys are the cards' URL paths, for a caller that has pictures but no card ids."""
        live = self.live.get(game_id)
        if live is None:
            return None
        shown = live.match.current
        cards = sorted([*shown.hands[0], *shown.hands[1], *shown.laid], key=lambda card: card.id)
        return {card.url if by_url else str(card.id): card.kind for card in cards}

    # --- calls' building blocks ---------------------------------------------------------------

    async def _login(self, bot_id: str, password: str) -> Bot:
        return await self.logins.login(bot_id, password)

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
            raise Refusal(Result.INVALID_PLAYER_KEY, seat.why_cancelled)
        return seat

    def _new_seat(self, bot: Bot, style: GameStyle, terms: OfferTerms) -> Seat:
        seat = Seat(key=secrets.token_urlsafe(24), bot=bot, style=style, terms=terms)
        seat.last_seen = asyncio.get_running_loop().time()
        self.seats[seat.key] = seat
        return seat

    @staticmethod
    def _short_of_stake(style: GameStyle, balance: int) -> Refusal:
        return Refusal(
            Result.INSUFFICIENT_BALANCE,
            f"style {style.style_id} needs a stake of {style.stake}; balance {balance} (stakes of waiting offers"
            " are held until they are matched, cancelled or expire)",
        )

    def _seat_started(self, seat: Seat) -> None:
        if is_house_bot(seat.bot.name):
            self.house.seat(seat)
