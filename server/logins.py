"""Checking BotId and BotPassword: cached successes, throttled failures, and hashing off the shared pool.

- A password that passed recently is known by a cheap digest (server.accounts): no PBKDF2.
- Otherwise PBKDF2 runs in this module's own two threads, never in the pool where house bots think, so
  a flood of wrong passwords slows logins, not matches.
- An unknown BotId costs the same PBKDF2 as a known one (against a stand-in hash), so timing does not
  tell which names exist.
- Failed logins drain token buckets: one per BotId and address (failures from elsewhere never block
  a bot's own address), one per client address and one per network the
  address is in (an IPv4 /24, an IPv6 /64, and all loopback addresses together, so that many source
  addresses on one machine or subnet share a limit); while any is empty, attempts that would need
  PBKDF2 are refused at once without hashing, with a message starting THROTTLED that the client
  retries after the time it names.
- A bot whose password passed is known by its cached success, renewed on every call
  (server.accounts.VERIFIED_IDLE_S): failed logins by anyone else cannot lock it out while it plays.
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from cachetools import TTLCache

from server.accounts import DEFAULT_ITERATIONS, Accounts, Bot, BotStatus, Login, hash_password
from server.http_io import CLIENT_ADDRESS
from server.protocol import Result
from server.seats import Refusal

HASHING_THREADS = 2
REFUSED = "unknown BotId or wrong BotPassword"
THROTTLED = "too many failed logins"


@dataclass(frozen=True)
class Bucket:
    capacity: float  # failures allowed in a burst
    refill_per_s: float  # failures allowed per second after that


PER_BOT = Bucket(capacity=5, refill_per_s=0.5)
PER_ADDRESS = Bucket(capacity=30, refill_per_s=3.0)
PER_NETWORK = Bucket(capacity=60, refill_per_s=5.0)


def network_of(address: str) -> str:
    """The network an address is counted in: loopback as one, an IPv4 /24, an IPv6 /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return "other"
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if parsed.is_loopback:
        return "loopback"
    prefix = 24 if parsed.version == 4 else 64
    return str(ipaddress.ip_network(f"{parsed}/{prefix}", strict=False))


class FailureThrottle:
    """Token buckets of failed logins per key; a bounded table, so random BotIds cannot fill memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._levels: TTLCache[tuple[str, str], tuple[float, float]] = TTLCache(maxsize=50_000, ttl=3600)

    def _tokens(self, key: tuple[str, str], bucket: Bucket) -> float:
        tokens, since = self._levels.get(key, (bucket.capacity, self._clock()))
        return min(bucket.capacity, tokens + (self._clock() - since) * bucket.refill_per_s)

    @staticmethod
    def _buckets(bot_id: str, address: str) -> tuple[tuple[tuple[str, str], Bucket], ...]:
        return (
            (("bot", f"{bot_id}\n{address}"), PER_BOT),
            (("address", address), PER_ADDRESS),
            (("network", network_of(address)), PER_NETWORK),
        )

    def wait_s(self, bot_id: str, address: str) -> float:
        """0 when a login may be tried now; else how long until one may."""
        waits = [0.0]
        for key, bucket in self._buckets(bot_id, address):
            tokens = self._tokens(key, bucket)
            if tokens < 1:
                waits.append((1 - tokens) / bucket.refill_per_s)
        return max(waits)

    def failed(self, bot_id: str, address: str) -> None:
        now = self._clock()
        for key, bucket in self._buckets(bot_id, address):
            self._levels[key] = (max(0.0, self._tokens(key, bucket) - 1), now)


class Logins:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.throttle = FailureThrottle()
        self._hashing = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="password-check")
        self._salt = secrets.token_bytes(16)
        self._hash = hash_password(secrets.token_urlsafe(18), self._salt, 1)

    def _stand_in(self) -> Login:
        """What an unknown BotId is checked against: a hash no password matches, as costly as a real one."""
        iterations = self.accounts.typical_iterations() or DEFAULT_ITERATIONS
        return Login(Bot("", "", BotStatus.ACTIVE, 0), self._salt, self._hash, iterations)

    def close(self) -> None:
        self._hashing.shutdown(wait=False, cancel_futures=True)

    async def login(self, bot_id: str, password: str) -> Bot:
        login = self.accounts.login(bot_id)
        if login is not None and self.accounts.known_good(login, password):
            return login.bot
        address = CLIENT_ADDRESS.get()
        wait_s = self.throttle.wait_s(bot_id, address)
        if wait_s > 0:
            raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, f"{THROTTLED}; try again in {max(1, round(wait_s))} s")
        checked = login or self._stand_in()
        matches = await asyncio.get_running_loop().run_in_executor(self._hashing, checked.matches, password)
        if login is None or not matches:
            self.throttle.failed(bot_id, address)
            raise Refusal(Result.INVALID_LOGIN_OR_PASSWORD, REFUSED)
        self.accounts.remember_good(login, password)
        return login.bot
