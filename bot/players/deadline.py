"""Run a bot under a time budget and always have a legal move to send.

The budget: the move must arrive by `ResponseDeadline` (server epoch ms). We keep back a safety
margin for the network: room for the move's round trip plus one more (a fallback after an
`INVALID_MOVE`), measured from recent round trips. When the game style's move time is known, the
deadline is also capped at receipt time + move time, which guards against a local clock that
runs behind the server's.

The bot runs in a daemon thread: a bot that sleeps or hangs is abandoned when its budget ends
(Python cannot kill a thread; an abandoned call keeps running in the background, and the bot is
not called again until it returns, so module globals are never used by two calls at once).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.players.faults import Fault, fault_from_exception, fault_from_problem, source_file
from bot.players.view_labels import RecordLabels, ViewLabeller
from rummy.moves import Give, Lay, MalformedMove, Move, Take, parse_move

log = logging.getLogger("bot.deadline")

MIN_MARGIN_S = 0.12  # even on loopback: thread hand-over, JSON, scheduling hiccups
MAX_MARGIN_SHARE = 0.6  # never keep back more than this share of the move time
RTT_FACTOR = 2.5  # one round trip for the move, one for a possible fallback, and slack


def safety_margin_s(round_trips: Iterable[float], move_time_s: float | None = None) -> float:
    """Time to keep back for the network: RTT_FACTOR x the slowest recent round trip, at least MIN_MARGIN_S."""
    samples = sorted(round_trips)
    slow = samples[int(0.9 * (len(samples) - 1))] if samples else 0.25
    margin = max(MIN_MARGIN_S, RTT_FACTOR * slow + 0.03)
    if move_time_s:
        margin = min(margin, max(MIN_MARGIN_S, MAX_MARGIN_SHARE * move_time_s))
    return margin


@dataclass(frozen=True)
class Budget:
    send_by: float  # time.monotonic() by which the move must be sent (deadline minus one round trip margin)
    received: float  # time.monotonic() at which the gamestate arrived
    deadline: float  # time.monotonic() at which the server's deadline passes, as best we know
    margin_s: float
    response_deadline: int | None = None  # the gamestate's ResponseDeadline (server epoch ms), for records

    def left(self) -> float:
        return self.send_by - time.monotonic()


def move_budget(
    gamestate: Mapping[str, Any],
    *,
    received: float,
    round_trips: Iterable[float],
    move_time_s: float | None = None,
) -> Budget:
    """The budget for answering `gamestate`, received at time.monotonic() `received`."""
    now_mono, now_epoch = time.monotonic(), time.time()
    deadline_ms = gamestate.get("ResponseDeadline")
    candidates = []
    if isinstance(deadline_ms, int | float) and not isinstance(deadline_ms, bool) and deadline_ms > 0:
        candidates.append(now_mono + (deadline_ms / 1000 - now_epoch))
    if move_time_s:
        candidates.append(received + move_time_s)
    deadline = min(candidates) if candidates else received + 10.0
    margin = safety_margin_s(round_trips, move_time_s)
    server_deadline = int(deadline_ms) if candidates and deadline_ms else None
    return Budget(
        send_by=deadline - margin,
        received=received,
        deadline=deadline,
        margin_s=margin,
        response_deadline=server_deadline,
    )


# --- checking and replacing moves ---------------------------------------------------------------


def hand_ids(gamestate: Mapping[str, Any], key: str) -> list[int]:
    return [card[0] for card in gamestate.get(key) or [] if isinstance(card, list | tuple) and card]


def check_move(raw: Any, gamestate: Mapping[str, Any]) -> Move:
    """The bot's answer as a move that is well formed for this gamestate, or MalformedMove saying why."""
    if raw is None:
        raise MalformedMove("calculate_move returned None")
    to_json = getattr(raw, "to_json", None)
    if callable(to_json):
        try:
            raw = to_json()
        except Exception as error:  # noqa: BLE001 -- the bot's own object may raise anything
            raise MalformedMove(f"its to_json() raised {type(error).__name__}") from None
    move = parse_move(raw)
    mine, theirs = set(hand_ids(gamestate, "MyHand")), set(hand_ids(gamestate, "OppHand"))
    if isinstance(move, Lay):
        missing = [card_id for card_id in move.ids if card_id not in mine]
        if missing:
            raise MalformedMove(f"Lay names card(s) {missing} that are not in MyHand")
    elif isinstance(move, Give) and move.id not in mine:
        raise MalformedMove(f"Give names card {move.id}, which is not in MyHand")
    elif isinstance(move, Take) and move.id not in theirs:
        raise MalformedMove(f"Take names card {move.id}, which is not in OppHand")
    return move


def as_sent(raw: Any) -> Any:
    """A bot's answer as its move would travel (a file bot's answer comes as JSON text): what --strict sends
    as it is. None for no answer; the answer's text when it has no JSON form."""
    if raw is None:
        return None
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    try:
        json.dumps(raw)
    except (TypeError, ValueError):
        return repr(raw)[:200]
    return raw


