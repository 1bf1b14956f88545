"""House bots at the table: each plays its seat in a task on the event loop, thinking in a worker thread."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from server.house_agents import fallback_move, house_agent
from server.matches_in_play import MatchesInPlay
from server.protocol import Result
from server.seats import LiveMatch, Seat, has_news, wait_for_news
from server.worker_pools import in_house_pool

log = logging.getLogger(__name__)
HOUSE_POLL_MS = 5000
# A house bot's move goes out this long before its deadline at the latest (at most a fifth of the
# move time): the thinking thread shares the interpreter with the server, and a busy server can
# starve it past the share of the time the strategy planned to use.
HOUSE_SAFETY_S = 0.1


class HousePlayers:
    def __init__(self, matches: MatchesInPlay, landmark_of_url: Callable[[str], str | None]) -> None:
        self.matches = matches
        self.landmark_of_url = landmark_of_url
        self._tasks: set[asyncio.Task[None]] = set()
        # House bots that could not choose a move here, with the reason: withdrawn from new matches (the
        # /play opponents list shows the reason), and each match one played notes it for both players.
        self.withdrawn: dict[str, str] = {}
        self.failed_games: dict[int, str] = {}

    def note_of(self, game_id: int) -> str | None:
        """What both players of match `game_id` are told when its house bot could not choose its moves."""
        return self.failed_games.get(game_id)

    def _withdraw(self, name: str, game_id: int, error: BaseException) -> None:
        first = str(error).splitlines()[0] if str(error) else ""
        reason = f"{name} could not choose a move: {type(error).__name__}: {first}".rstrip(": ")
        if name not in self.withdrawn:
            log.error("game %d: %s; withdrawn from new matches", game_id, reason, exc_info=error)
        self.withdrawn.setdefault(name, reason)
        self.failed_games[game_id] = f"{reason}; it played safe moves (give a card) for the rest of this match"

    def seat(self, seat: Seat) -> None:
        """Start playing `seat` (its match has started)."""
        task = asyncio.get_running_loop().create_task(self._play(seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _play(self, seat: Seat) -> None:
        live = seat.live
        assert live is not None
        matches = self.matches
        try:
            agent: Any = house_agent(seat.bot.name, self.landmark_of_url)
        except Exception as error:  # noqa: BLE001 - e.g. a strategy whose table went missing: safe moves
            self._withdraw(seat.bot.name, live.game_id, error)
            agent = None
        thinking: asyncio.Future[dict[str, Any]] | None = None
        while not live.match.over:
            await wait_for_news(seat, HOUSE_POLL_MS, matches.shutdown)
            if matches.shutdown.is_set():
                return
            if live.match.over or not has_news(seat):
                continue
            gamestate = matches.state_answer(seat, live.url_prefix)["GameState"]
            if not gamestate["IsMover"]:
                continue
            turn = live.turn
            if agent is None or live.game_id in self.failed_games:
                move = fallback_move(gamestate)  # one failure is reported; the rest of the match plays safe
            elif thinking is not None and not thinking.done():
                log.warning("game %d: %s is still thinking about an earlier move", live.game_id, seat.bot.name)
                move = fallback_move(gamestate)
            else:
                # The house bots' own threads: a move never waits behind coaches or pictures.
                thinking = asyncio.ensure_future(in_house_pool(functools.partial(agent.calculate_move, gamestate)))
                thinking.add_done_callback(_retrieve)
                move = await self._move(live, seat, thinking, gamestate)
            if live.turn != turn or live.match.over:
                continue  # too late: the deadline passed while it was thinking
            told = matches.move(seat, move, live.url_prefix, note=self.failed_games.get(live.game_id))
            if told["Result"] == Result.INVALID_MOVE:
                log.error("game %d: %s sent %s: %s", live.game_id, seat.bot.name, move, told.get("ErrorMessage"))
                matches.move(seat, fallback_move(gamestate), live.url_prefix)
        matches.state_answer(seat, live.url_prefix)

    async def _move(
        self, live: LiveMatch, seat: Seat, thinking: asyncio.Future[dict[str, Any]], gamestate: dict[str, Any]
    ) -> dict[str, Any]:
        """The strategy's move if it comes in time; otherwise a safe one, sent before the deadline."""
        safety_s = min(HOUSE_SAFETY_S, live.style.move_time_ms / 5000)
        time_left_s = live.deadline_ms / 1000 - self.matches.settings.clock() - safety_s
        try:
            # shield: a thread cannot be cancelled; the next turn sees it still running instead
            return await asyncio.wait_for(asyncio.shield(thinking), timeout=max(0.0, time_left_s))
        except TimeoutError:
            log.warning("game %d: %s ran out of time; it plays a safe move", live.game_id, seat.bot.name)
        except Exception as error:  # noqa: BLE001 - the strategy's own failure: withdrawn, and said so
            self._withdraw(seat.bot.name, live.game_id, error)
        return fallback_move(gamestate)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # marks a late thread's exception as seen, so asyncio does not warn at exit
