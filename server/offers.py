"""Waiting offers: the lobby plus who is still there, stakes held, and expiry of abandoned offers.

An offer's owner is still there while a call on its PlayerKey is in progress, or if one ended less than
`offer_idle_expiry_s` ago. A sweep every fraction of that withdraws the others (and gives their stakes
back), so a crashed client's offer never pairs the next bot with one that will not move.
"""

from __future__ import annotations

import asyncio
import logging

from server.lobby import Lobby, OfferTerms
from server.seats import Seat
from server.settings import Settings
from server.storage.records import Records

log = logging.getLogger(__name__)


class WaitingOffers:
    def __init__(self, settings: Settings, records: Records, seats: dict[str, Seat]) -> None:
        self.settings = settings
        self.records = records
        self.seats = seats
        self.lobby = Lobby()
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._expire_idle())

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    def count_of(self, bot: str) -> int:
        return self.lobby.offers_of(bot)

    def pair_or_wait(self, seat: Seat, terms: OfferTerms) -> Seat | None:
        """The waiting seat `seat` is paired with (out of the lobby), or None: then `seat` waits."""
        partner = self.lobby.pair(seat.key, terms, alive=self.alive)
        if partner is None:
            self.lobby.add(seat.key, terms)
            return None
        return self.seats[partner]

    def alive(self, key: str) -> bool:
        """The offer's owner is still there: a call on it is in progress, or one ended recently."""
        seat = self.seats.get(key)
        if seat is None or seat.cancelled:
            return False
        idle_s = asyncio.get_running_loop().time() - seat.last_seen
        return seat.busy or idle_s <= self.settings.offer_idle_expiry_s

    def withdraw(self, seat: Seat, why: str) -> None:
        """Take the offer out of the lobby for good (`why` answers later calls) and give its stake back."""
        self.lobby.withdraw(seat.key)
        seat.cancelled, seat.why_cancelled = True, why
        if seat.stake_held:
            self.records.release_stake(seat.key)
            seat.stake_held = False
        asyncio.get_running_loop().call_later(self.settings.keep_finished_s, self.seats.pop, seat.key, None)

    async def _expire_idle(self) -> None:
        expiry = self.settings.offer_idle_expiry_s
        while True:
            await asyncio.sleep(max(0.05, min(1.0, expiry / 4)))
            for key, _terms in self.lobby.waiting():
                if self.alive(key):
                    continue
                seat = self.seats.get(key)
                if seat is None:
                    self.lobby.withdraw(key)
                    continue
                log.info("the offer of %s expired: no call for %.0f s", seat.bot.name, expiry)
                self.withdraw(seat, f"this offer expired: its bot made no call for {expiry:g} s")
