"""Registered bots: names, users, salted PBKDF2 password hashes, status and balance."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from dataclasses import dataclass
from enum import StrEnum

from cachetools import TTLCache

from rummy.terminal_text import has_control
from server.protocol import Result

HOUSE_PREFIX = "housebot-"
DEFAULT_ITERATIONS = 200_000
DEFAULT_BALANCE = 1000
# Balances stay far inside SQLite's 64-bit integers, so prizes added later can never overflow them.
MAX_BALANCE = 10**12
VERIFIED_IDLE_S = 24 * 3600.0


class BotStatus(StrEnum):
    ACTIVE = "ACTIVE"
    SUSPENDED = "SUSPENDED"
    INACTIVE = "INACTIVE"


@dataclass(frozen=True)
class Bot:
    name: str
    user: str
    status: BotStatus
    balance: int


class AccountError(ValueError):
    """A bots command that cannot be done (duplicate name, unknown bot, reserved name, bad balance)."""


def checked_balance(balance: int) -> int:
    if isinstance(balance, bool) or not isinstance(balance, int) or not 0 <= balance <= MAX_BALANCE:
        raise AccountError(f"a balance is a whole number from 0 to {MAX_BALANCE:,}; {str(balance)[:40]} is not")
    return balance


def hash_password(password: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)


class Accounts:
    """Bot rows in the shared database. Successful logins are cached so each call does not pay PBKDF2."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        # Keyed by a fast digest of the password salted with the stored hash, never the password itself.
        # Each use renews an entry: a bot that keeps calling never falls back to PBKDF2 (where failed logins
        # from strangers could throttle it); only a bot idle for VERIFIED_IDLE_S pays the check again.
        self._verified: TTLCache[tuple[str, bytes], bool] = TTLCache(maxsize=4096, ttl=VERIFIED_IDLE_S)

    def add_bot(
        self,
        name: str,
        *,
        user: str | None = None,
        balance: int = DEFAULT_BALANCE,
        status: BotStatus = BotStatus.ACTIVE,
        iterations: int = DEFAULT_ITERATIONS,
    ) -> str:
        """Register `name` and return its new password (shown once; only the hash is stored)."""
        name = name.strip()
        if not name:
            raise AccountError("a bot name cannot be empty")
        if has_control(name) or (user is not None and has_control(user)):
            # Every opponent's terminal prints the name: ESC[2J would clear it, an OSC sequence retitle it.
            raise AccountError("a bot or user name cannot hold control characters (escape sequences)")
        if name.startswith(HOUSE_PREFIX):
            raise AccountError(f"names starting with {HOUSE_PREFIX!r} are reserved for house bots")
        checked_balance(balance)
        password = secrets.token_urlsafe(18)
        salt = secrets.token_bytes(16)
        try:
            with self.db:
                self.db.execute(
                    "INSERT INTO bots (name, user, salt, password_hash, iterations, status, balance, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        user or name,
                        salt,
                        hash_password(password, salt, iterations),
                        iterations,
                        status.value,
                        balance,
                        time.time(),
                    ),
                )
        except sqlite3.IntegrityError:
            raise AccountError(f"a bot named {name!r} is already registered") from None
        return password

    def set_bot(self, name: str, *, status: BotStatus | None = None, balance: int | None = None) -> Bot:
        if balance is not None:
            checked_balance(balance)
        with self.db:
            if status is not None:
                self.db.execute("UPDATE bots SET status=? WHERE name=?", (status.value, name))
            if balance is not None:
                self.db.execute("UPDATE bots SET balance=? WHERE name=?", (balance, name))
        bot = self.get(name)
        if bot is None:
            raise AccountError(f"no bot named {name!r}")
        return bot

    def new_password(self, name: str, *, iterations: int = DEFAULT_ITERATIONS) -> str:
        """Give the registered bot `name` a new password and return it (the old one stops working)."""
        password = secrets.token_urlsafe(18)
        salt = secrets.token_bytes(16)
        with self.db:
            changed = self.db.execute(
                "UPDATE bots SET salt=?, password_hash=?, iterations=? WHERE name=?",
                (salt, hash_password(password, salt, iterations), iterations, name),
            ).rowcount
        if not changed:
            raise AccountError(f"no bot named {name!r}")
        return password

    def remove_bot(self, name: str) -> None:
        """Forget the bot `name`: it can no longer log in; its recorded matches stay."""
        with self.db:
            removed = self.db.execute("DELETE FROM bots WHERE name=?", (name,)).rowcount
        if not removed:
            raise AccountError(f"no bot named {name!r}")

    def get(self, name: str) -> Bot | None:
        row = self.db.execute("SELECT name, user, status, balance FROM bots WHERE name=?", (name,)).fetchone()
        if row is None:
            return None
        return Bot(row["name"], row["user"], BotStatus(row["status"]), row["balance"])

    def all(self) -> list[Bot]:
        rows = self.db.execute("SELECT name, user, status, balance FROM bots ORDER BY name").fetchall()
        return [Bot(row["name"], row["user"], BotStatus(row["status"]), row["balance"]) for row in rows]

    def login(self, name: str) -> Login | None:
        """What checking a password for `name` needs, or None for an unknown bot."""
        row = self.db.execute(
            "SELECT name, user, status, balance, salt, password_hash, iterations FROM bots WHERE name=?", (name,)
        ).fetchone()
        if row is None:
            return None
        bot = Bot(row["name"], row["user"], BotStatus(row["status"]), row["balance"])
        return Login(bot, bytes(row["salt"]), bytes(row["password_hash"]), row["iterations"])

    def typical_iterations(self) -> int | None:
        """The PBKDF2 iterations most bots use (what checking an unknown BotId should cost too)."""
        row = self.db.execute(
            "SELECT iterations FROM bots GROUP BY iterations ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row["iterations"])

    def known_good(self, login: Login, password: str) -> bool:
        """True when this password was verified recently (cheap; no PBKDF2); a hit renews the entry."""
        key = self._cache_key(login, password)
        if key not in self._verified:
            return False
        self._verified[key] = True
        return True

    def remember_good(self, login: Login, password: str) -> None:
        self._verified[self._cache_key(login, password)] = True

    @staticmethod
    def _cache_key(login: Login, password: str) -> tuple[str, bytes]:
        return (login.bot.name, hashlib.sha256(login.password_hash + password.encode()).digest())


@dataclass(frozen=True)
class Login:
    bot: Bot
    salt: bytes
    password_hash: bytes
    iterations: int

    def matches(self, password: str) -> bool:
        """The slow PBKDF2 check; thread-safe, so callers run it off the event loop."""
        return hmac.compare_digest(hash_password(password, self.salt, self.iterations), self.password_hash)


def status_result(bot: Bot) -> Result | None:
    """The Result that refuses a bot in this status, or None when it may play."""
    if bot.status is BotStatus.SUSPENDED:
        return Result.BOT_IS_SUSPENDED
    if bot.status is BotStatus.INACTIVE:
        return Result.BOT_IS_INACTIVE
    return None
