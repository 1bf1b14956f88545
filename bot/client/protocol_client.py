"""The five arena calls over HTTP (httpx), retried with exponential backoff and jitter (tenacity).

Retried: connection errors and timeouts, 5xx answers, answers that are not the protocol's JSON
object, `CALL_ALREADY_IN_PROCESS`, and a login refused because failed logins are being throttled
(someone else may be guessing this bot's password; the call itself was not acted on). Every other
`Result` is handed back as an `Answer` for the caller to act on. Request bodies (they carry the
password) are never logged or kept.

MakeMove is not idempotent: once the request may have reached the server (the answer was lost, a
read timed out, a gateway answered 5xx), sending it again could play it twice (a wasted Lay is still
legal the next turn). Those failures raise `OutcomeUnknown` at once instead, and the caller asks the
server for the gamestate to see whether the move went through (bot/client/runner.py does). Failures
before the request left (no connection) and `CALL_ALREADY_IN_PROCESS` are retried.

Until the server has answered once, nothing is retried: a refused connection or an unknown host
means a server that is not running or a wrong base URL, and waiting would only hide that, so it
raises `ServerUnreachable` at once with what was tried. Once the server has answered, losing it is
an outage worth riding out: the first retry of each call logs a warning (visible without -v) and the
recovery is logged too.

A `GameState` in an answer is checked against the protocol's gamestate (`rummy.messages.Gamestate`): one that
is not (a hand that is no list of [card id, URL] pairs, IsMover that is not true or false...) raises
`ProtocolError` naming the field, never retried and never handed to a bot.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_after_delay, stop_any
from tenacity import wait_random_exponential as full_jitter
from tenacity.stop import stop_base

from bot.client.config import Credentials, protocol_base
from rummy import bounded_json
from rummy.capped_http import GAMESTATE_BYTES, AnswerRefused, AnswerTooSlow, call_within, capped_client
from rummy.messages import Gamestate, MessageError, check

log = logging.getLogger("bot.protocol")

RESULTS = frozenset(
    {
        "SUCCESS",
        "CALL_ALREADY_IN_PROCESS",
        "WAITING_FOR_GAME",
        "GAME_ALREADY_STARTED",
        "GAME_HAS_ENDED",
        "INVALID_LOGIN_OR_PASSWORD",
        "INVALID_PLAYER_KEY",
        "BOT_IS_SUSPENDED",
        "BOT_IS_INACTIVE",
        "INSUFFICIENT_BALANCE",
        "NOT_YOUR_MOVE",
        "INVALID_MOVE",
    }
)
MAX_WAIT_MS = 5000  # the protocol's cap on MaximumWaitTime
# How a server that throttles failed logins starts its ErrorMessage: the call was refused before any
# other work, so it is retried like a busy seat instead of ending the bot's play.
THROTTLED = "too many failed logins"


class ProtocolError(RuntimeError):
    """A call that could not be completed: retries used up, or an answer that is not the protocol's."""


class ServerUnreachable(ProtocolError):
    """No server answered at the base URL on the first call: not running, or the URL is wrong."""


class OutcomeUnknown(ProtocolError):
    """A non-idempotent call (MakeMove) may or may not have reached the server; resync before resending."""


