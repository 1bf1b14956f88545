"""The protocol loop: offer a game, wait for it, play it to the end, offer again while games are wanted.

Each turn the bot runs under its budget (bot/players/deadline.py); whatever goes wrong with its answer, a
safe legal move goes out in time instead. Ambiguous outcomes (a lost answer, NOT_YOUR_MOVE, an
INVALID_MOVE after a retried send, CALL_ALREADY_IN_PROCESS that never cleared) are resolved by
asking the server for the current gamestate: if the turn moved on, the move went through.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx

from bot.client.protocol_client import MAX_WAIT_MS, Answer, ArenaClient, ProtocolError
from bot.players.deadline import Budget, as_sent, hand_ids, move_budget, safe_moves
from bot.players.faults import Fault, FaultLog, fault_from_problem
from bot.players.match_bots import MatchBot, Mover
from bot.replay.recording import MatchRecorder
from recognizers.live import LOOPBACK_HOSTS
from rummy import bounded_json
from rummy.capped_http import RECORD_BYTES, capped_client
from rummy.moves import Move

log = logging.getLogger("bot.runner")

MAX_SENDS_PER_TURN = 6
STRICT_ASKS_PER_TURN = 20  # --strict: asks of a bot whose moves keep being refused, within the deadline
LATE_SEND_WINDOW_S = 1.0  # how long a send may keep retrying once our deadline estimate has passed
GIVE_UP_PAUSE_S = 0.2  # after a turn where nothing was accepted, before looking at the game again
FATAL_RESULTS = frozenset(
    {"INVALID_LOGIN_OR_PASSWORD", "BOT_IS_SUSPENDED", "BOT_IS_INACTIVE", "INSUFFICIENT_BALANCE", "GAME_ALREADY_STARTED"}
)


class PlayError(RuntimeError):
    """The arena refused to play (bad login, suspended bot, no balance, unknown opponent...)."""


@dataclass(frozen=True)
class PlayOptions:
    game_style_id: int
    opponent_id: str | None = None
    games: int | None = 1  # None: keep playing until stopped
    record_dir: Path | None = None
    move_time_s: float | None = None  # from the game style, when known
    wait_ms: int = MAX_WAIT_MS  # MaximumWaitTime of offers and polls
    dont_play_same_user: bool = False
    dont_play_same_bot: bool = False
    # A faulty move gets what the arena gives it: sent as it is (INVALID_MOVE), the bot asked again, and no
    # safe move ever, so a bot with no valid move by the deadline loses on time. Default: safe replacements.
    strict: bool = False


@dataclass(frozen=True)
class MatchSummary:
    game_id: int | None
    opponent_id: str
    status: str  # the final GameStatus, or ABORTED
    my_score: int
    opp_score: int
    moves: int
    fallbacks: int
    duration_s: float
    record_path: str | None = None
    error: str | None = None
    cards_seen: int = 0  # cards our strategy's recognizer was asked about (0 for a bot file)
    cards_unknown: int = 0  # of those, the ones it left unknown
    unknown_reasons: dict[str, int] = field(default_factory=dict)  # why: each reason with its count of cards
    opponent_note: str | None = None  # a local house bot could not choose its moves (the referee's records say)
    faults: int = 0  # the bot's moves the arena would not play (malformed, illegal, raised, late, refused)
    # Moves decided on a belief whose evidence contradicted itself (its recognizer wrong where its error model says
    # it cannot be), and the belief's first note on it.
    contradicted: int = 0
    contradiction: str = ""

    @property
    def unknown_share(self) -> float | None:
        """The share of the cards it saw that our recognizer left unknown; None when it saw none."""
        return self.cards_unknown / self.cards_seen if self.cards_seen else None

    def to_json(self) -> dict[str, Any]:
        share = self.unknown_share
        return {**self.__dict__, "unknown_share": None if share is None else round(share, 4)}


class Observer(Protocol):
    """Progress callbacks, for the live status line and JSON output."""

    def waiting(self, games_done: int) -> None: ...

    def gamestate(self, gamestate: dict[str, Any]) -> None: ...

    def moved(self, move: dict[str, Any], source: str, reason: str, result: str) -> None: ...

    def match_ended(self, summary: MatchSummary) -> None: ...


class SilentObserver:
    def waiting(self, games_done: int) -> None:
        pass

    def gamestate(self, gamestate: dict[str, Any]) -> None:
        pass

    def moved(self, move: dict[str, Any], source: str, reason: str, result: str) -> None:
        pass

    def match_ended(self, summary: MatchSummary) -> None:
        pass


def turn_fingerprint(state: dict[str, Any]) -> tuple[Any, ...]:
    """What changes whenever any move is accepted: used to tell whether a move went through."""
    return (
        state.get("GameStatus"),
        state.get("RemainingRounds"),
        state.get("RemainingMoves"),
        state.get("IsMover"),
        tuple(sorted(hand_ids(state, "MyHand"))),
        tuple(sorted(hand_ids(state, "OppHand"))),
    )


@dataclass(frozen=True)
class _Sent:
    move: Move
    source: str  # "bot" or "fallback"
    reason: str  # why a fallback was used
    think_s: float | None
    answer: Answer | None
    error: str | None  # why there is no answer
    log: str = ""  # what the bot printed while choosing the move (kept with the move in the replay file)


@dataclass
class _Match:
    player_key: str
    state: dict[str, Any]
    received: float
    recorder: MatchRecorder | None
    started: float = field(default_factory=time.monotonic)
    moves: int = 0
    fallbacks: int = 0
    guard: Mover | None = None  # the match's bot, to record the labels it used
    faults: int = 0  # see MatchSummary.faults
    gave_up: tuple[Any, ...] | None = None  # --strict: the turn (fingerprint) we have no valid move for


class Runner:
    """Plays `options.games` matches (or until `stop` is set) with `bot` through `client`."""

    def __init__(
        self,
        client: ArenaClient,
        bot: MatchBot,
        options: PlayOptions,
        *,
        observer: Observer | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.client = client
        self.bot = bot
        self.options = options
        self.observer = observer or SilentObserver()
        self.stop = stop or threading.Event()
        # "offering" while the offer call is out, "waiting" while polls wait for an opponent (Ctrl-C
        # cancels the offer), "playing" during a match.
        self.phase = "idle"
        self.finished: list[MatchSummary] = []  # kept here too, so an interrupted run still has its results
        self.faults = FaultLog()  # the bot's faults over the whole run: each shown in full once, then counted
        self._last_log = ""  # what the bot printed for the move `_candidates` gave last

    def run(self) -> list[MatchSummary]:
        summaries = self.finished
        try:
            while (self.options.games is None or len(summaries) < self.options.games) and not self.stop.is_set():
                self.observer.waiting(len(summaries))
                found = self.find_match()
                if found is None:
                    break
                summaries.append(self.play_match(*found))
        finally:
            self.bot.close()
            self._report_repeats()
        self.phase = "idle"
        return summaries

    # --- finding a match ----------------------------------------------------------------------

    def find_match(self) -> tuple[str, Answer] | None:
        """Offer a game and wait for an opponent; None when stopped. Ctrl-C cancels the offer and re-raises.

        The offer itself does not wait (MaximumWaitTime 0), so its PlayerKey is known at once and an
        interrupt during the long polls that follow can always cancel it.
        """
        self.phase = "offering"
        opts = self.options
        self.bot.warm()  # a bot file loads (import-time code included) while the offer waits
        answer = self.client.offer_game(
            opts.game_style_id,
            opponent_id=opts.opponent_id,
            max_wait_ms=0,
            dont_play_same_user=opts.dont_play_same_user,
            dont_play_same_bot=opts.dont_play_same_bot,
        )
        key = answer.player_key
        if answer.result not in ("SUCCESS", "WAITING_FOR_GAME") or key is None:
            raise PlayError(f"could not offer a game: {answer.describe()}")
        # Logged while Ctrl-C still only sets `stop`: an interrupt cannot land inside this call.
        log.info("offered a game of style %d; waiting for an opponent", opts.game_style_id)
        self.phase = "waiting"
        try:
            while answer.result != "SUCCESS" or answer.game_state is None:
                if self.stop.is_set():
                    self._cancel(key)
                    return None
                if answer.result not in ("SUCCESS", "WAITING_FOR_GAME"):
                    raise PlayError(f"the game offer failed: {answer.describe()}")
                answer = self.client.poll(key, opts.wait_ms)
        except KeyboardInterrupt:
            self._cancel(key)
            raise
        self.phase = "playing"
        return key, answer

    def _cancel(self, key: str) -> None:
        try:
            answer = self.client.cancel_offer(key)
            log.info("cancelled the game offer: %s", answer.result)
        except ProtocolError as error:
            log.warning("could not cancel the game offer: %s", error)

    # --- playing one match --------------------------------------------------------------------

    def play_match(self, player_key: str, first: Answer) -> MatchSummary:
        state = first.game_state
        assert state is not None
        match = _Match(player_key, state, time.monotonic(), self._open_recorder(state))
        self._saw(match, first)
        guard: Mover | None = None
        try:
            guard = self.bot.new_match(copy.deepcopy(state))
            match.guard = guard
        except Exception as error:  # a broken bot file or recognizer still plays safe moves
            why = f"{type(error).__name__}: {error}"
            self._note(match, f"the bot could not start this match ({why}); playing safe moves")
        if self.options.games is None or len(self.finished) + 1 < self.options.games:
            self.bot.warm()  # the next match's bot file loads during this match, ready for its first move
        error_text: str | None = None
        try:
            while match.state.get("GameStatus") == "RUNNING":
                if match.state.get("IsMover") and match.gave_up == turn_fingerprint(match.state):
                    # --strict, no valid move: wait for the referee to end the match on time, as the arena does
                    self.stop.wait(GIVE_UP_PAUSE_S)
                    self._saw(match, self.client.poll(player_key, 0))
                elif match.state.get("IsMover") and self.options.strict:
                    self._take_turn_strictly(match, guard)
                elif match.state.get("IsMover"):
                    self._take_turn(match, guard)
                else:
                    if guard is not None:  # label the cards in view while the opponent thinks
                        guard.label_view(match.state, self._labels_recorder(match))
                    self._saw(match, self.client.poll(player_key, self.options.wait_ms))
        except (ProtocolError, PlayError) as error:
            error_text = str(error)
            self._note(match, f"match aborted: {error_text}")
        finally:
            if guard is not None:
                self.bot.end_match(guard)
        return self._finish(match, error_text)

    def _saw(self, match: _Match, answer: Answer) -> None:
        """Take in a poll's or move's answer: a new gamestate, the end, or a reason to stop."""
        if answer.result in ("INVALID_PLAYER_KEY", *FATAL_RESULTS):
            raise PlayError(answer.describe())
        state = answer.game_state
        if state is None:
            if answer.result == "GAME_HAS_ENDED":
                raise PlayError("the server says the game has ended but sent no final gamestate")
            return  # nothing new (e.g. CALL_ALREADY_IN_PROCESS that never cleared): poll again
        match.state, match.received = state, time.monotonic()
        if match.recorder:
            match.recorder.gamestate(answer.call, answer.result, state)
        self.observer.gamestate(state)

    @staticmethod
    def _labels_recorder(match: _Match) -> Callable[[dict[int, str]], None] | None:
        """Where the labels of the gamestate in hand go: a labels line naming its round (they may come late,
        from a background thread), or nowhere when the match is not recorded."""
        recorder = match.recorder
        if recorder is None:
            return None
        remaining_rounds = int(match.state.get("RemainingRounds") or 0)
        return lambda labels: recorder.labels(remaining_rounds, labels)

    def _take_turn(self, match: _Match, guard: Mover | None) -> None:
        state = match.state
        budget = move_budget(
            state, received=match.received, round_trips=self.client.round_trips, move_time_s=self.options.move_time_s
        )
        candidates = self._candidates(state, guard, budget)
        move, source, reason, think_s = next(candidates)
        bot_log = self._last_log  # the bot's prints while it chose: kept with the first send of the turn
        fingerprint = turn_fingerprint(state)
        for _ in range(MAX_SENDS_PER_TURN):
            answer, error = self._send(match.player_key, move, budget)
            sent = _Sent(move, source, reason, think_s, answer, error, bot_log)
            bot_log = ""
            if answer is not None and answer.result in ("INVALID_PLAYER_KEY", *FATAL_RESULTS):
                self._record_move(match, sent, budget, applied=False, made_on=state)
                self._saw(match, answer)  # raises PlayError
            if answer is not None and answer.result in ("SUCCESS", "GAME_HAS_ENDED") and answer.game_state:
                self._record_move(match, sent, budget, applied=answer.result == "SUCCESS", made_on=state)
                self._saw(match, answer)
                if answer.result == "GAME_HAS_ENDED":
                    ended = answer.game_state.get("GameStatus")
                    self._note(match, f"the move arrived after the match had ended ({ended}); it was not played")
                return
            # Unclear or refused: ask the server where the game stands.
            self._saw(match, self.client.poll(match.player_key, 0))
            moved_on = turn_fingerprint(match.state) != fingerprint
            forfeited = match.state.get("GameStatus") == "LOST_BY_TIMEOUT"
            self._record_move(match, sent, budget, applied=moved_on and not forfeited, made_on=state)
            if moved_on:
                return  # the move went through (its answer was lost), or the game moved on without it
            if answer is not None and answer.result == "INVALID_MOVE":
                why = f"the server answered INVALID_MOVE to {move.to_json()}"
                if answer.error_message:
                    why += f" ({answer.error_message})"
                try:
                    move, source, _, think_s = next(candidates)
                except StopIteration:
                    break
                reason = why
                log.warning("fallback move %s: %s", move.to_json(), reason)
            # Otherwise the same move goes again: the server has not played it.
        self._note(match, "no move was accepted this turn; waiting for the server to move the game on")
        time.sleep(GIVE_UP_PAUSE_S)

    def _take_turn_strictly(self, match: _Match, guard: Mover | None) -> None:
        """--strict: the bot's move goes as it is, even malformed; INVALID_MOVE asks the bot again, until the
        deadline. Never a safe move: with no valid move in time the referee ends the match on time."""
        state = match.state
        budget = move_budget(
            state, received=match.received, round_trips=self.client.round_trips, move_time_s=self.options.move_time_s
        )
        fingerprint = turn_fingerprint(state)
        for _ in range(STRICT_ASKS_PER_TURN):
            if guard is None or time.monotonic() >= budget.deadline:
                break
            outcome = guard.run(copy.deepcopy(state), budget)
            if outcome.move is None:
                match.faults += 1
                self._fault(outcome.fault or fault_from_problem(outcome.problem), strict=True)
                raw = as_sent(outcome.raw)
                if raw is None:  # it raised or overran: the arena has nothing to send
                    self._note(match, f"--strict: no move sent ({outcome.problem})")
                    break
                move_json: Any = raw
            else:
                move_json = outcome.move.to_json()
            try:
                answer = self.client.make_move(match.player_key, move_json, deadline=budget.deadline)
            except ProtocolError as error:
                self._record_raw(match, move_json, "NO_ANSWER", str(error), budget, outcome.think_s, log=outcome.log)
                self._saw(match, self.client.poll(match.player_key, 0))
                if turn_fingerprint(match.state) != fingerprint:
                    return
                continue
            if answer.result in ("INVALID_PLAYER_KEY", *FATAL_RESULTS):
                self._saw(match, answer)  # raises PlayError
            if answer.result in ("SUCCESS", "GAME_HAS_ENDED") and answer.game_state:
                applied = answer.result == "SUCCESS"
                if applied:
                    match.moves += 1
                self._record_raw(
                    match, move_json, answer.result, None, budget, outcome.think_s, applied=applied, log=outcome.log
                )
                self._saw(match, answer)
                return
            why = answer.error_message or answer.result
            if outcome.move is not None:  # a well-formed move the referee refused all the same
                match.faults += 1
                self._fault(fault_from_problem(f"the server answered {answer.result}: {why}"), strict=True)
            self._record_raw(match, move_json, answer.result, why, budget, outcome.think_s, log=outcome.log)
            if answer.game_state:
                self._saw(match, answer)
            if turn_fingerprint(match.state) != fingerprint:
                return
        match.gave_up = fingerprint
        self._note(match, "--strict: no valid move by the deadline; the referee ends the match on time")

    def _record_raw(
        self,
        match: _Match,
        move: Any,
        result: str,
        error: str | None,
        budget: Budget,
        think_s: float | None,
        *,
        applied: bool = False,
        log: str = "",
    ) -> None:
        if match.recorder:
            match.recorder.move(
                move=move,
                source="bot",
                reason="" if applied else "--strict: sent as the bot answered it",
                result=result,
                applied=applied,
                error=error,
                think_ms=None if think_s is None else round(think_s * 1000, 1),
                rtt_ms=None,
                budget_ms=round((budget.send_by - budget.received) * 1000, 1),
                attempts=None,
                retried_after=[],
                labels={str(card_id): name for card_id, name in match.guard.labels().items()} if match.guard else {},
                response_deadline=budget.response_deadline,
                **({"log": log} if log else {}),
            )
        self.observer.moved(move if isinstance(move, dict) else {"Raw": move}, "bot", error or "", result)

    def _candidates(
        self, state: dict[str, Any], guard: Mover | None, budget: Budget
    ) -> Iterator[tuple[Move, str, str, float | None]]:
        """The bot's move if it gave a usable one in time, then safe moves (each with why it is used)."""
        problem = "the bot could not start this match"
        self._last_log = ""
        if guard is not None:
            outcome = guard.run(copy.deepcopy(state), budget)
            self._last_log = outcome.log
            if outcome.move is not None:
                yield outcome.move, "bot", "", outcome.think_s
                problem = "the server refused the bot's move"
            else:
                problem = outcome.problem
                self._fault(outcome.fault or fault_from_problem(problem))
        for move in safe_moves(state):
            yield move, "fallback", problem, None

    def _send(self, key: str, move: Move, budget: Budget) -> tuple[Answer | None, str | None]:
        # Our idea of the deadline may be off (clock skew): past it, a late move still beats none.
        deadline = max(budget.deadline, time.monotonic() + LATE_SEND_WINDOW_S)
        try:
            return self.client.make_move(key, move.to_json(), deadline=deadline), None
        except ProtocolError as error:
            return None, str(error)

    def _record_move(
        self, match: _Match, sent: _Sent, budget: Budget, *, applied: bool, made_on: dict[str, Any] | None = None
    ) -> None:
        """Record one send; `applied` says whether the server played it (known directly or by resync).
        `made_on` is the gamestate the move was made on: its round names the labels' round even when the
        next round's gamestate was recorded first (an answer lost, then asked for)."""
        answer = sent.answer
        result = answer.result if answer is not None else "NO_ANSWER"
        if applied:
            match.moves += 1
            match.fallbacks += sent.source == "fallback"
        if match.recorder:
            match.recorder.move(
                move=sent.move.to_json(),
                source=sent.source,
                reason=sent.reason,
                result=result,
                applied=applied,
                error=sent.error,
                think_ms=None if sent.think_s is None else round(sent.think_s * 1000, 1),
                rtt_ms=None if answer is None else round(answer.elapsed_s * 1000, 1),
                budget_ms=round((budget.send_by - budget.received) * 1000, 1),
                attempts=None if answer is None else answer.attempts,
                retried_after=[] if answer is None else list(answer.retried_after),
                labels={str(card_id): name for card_id, name in match.guard.labels().items()} if match.guard else {},
                remaining_rounds=int((made_on or match.state).get("RemainingRounds") or 0),
                response_deadline=budget.response_deadline,
                **({"log": sent.log} if sent.log else {}),
            )
        self.observer.moved(sent.move.to_json(), sent.source, sent.reason, result)

    def _fault(self, fault: Fault, *, strict: bool = False) -> None:
        """The first time a fault is seen, show it whole (with the traceback into the bot's file); then count it."""
        what = "the arena's answer (--strict) to the bot's move" if strict else "a safe move replaced the bot's"
        if self.faults.add(fault):
            details = f"\n{fault.traceback}" if fault.traceback else ""
            log.warning("%s: %s%s", what, fault.summary, details)
        else:
            log.info("%s again: %s", what, fault.summary)

    def _report_repeats(self) -> None:
        for fault, count in self.faults.entries():
            if count > 1:
                log.warning("%s: %d times in all (shown in full the first time)", fault.summary, count)

    def _note(self, match: _Match, message: str) -> None:
        log.warning("%s", message)
        if match.recorder:
            match.recorder.note(message)

    def _open_recorder(self, state: dict[str, Any]) -> MatchRecorder | None:
        if self.options.record_dir is None:
            return None
        header = {
            "game_id": state.get("GameId"),
            "bot_id": self.client.credentials.bot_id,
            "opponent_id": state.get("OpponentId"),
            "bot": self.bot.label,
            "recognizer": self.bot.recognizer,
            "base_url": self.client.base_url,
            "game_style_id": self.options.game_style_id,
            "move_time_ms": None if self.options.move_time_s is None else round(self.options.move_time_s * 1000),
        }
        return MatchRecorder.open(self.options.record_dir, header)

    def _finish(self, match: _Match, error: str | None) -> MatchSummary:
        state = match.state
        status = str(state.get("GameStatus")) if error is None else "ABORTED"
        unknown, seen = match.guard.cards_unknown() if match.guard is not None else (0, 0)
        summary = MatchSummary(
            game_id=state.get("GameId"),
            opponent_id=str(state.get("OpponentId", "")),
            status=status,
            my_score=int(state.get("MyScore") or 0),
            opp_score=int(state.get("OppScore") or 0),
            moves=match.moves,
            fallbacks=match.fallbacks,
            duration_s=round(time.monotonic() - match.started, 3),
            record_path=str(match.recorder.path) if match.recorder else None,
            error=error,
            cards_seen=seen,
            cards_unknown=unknown,
            unknown_reasons=match.guard.unknown_reasons() if match.guard is not None else {},
            opponent_note=house_note(self.client.base_url, state.get("GameId"), str(state.get("OpponentId", ""))),
            faults=match.faults if self.options.strict else match.fallbacks,
            **_contradictions(match.guard),
        )
        if match.recorder:
            match.recorder.end(
                game_id=summary.game_id,
                status=summary.status,
                my_score=summary.my_score,
                opp_score=summary.opp_score,
                moves=summary.moves,
                fallbacks=summary.fallbacks,
                duration_s=summary.duration_s,
            )
            match.recorder.close()
        self.observer.match_ended(summary)
        return summary


