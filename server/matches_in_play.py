"""Matches in play: starting them, their deadlines, applying and recording moves, ending them.

Everything here runs on the server's event loop (one thread), so a match's state never changes between
two lines without an `await`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

from rummy import MalformedMove, Match, Round, parse_move, render_gamestate
from rummy.cards import token_of
from server.house_agents import is_house_bot
from server.protocol import MAX_MESSAGE_CHARS, Result, answer, clip, excerpt
from server.seats import LiveMatch, Refusal, Seat
from server.settings import Settings
from server.storage.records import Records

log = logging.getLogger(__name__)
# Refused moves of one turn that are stored; later ones are answered but not recorded.
MAX_REFUSED_PER_TURN = 10
MAX_STORED_MOVE_CHARS = 500


def stored_excerpt(raw_move: Any) -> Any:
    """A refused move as stored: itself when short, else {"Excerpt": its first characters, "Chars": length}."""
    text = excerpt(raw_move, limit=10**9)
    if len(text) <= MAX_STORED_MOVE_CHARS:
        return raw_move
    return {"Excerpt": clip(text, MAX_STORED_MOVE_CHARS), "Chars": len(text)}


class MatchesInPlay:
    def __init__(self, settings: Settings, records: Records) -> None:
        self.settings = settings
        self.records = records
        self.seats: dict[str, Seat] = {}
        self.live: dict[int, LiveMatch] = {}
        self.landmarks: dict[str, str] = {}  # card token -> landmark, for cards of matches in memory
        self.on_start: Callable[[Seat], None] = lambda _seat: None  # called per seat when its match starts
        # Called with each deal's (token, landmark) cards as it is made: the card pictures are drawn ahead.
        # Called with each deal's cards: (token, landmark) of the hands, and `later=` those of the deck.
        self.on_deal: Callable[..., None] = lambda _cards, later=(): None
        self._matches_started = 0
        self.shutdown = asyncio.Event()  # set when the server begins to stop: no more timeouts

    def begin_shutdown(self) -> None:
        """Stop every deadline (a match must end ABORTED, not on time) and wake every long poll."""
        self.shutdown.set()
        for live in self.live.values():
            if live.timer is not None:
                live.timer.cancel()
                live.timer = None
        for seat in self.seats.values():
            seat.poke.set()

    def gamestate(self, seat: Seat, base_url: str) -> dict[str, Any]:
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

    def state_answer(self, seat: Seat, base_url: str) -> dict[str, Any]:
        """The seat's GameState; the first answer after the end says SUCCESS, later ones GAME_HAS_ENDED."""
        live = seat.live
        assert live is not None
        result = Result.SUCCESS
        if live.match.over:
            result = Result.GAME_HAS_ENDED if seat.told_end else Result.SUCCESS
            seat.told_end = True
        seat.told_started = True
        return answer(result, GameState=self.gamestate(seat, base_url))

    def start(self, first: Seat, second: Seat, base_url: str) -> LiveMatch:
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
            held=(first.key, second.key) if first.stake_held and second.stake_held else None,
        )
        first.stake_held = second.stake_held = False
        match = Match(seed=seed, rounds=style.rounds, rules=self.settings.rules)
        live = LiveMatch(game_id, style, match, (first, second), self.settings.public_url or base_url)
        first.live, first.index = live, 0
        second.live, second.index = live, 1
        self.live[game_id] = live
        self.records.start_round(game_id, 0, match.current, now)
        self._remember_cards(live, match.current)
        self._arm_deadline(live)
        for seat in (first, second):
            self.on_start(seat)
        self.poke(live)
        return live

    def _remember_cards(self, live: LiveMatch, played: Round) -> None:
        dealt = []
        for card in [*played.hands[0], *played.hands[1], *played.deck]:
            token = token_of(card.url)
            self.landmarks[token] = card.kind
            live.tokens.add(token)
            dealt.append((token, card.kind))
        shown = len(played.hands[0]) + len(played.hands[1])
        # The hands are shown at once; the deck's cards only as they are drawn, so they may wait behind others.
        self.on_deal(dealt[:shown], later=dealt[shown:])

    def _arm_deadline(self, live: LiveMatch) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.match.over or self.shutdown.is_set():
            live.deadline_ms = 0 if live.match.over else live.deadline_ms
            return
        move_time = live.style.move_time_ms
        live.deadline_ms = round(self.settings.clock() * 1000) + move_time
        live.timer = asyncio.get_running_loop().call_later(move_time / 1000, self._deadline_passed, live, live.turn)

    def _deadline_passed(self, live: LiveMatch, turn: int) -> None:
        if live.turn == turn and not live.match.over and not self.shutdown.is_set():
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
        self.poke(live)
        asyncio.get_running_loop().call_later(self.settings.keep_finished_s, self._forget, live)

    def _forget(self, live: LiveMatch) -> None:
        self.live.pop(live.game_id, None)
        for seat in live.seats:
            self.seats.pop(seat.key, None)
        for token in live.tokens:
            self.landmarks.pop(token, None)

    @staticmethod
    def poke(live: LiveMatch) -> None:
        for seat in live.seats:
            seat.poke.set()

    def _play_move(
        self, seat: Seat, live: LiveMatch, raw_move: Any, base_url: str
    ) -> tuple[dict[str, Any], str | None, bool]:
        """Play the move if it is the seat's turn and the move is valid: the answer, the error (None when
        played) and whether it was played."""
        match = live.match
        round_index = match.round_index
        error: str | None = None
        applied = False
        if match.over:
            # As the arena answers: the move is not played, and the final state says how it ended.
            seat.told_end = seat.told_started = True
            told = answer(Result.GAME_HAS_ENDED, GameState=self.gamestate(seat, base_url))
            error = "the match has ended; the move was not played"
        elif match.mover != seat.index:
            told = answer(Result.NOT_YOUR_MOVE, GameState=self.gamestate(seat, base_url))
            error = "it is the opponent's turn"
        else:
            try:
                match.apply(seat.index, parse_move(raw_move, match.rules))
            except MalformedMove as refused:
                error = clip(str(refused), MAX_MESSAGE_CHARS)
                told = answer(Result.INVALID_MOVE, GameState=self.gamestate(seat, base_url))
            else:
                applied = True
                live.turn += 1
                if match.round_index != round_index and not match.over:
                    self._remember_cards(live, match.current)
                self._arm_deadline(live)
                told = self.state_answer(seat, base_url)
        if error is not None:
            told = {"Result": told["Result"], "ErrorMessage": error, "GameState": told["GameState"]}
        return told, error, applied

    def move(self, seat: Seat, raw_move: Any, base_url: str, note: str | None = None) -> dict[str, Any]:
        """Apply `raw_move` for `seat`; `note` (a house bot's safe move, and why) is kept with it in the records
        as its ErrorMessage, where both players' summaries can read it; the answer is unchanged."""
        received = self.settings.clock()
        live = seat.live
        if live is None:
            raise Refusal(Result.WAITING_FOR_GAME, "no opponent yet: poll until the match starts", PlayerKey=seat.key)
        match = live.match
        if not match.over and received * 1000 > live.deadline_ms and not self.shutdown.is_set():
            self._time_out(live)  # the timer has not fired yet, but the deadline has passed
        round_index = match.round_index
        played = match.current
        told, error, applied = self._play_move(seat, live, raw_move, base_url)
        round_over = applied and match.round_index != round_index
        completed = applied and match.over
        if not applied:
            if live.refused_turn != live.turn:
                live.refused_turn, live.refused_in_turn = live.turn, 0
            live.refused_in_turn += 1
            if live.refused_in_turn > MAX_REFUSED_PER_TURN:
                return told  # answered, but a flood of refused moves is not stored
        self.records.record_move(
            game_id=live.game_id,
            round_index=round_index,
            seat=seat.index,
            bot=seat.bot.name,
            received_at=received,
            move=raw_move if applied else stored_excerpt(raw_move),
            result=told["Result"],
            applied=applied,
            error=error if error is not None else note,
            gamestate=told["GameState"],
            finished_round=(round_index, played) if round_over else None,
            next_round=(match.round_index, match.current) if round_over and not match.over else None,
            finished_match=(match, "completed") if completed else None,
        )
        if applied:
            if completed:
                self._finish(live, "completed", recorded=True)
            else:
                self.poke(live)
        return told
