"""Hardening II: attacks from a hostile probe of the referee, each reproduced and shown to fail.

Logins an opponent cannot lock out, per-network throttling, a shutdown that ends, a /play that
strangers cannot drive, header timeouts, captions for people only, and balances that stay sane."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest
from cachetools import TTLCache
from server_testkit import FAST_HASH

import server.accounts as accounts_module
from rummy.records import Records
from server.accounts import Accounts
from server.http_io import CLIENT_ADDRESS
from server.logins import PER_BOT, FailureThrottle, Logins
from server.seats import Refusal

# --- item 1: lock-out ---------------------------------------------------------------------------------


def _logins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, now: list[float]) -> tuple[Logins, str]:
    """Logins over a real database, with every clock (success cache, failure buckets) on `now`."""
    monkeypatch.setattr(accounts_module, "TTLCache", functools.partial(TTLCache, timer=lambda: now[0]))
    records = Records(tmp_path / "records.sqlite3")
    accounts = Accounts(records.db)
    password = accounts.add_bot("victim", iterations=FAST_HASH)
    logins = Logins(accounts)
    logins.throttle = FailureThrottle(clock=lambda: now[0])
    return logins, password


async def _try(logins: Logins, address: str, bot_id: str, password: str) -> str:
    CLIENT_ADDRESS.set(address)
    try:
        await logins.login(bot_id, password)
    except Refusal as refusal:
        return str(refusal.answer["ErrorMessage"])
    return "ok"


def test_one_wrong_password_a_second_for_15_minutes_never_locks_out_a_bot_that_plays(tmp_path, monkeypatch):
    """The attack of the probe: the victim's BotId (every opponent sees it) with a wrong password once a
    second from the victim's own address, while the victim calls every 3 s; past the old 600 s cache."""
    now = [0.0]
    logins, password = _logins(tmp_path, monkeypatch, now)

    async def main() -> list[str]:
        refused = []
        assert await _try(logins, "127.0.0.1", "victim", password) == "ok"
        for second in range(15 * 60):
            now[0] = float(second)
            await _try(logins, "127.0.0.1", "victim", f"guess-{second}")
            if second % 3 == 0:
                answer = await _try(logins, "127.0.0.1", "victim", password)
                if answer != "ok":
                    refused.append(f"t={second}: {answer}")
        return refused

    assert asyncio.run(main()) == []


def test_failures_from_a_stranger_do_not_throttle_the_bot_from_its_own_address():
    now = [0.0]
    throttle = FailureThrottle(clock=lambda: now[0])
    for _ in range(int(PER_BOT.capacity) * 4):
        throttle.failed("victim", "10.9.9.9")
    assert throttle.wait_s("victim", "10.9.9.9") > 0  # the guesser is throttled
    assert throttle.wait_s("victim", "192.168.1.20") == 0  # the victim, elsewhere, is not


@pytest.mark.parametrize(
    "addresses",
    [
        [f"127.{n // 250}.{n % 250}.{n % 7 + 1}" for n in range(400)],  # loopback is 127.0.0.0/8
        [f"10.1.2.{n % 250 + 1}" for n in range(400)],  # one /24
        [f"2001:db8::{n:x}" for n in range(400)],  # one /64
        [f"::ffff:127.0.0.{n % 250 + 1}" for n in range(400)],  # IPv4-mapped loopback
    ],
    ids=["loopback", "ipv4-24", "ipv6-64", "mapped"],
)
def test_spreading_failures_over_many_addresses_of_one_network_is_throttled(addresses):
    now = [0.0]
    throttle = FailureThrottle(clock=lambda: now[0])
    refused = 0
    for index, address in enumerate(addresses):
        bot_id = f"guess-{index}"  # fresh BotIds too, so no per-bot bucket applies
        if throttle.wait_s(bot_id, address) > 0:
            refused += 1
        else:
            throttle.failed(bot_id, address)
    assert refused > len(addresses) // 2