def house_note(base_url: str, game_id: Any, opponent: str) -> str | None:
    """What the local referee's records say about a house bot that could not choose its moves in the match
    (kept as its moves' ErrorMessage), or None. Asked of a loopback server only: the arena has no house bots."""
    if not opponent.startswith("housebot-") or not isinstance(game_id, int):
        return None
    if (urlsplit(base_url).hostname or "") not in LOOPBACK_HOSTS:
        return None
    root = base_url.rstrip("/").removesuffix("/prod")
    try:
        with capped_client(RECORD_BYTES, whole_s=15.0, timeout=5.0) as http:
            record = bounded_json.loads(http.get(f"{root}/games/{game_id}").content)
    except (httpx.HTTPError, ValueError):
        return None
    moves = record.get("Moves") if isinstance(record, dict) else None
    for move in moves if isinstance(moves, list) else []:
        if isinstance(move, dict) and move.get("Bot") == opponent and move.get("Applied") and move.get("ErrorMessage"):
            return str(move["ErrorMessage"])
    return None


def _contradictions(guard: Any) -> dict[str, Any]:
    """What the guard's strategy said of beliefs that contradicted themselves this match (none for a bot file)."""
    said = getattr(guard, "contradictions", None)
    moves, note = said() if callable(said) else (0, "")
    return {"contradicted": moves, "contradiction": note}