class _Retryable(Exception):
    def __init__(self, reason: str, answer: Answer | None = None, *, maybe_processed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.answer = answer
        self.maybe_processed = maybe_processed  # the server may have acted on the request


# Raised before the request can have left this machine: always safe to retry.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


# No connection was made at all: before the server has ever answered, a wrong URL or a stopped server.
_NO_CONNECTION = (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol)


@dataclass(frozen=True)
class Answer:
    call: str
    result: str
    body: dict[str, Any] = field(repr=False)
    elapsed_s: float  # the last attempt's round trip (for long polls it includes the server's hold)
    attempts: int = 1
    retried_after: tuple[str, ...] = ()  # why earlier attempts were retried, oldest first

    @property
    def game_state(self) -> dict[str, Any] | None:
        """The answer's GameState, checked when the answer came (`ArenaClient` raises ProtocolError for one that
        is not a gamestate); None when there is none."""
        state = self.body.get("GameState")
        return state if isinstance(state, dict) else None

    @property
    def player_key(self) -> str | None:
        key = self.body.get("PlayerKey")
        return key if isinstance(key, str) and key else None

    @property
    def error_message(self) -> str:
        return str(self.body.get("ErrorMessage") or "")

    def describe(self) -> str:
        extra = f" ({self.error_message})" if self.error_message else ""
        return f"{self.call} answered {self.result}{extra}"


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff: a random wait in [0, min(max_wait_s, first_wait_s * 2**n)] before retry n ("full jitter")."""

    first_wait_s: float = 0.05
    max_wait_s: float = 2.0
    max_attempts: int = 30  # give_up_after_s is the real bound; a busy seat may answer CALL_ALREADY_IN_PROCESS for 5 s
    give_up_after_s: float = 60.0
    request_timeout_s: float = 10.0  # per attempt, on top of a long poll's MaximumWaitTime


class _StopPastDeadline(stop_base):
    """Stop retrying when the next wait would end past the move's deadline."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        upcoming = retry_state.upcoming_sleep or 0.0
        return self.deadline is not None and time.monotonic() + upcoming >= self.deadline


class ArenaClient:
    """One bot's connection to an arena base URL (ending in /prod/); use as a context manager."""

    def __init__(
        self,
        base_url: str,
        credentials: Credentials,
        *,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = protocol_base(base_url)
        self.credentials = credentials
        self.policy = policy or RetryPolicy()
        self._sleep = sleep
        self._http = self._new_http()
        # Round trips of calls the server does not hold (MakeMove, zero-wait polls...): the network's share.
        self.round_trips: deque[float] = deque(maxlen=32)
        self.answered = False  # has the server ever answered? Until then, connection failures are not retried.

    def __enter__(self) -> ArenaClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _new_http(self) -> httpx.Client:
        return capped_client(GAMESTATE_BYTES, base_url=self.base_url, headers={"Content-Type": "application/json"})

    def _renew_http(self) -> None:
        stuck, self._http = self._http, self._new_http()
        threading.Thread(target=stuck.close, daemon=True, name="close-stuck").start()

    def close(self) -> None:
        self._http.close()

    def __repr__(self) -> str:
        return f"ArenaClient({self.base_url!r}, bot {self.credentials.bot_id!r})"

    # --- the five calls -----------------------------------------------------------------------

    def game_styles(self, game_type_id: int | None = None) -> Answer:
        return self._call("GM-GetListOfGameStyles", {"GameTypeId": game_type_id}, hold_ms=0)

    def offer_game(
        self,
        game_style_id: int,
        *,
        opponent_id: str | None = None,
        max_wait_ms: int = MAX_WAIT_MS,
        dont_play_same_user: bool = False,
        dont_play_same_bot: bool = False,
    ) -> Answer:
        wait_ms = _clamp_wait(max_wait_ms)
        fields = {
            "MaximumWaitTime": wait_ms,
            "GameStyleId": game_style_id,
            "DontPlayAgainstSameUser": dont_play_same_user,
            "DontPlayAgainstSameBot": dont_play_same_bot,
            "OpponentId": opponent_id or None,
        }
        return self._call("GM-OfferGame", fields, hold_ms=wait_ms)

    def poll(self, player_key: str, max_wait_ms: int = MAX_WAIT_MS) -> Answer:
        wait = _clamp_wait(max_wait_ms)
        fields = {"MaximumWaitTime": wait, "PlayerKey": player_key}
        # A retried poll asks for the state at once: the lost answer may have been the news of our
        # turn, and a server that counts it as told would otherwise hold us past our deadline.
        return self._call("GM-PollForGameState", fields, hold_ms=wait, on_retry={"MaximumWaitTime": 0})

    def make_move(self, player_key: str, move: dict[str, Any], *, deadline: float | None = None) -> Answer:
        """Send a move; with `deadline` (time.monotonic()), no attempt or backoff runs past it."""
        fields = {"PlayerKey": player_key, "Move": move}
        return self._call("GM-MakeMove", fields, hold_ms=0, deadline=deadline, idempotent=False)

    def cancel_offer(self, player_key: str) -> Answer:
        return self._call("GM-CancelGameOffer", {"PlayerKey": player_key}, hold_ms=0)

    # --- one call with retries ----------------------------------------------------------------

    def _retrying(
        self,
        may_retry: Callable[[BaseException], bool],
        note_retry: Callable[[RetryCallState], None],
        past_deadline: _StopPastDeadline,
    ) -> Retrying:
        """The policy's retries with full-jitter backoff, stopping at its limits or past the move's deadline."""
        policy = self.policy
        return Retrying(
            retry=retry_if_exception(may_retry),
            wait=full_jitter(multiplier=policy.first_wait_s, max=policy.max_wait_s),
            stop=stop_any(
                stop_after_attempt(policy.max_attempts), stop_after_delay(policy.give_up_after_s), past_deadline
            ),
            before_sleep=note_retry,
            sleep=self._sleep,
            reraise=True,
        )

    def _call(
        self,
        call: str,
        fields: dict[str, Any],
        *,
        hold_ms: int,
        deadline: float | None = None,
        idempotent: bool = True,
        on_retry: dict[str, Any] | None = None,
    ) -> Answer:
        body = {"BotId": self.credentials.bot_id, "BotPassword": self.credentials.password, **fields}
        hold = [hold_ms]
        policy = self.policy
        reasons: list[str] = []

        past_deadline = _StopPastDeadline(deadline)

        def note_retry(state: RetryCallState) -> None:
            error = state.outcome.exception() if state.outcome else None
            reason = error.reason if isinstance(error, _Retryable) else repr(error)
            reasons.append(reason)
            if on_retry:
                body.update(on_retry)
                hold[0] = int(body.get("MaximumWaitTime", hold_ms))
            wait = state.upcoming_sleep or 0.0
            if state.attempt_number == 1 and reason != "CALL_ALREADY_IN_PROCESS":
                log.warning("%s: %s; retrying with backoff (up to %.0f s)", call, reason, policy.give_up_after_s)
            else:
                log.info("%s: %s; retry %d in %.2f s", call, reason, state.attempt_number, wait)

        def may_retry(error: BaseException) -> bool:
            return isinstance(error, _Retryable) and (idempotent or not error.maybe_processed)

        retrying = self._retrying(may_retry, note_retry, past_deadline)
        attempts = 0
        try:
            for attempt in retrying:
                with attempt:
                    attempts += 1
                    answer = self._attempt(call, body, hold[0], deadline)
                    if reasons and reasons[0] != "CALL_ALREADY_IN_PROCESS":
                        log.warning("%s: the server answers again (after %d attempts)", call, attempts)
                    return Answer(call, answer.result, answer.body, answer.elapsed_s, attempts, tuple(reasons))
        except _Retryable as final:
            if final.maybe_processed and not idempotent:
                raise OutcomeUnknown(f"{call}: {final.reason}; the server may have acted on it") from None
            if final.answer is not None:
                # The server keeps answering CALL_ALREADY_IN_PROCESS: hand that back, the caller resyncs.
                a = final.answer
                return Answer(call, a.result, a.body, a.elapsed_s, attempts, tuple(reasons))
            raise ProtocolError(f"{call} failed after {attempts} attempt(s): {final.reason}") from None
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover

    def _attempt(self, call: str, body: dict[str, Any], hold_ms: int, deadline: float | None) -> Answer:
        timeout = hold_ms / 1000 + self.policy.request_timeout_s
        if deadline is not None:
            timeout = min(timeout, max(0.001, deadline - time.monotonic()))
        started = time.monotonic()
        try:
            # Each read has `timeout`; the whole answer gets one more request timeout (a trickling server).
            whole = timeout + self.policy.request_timeout_s
            response = call_within(whole, self._http.post, call, json=body, timeout=timeout)
        except AnswerRefused as error:  # asking again would only read the same flood again
            raise ProtocolError(f"{call}: {error}") from None
        except AnswerTooSlow as error:
            self._renew_http()  # its connection may still be read by the abandoned call
            raise _Retryable(f"{error} (the server sent it too slowly)", maybe_processed=True) from None
        except httpx.TransportError as error:
            if not self.answered and isinstance(error, _NO_CONNECTION):
                raise ServerUnreachable(unreachable_message(self.base_url, error, timeout)) from None
            reason = _transport_reason(error)
            raise _Retryable(reason, maybe_processed=not isinstance(error, _NOT_SENT)) from None
        self.answered = True
        elapsed = time.monotonic() - started
        if response.status_code >= 500:
            raise _Retryable(f"HTTP {response.status_code}", maybe_processed=True)
        try:
            data = bounded_json.loads(response.content)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("Result"), str):
            snippet = response.text[:120].replace("\n", " ")
            if response.status_code == 404:
                raise ProtocolError(
                    f"{self.base_url}{call} does not exist (HTTP 404): is {self.base_url} the arena's base URL?"
                    " It usually ends in /prod/."
                )
            if response.status_code >= 400:
                raise ProtocolError(f"{call}: HTTP {response.status_code} without a protocol answer: {snippet!r}")
            raise _Retryable(
                f"HTTP {response.status_code} answer is not a protocol JSON object: {snippet!r}", maybe_processed=True
            )
        if hold_ms == 0:
            self.round_trips.append(elapsed)
        _check_game_state(call, data)
        answer = Answer(call, data["Result"], data, elapsed)
        if answer.result == "CALL_ALREADY_IN_PROCESS":
            raise _Retryable("CALL_ALREADY_IN_PROCESS", answer)
        if answer.result == "INVALID_LOGIN_OR_PASSWORD" and answer.error_message.startswith(THROTTLED):
            raise _Retryable(f"login throttled ({answer.error_message})", answer)
        if answer.result not in RESULTS:
            log.warning("%s: unknown Result %r, passed on as is", call, answer.result)
        return answer


def _check_game_state(call: str, data: dict[str, Any]) -> None:
    """A GameState that is not the protocol's gamestate (rummy.messages) ends the call: the server would send
    the same again, and a bot must not be handed it. The message names the field and what it must be."""
    if data.get("GameState") is not None:
        try:
            check(Gamestate, data["GameState"], "GameState")
        except MessageError as error:
            raise ProtocolError(f"{call}: the answer's GameState is not the protocol's: {error}") from None


def unreachable_message(base_url: str, error: httpx.TransportError, timeout_s: float) -> str:
    """What a first failed connection means, in the user's terms (no library text, no links)."""
    text = str(error).lower()
    if "refused" in text:
        local = httpx.URL(base_url).host in ("127.0.0.1", "localhost", "::1")
        hint = " (start one with `rummy-vision serve`)" if local else ""
        return f"connection refused at {base_url}: is the server running?{hint}"
    if "name or service" in text or "nodename" in text or "getaddrinfo" in text or "resolve" in text:
        return f"cannot find the host of {base_url}: check the base URL"
    if isinstance(error, httpx.TimeoutException):
        return f"no answer from {base_url} within {timeout_s:.0f} s: check the base URL and the network"
    if isinstance(error, httpx.UnsupportedProtocol):
        return f"{base_url} is not an http:// or https:// URL"
    return f"cannot reach {base_url}: {_transport_reason(error)}"


def _transport_reason(error: httpx.TransportError) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _clamp_wait(max_wait_ms: int) -> int:
    return max(0, min(MAX_WAIT_MS, int(max_wait_ms)))