def safe_moves(gamestate: Mapping[str, Any], rng: random.Random | None = None) -> list[Move]:
    """Legal moves that need no labels, best first: Give a card of our own (it sheds a -3), else Take one.

    A Lay is never used: without labels we cannot know it scores, and the caller must not waste a turn
    by accident. Gives come first in random order, then Takes, so two fallbacks in a row differ.
    """
    chooser = rng or random.Random()
    mine, theirs = hand_ids(gamestate, "MyHand"), hand_ids(gamestate, "OppHand")
    chooser.shuffle(mine)
    chooser.shuffle(theirs)
    moves: list[Move] = [Give(card_id) for card_id in mine]
    moves.extend(Take(card_id) for card_id in theirs)
    return moves


# --- running the bot ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BotOutcome:
    move: Move | None  # None when the bot produced nothing usable; `problem` says why
    problem: str  # "" when the bot answered a well-formed move in time
    think_s: float
    raw: Any = None  # what calculate_move returned (None when it raised or overran)
    fault: Fault | None = None  # the problem with a key for counting repeats and, for an exception, its traceback
    log: str = ""  # what the bot printed while choosing this move (a bot file's; bounded, the cut said)


class GuardedBot:
    """Calls one match's calculate_move in a daemon thread, abandoning calls that overrun their budget."""

    def __init__(
        self, calculate_move: Callable[[dict[str, Any]], Any], on_close: Callable[[], object] | None = None
    ) -> None:
        self._calculate_move = calculate_move
        self._on_close = on_close
        self._busy: threading.Thread | None = None
        self._view_labeller: ViewLabeller | None = None

    def close(self) -> None:
        if callable(self._on_close):
            self._on_close()

    def labels(self) -> dict[int, str]:
        """The landmarks the bot's recognizer gave the cards it last looked at (our strategies; a bot file
        keeps its own)."""
        found = dict(getattr(self._agent(), "last_labels", None) or {})
        return {
            int(card_id): str(label.landmark) for card_id, label in found.items() if getattr(label, "landmark", None)
        }

    def cards_unknown(self) -> tuple[int, int]:
        """(cards left unknown, cards seen) by our strategy's recognizer this match."""
        counted = getattr(self._agent(), "cards_unknown", None)
        return counted() if callable(counted) else (0, 0)

    def unknown_reasons(self) -> dict[str, int]:
        """Why those cards were left unknown, each reason with its count of cards."""
        said = getattr(self._agent(), "unknown_reasons", None)
        return dict(said()) if callable(said) else {}

    def contradictions(self) -> tuple[int, str]:
        """(moves this match decided on a belief whose evidence contradicted itself, the first note saying so)."""
        agent = self._agent()
        return int(getattr(agent, "contradicted", 0) or 0), str(getattr(agent, "contradiction", "") or "")

    def label_view(self, gamestate: dict[str, Any], record: RecordLabels | None) -> None:
        """Label the cards in view of a gamestate the bot does not move on and hand their landmarks to
        `record` (bot/players/view_labels.py says why and what it costs). Nothing without a record (our
        strategies learn from their own turns), or while an overrun move still uses the recognizer."""
        recognizer = getattr(self._agent(), "recognizer", None)
        if record is None or recognizer is None or self.busy:
            return
        if self._view_labeller is None:
            self._view_labeller = ViewLabeller(recognizer)
        self._view_labeller.label(gamestate, record)

    def _agent(self) -> Any:
        """The object behind calculate_move (our strategies' ArenaAgent), or None for a plain function."""
        return getattr(self._calculate_move, "__self__", None)

    @property
    def busy(self) -> bool:
        return self._busy is not None and self._busy.is_alive()

    def run(self, gamestate: dict[str, Any], budget: Budget) -> BotOutcome:
        started = time.monotonic()
        if self.busy:
            problem = "the bot is still busy with an earlier move it overran"
            return BotOutcome(None, problem, 0.0, fault=fault_from_problem(problem))
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["raw"] = self._calculate_move(gamestate)
            except BaseException as error:  # noqa: BLE001 -- any failure of user code becomes a fallback
                box["error"] = error

        thread = threading.Thread(target=work, name="calculate_move", daemon=True)
        thread.start()
        thread.join(max(0.0, budget.left()))
        think = time.monotonic() - started
        if thread.is_alive():
            self._busy = thread
            problem = f"calculate_move overran its budget of {think * 1000:.0f} ms"
            return BotOutcome(None, problem, think, fault=fault_from_problem(problem))
        if "error" in box:
            fault = fault_from_exception(box["error"], user_file=source_file(self._calculate_move))
            return BotOutcome(None, fault.summary, think, fault=fault)
        raw = box.get("raw")
        try:
            move = check_move(raw, gamestate)
        except Exception as error:  # noqa: BLE001 -- MalformedMove, or anything odd values raise on the way
            problem = f"calculate_move returned an unusable move ({error}): {_short(raw)}"
            return BotOutcome(None, problem, think, raw, fault_from_problem(f"calculate_move returned {error}"))
        return BotOutcome(move, "", think, raw)


def _short(value: Any, limit: int = 120) -> str:
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 -- a raising __repr__, an int too long for str()
        return f"<{type(value).__name__} whose repr() raised {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
