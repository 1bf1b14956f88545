"""A Gymnasium environment: one round of Rummy Vision against one of our strategies, by name.

The agent is player 0; the deal decides who moves first, and the opponent's moves and every draw
happen inside `reset`/`step`. Following Gymnasium's convention for masked discrete actions, the
legal moves are in `info["action_mask"]` (use `env.action_space.sample(mask=info["action_mask"])`).
An illegal action ends the episode with `illegal_reward` and `info["illegal_action"] = True`, like
PettingZoo's TerminateIllegalWrapper. The reward is 0 until the round ends, then the final margin
(`reward="margin"`, the default) or +1/-1 for a win or loss (`reward="win"`).

    env = RummyVisionEnv(opponent="heuristic")
    observation, info = env.reset(seed=7)   # the same seed gives the same episode for the same actions

Reproducible with a deterministic opponent (all but a time-limited searcher: give `expectimax` a
`max_depth` and a large `time_ms` in `opponent_options`); a random opponent is seeded from the reset.
"""

from __future__ import annotations

import inspect
import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from rummy import DECIDE, DEFAULT_RULES, CountState, RulesConfig
from strategies.base import Strategy
from strategies.learning.observation import (
    REWARDS,
    Mask,
    Vector,
    action_mask,
    final_reward,
    n_actions,
    observation_bounds,
    observe,
)
from strategies.registry import STRATEGIES, get_strategy

AGENT, OPPONENT = 0, 1
RENDER_MODES = ("ansi",)
MAX_DEALS = 1000  # deals tried by reset() for one that leaves the agent a move


class RummyVisionEnv(gymnasium.Env[Vector, np.int64]):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        opponent: str = "heuristic",
        *,
        opponent_options: dict[str, Any] | None = None,
        rules: RulesConfig = DEFAULT_RULES,
        reward: str = "margin",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if opponent not in STRATEGIES:
            raise ValueError(f"unknown opponent {opponent!r}; choose one of {', '.join(sorted(STRATEGIES))}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.opponent_name = opponent
        self.opponent_options = dict(opponent_options or {})
        get_strategy(opponent, **self.opponent_options)  # refuse bad options now, not at the first reset
        self.rules = rules
        self.reward_kind = reward
        # Losing every card's worth of swing is worse than any real round, so an illegal move never pays.
        self.illegal_reward = illegal_reward if illegal_reward is not None else (-1.0 if reward == "win" else -400.0)
        self.render_mode = render_mode
        low, high = observation_bounds(rules)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(n_actions(rules))
        self._rng = random.Random(0)
        self._opponent: Strategy | None = None
        self._state: CountState | None = None
        self._ended = False

    # --- the Gymnasium API --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self._opponent = self._make_opponent()
        # In a miniature game the opponent moving first can end the round before the agent's first turn:
        # deal again, so an episode always starts with a decision (a finished round has no legal action).
        for _attempt in range(MAX_DEALS):
            self._state = CountState.random_deal(self._rng, self.rules)
            self._ended = False
            self._play_opponent()
            if not self._state.is_over:
                return observe(self._state, AGENT), self._info()
        raise RuntimeError(f"{MAX_DEALS} deals in a row ended before the agent's first turn; check the rules")

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if self._ended:
            raise RuntimeError("the episode is over: call reset() first")
        move = int(action)
        if move not in state.legal_moves():
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return observe(state, AGENT), self.illegal_reward, True, False, info
        self._push_turn(move)
        self._play_opponent()
        if state.is_over:
            self._ended = True
            return observe(state, AGENT), final_reward(state, AGENT, self.reward_kind), True, False, self._info()
        return observe(state, AGENT), 0.0, False, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._state is None:
            return None
        state = self._state
        return (
            f"you {state.counts(AGENT)} ({state.points[AGENT]} pts)  opponent {state.counts(OPPONENT)} "
            f"({state.points[OPPONENT]} pts)  deck {state.deck_counts()}  turns left {state.turns_left}"
        )

    # --- inside -------------------------------------------------------------------------------

    @property
    def state(self) -> CountState:
        """The current count-level state (player 0 is the agent)."""
        return self._require_state()

    def action_masks(self) -> Mask:
        """The legal-move mask, also under the name maskable-policy libraries look for."""
        return action_mask(self._require_state(), AGENT)

    def _require_state(self) -> CountState:
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        return self._state

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        return {"action_mask": action_mask(state, AGENT), "turns_left": state.turns_left}

    def _make_opponent(self) -> Strategy:
        options = dict(self.opponent_options)
        factory = STRATEGIES[self.opponent_name]
        if "seed" in inspect.signature(factory).parameters and "seed" not in options:
            options["seed"] = self._rng.randrange(2**31)
        return get_strategy(self.opponent_name, **options)

    def _push_turn(self, move: int) -> None:
        state = self._require_state()
        state.push(move)
        if not state.is_over:
            state.push_draw(state.sample_draw(self._rng))

    def _play_opponent(self) -> None:
        state = self._require_state()
        opponent = self._opponent
        assert opponent is not None
        while state.phase == DECIDE and state.mover == OPPONENT:
            self._push_turn(opponent.choose(state.copy()))


ENV_ID = "RummyVision-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="strategies.training.gym_env:RummyVisionEnv")
