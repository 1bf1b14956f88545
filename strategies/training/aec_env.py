"""A PettingZoo AEC environment: two agents play one round of Rummy Vision against each other.

Agents are "player_0" and "player_1"; the deal decides who moves first. Each observation is a dict,
PettingZoo's convention for classic games: "observation" (the count-level state from that agent's
view, see `strategies.learning.observation`) and "action_mask" (1 for each legal move id, all zeros
when it is not that agent's turn). Draws are chance events inside `step`, from the seeded reset.
Rewards come at the round's end: the final margin (`reward="margin"`, zero-sum) or +1/-1.

`env(...)` wraps the raw environment the way PettingZoo's classic games are wrapped: an illegal move
ends the round with `illegal_reward` for the agent that made it, and calls out of order are refused.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummy import DEFAULT_RULES, CountState, RulesConfig
from strategies.learning.observation import REWARDS, action_mask, final_reward, n_actions, observation_bounds, observe

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("ansi",)


class RummyVisionAEC(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # pettingzoo ships no hints
    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "rummy_vision_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, *, rules: RulesConfig = DEFAULT_RULES, reward: str = "margin", render_mode: str | None = None
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.rules = rules
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        low, high = observation_bounds(rules)
        moves = n_actions(rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(moves,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(moves) for agent in AGENTS}
        self.np_random, _ = seeding.np_random(None)
        self._rng = random.Random(0)
        self._state: CountState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> CountState:
        """The current count-level state (player i is "player_i")."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._state is None:
            self.np_random, _ = seeding.np_random(seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self._state = CountState.random_deal(self._rng, self.rules)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._state.mover]

    def observe(self, agent: str) -> dict[str, Any]:
        player = AGENTS.index(agent)
        return {"observation": observe(self.game, player), "action_mask": action_mask(self.game, player)}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        move = int(action)
        if move not in state.legal_moves():
            raise ValueError(f"{agent} played illegal move {move}; legal: {list(state.legal_moves())}")
        self._cumulative_rewards[agent] = 0.0
        state.push(move)
        if not state.is_over:
            state.push_draw(state.sample_draw(self._rng))
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if state.is_over:
            for index, name in enumerate(AGENTS):
                self.rewards[name] = final_reward(state, index, self.reward_kind)
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[state.mover]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._state is None:
            return None
        state = self._state
        return (
            f"player_0 {state.counts(0)} ({state.points[0]} pts)  player_1 {state.counts(1)} ({state.points[1]} pts)"
            f"  deck {state.deck_counts()}  turns left {state.turns_left}"
        )

    def close(self) -> None:
        pass


def env(*, illegal_reward: float | None = None, **options: Any) -> AECEnv[str, dict[str, Any], int]:
    """The wrapped environment, as PettingZoo's classic games are built."""
    raw = RummyVisionAEC(**options)
    penalty = illegal_reward if illegal_reward is not None else (-1.0 if raw.reward_kind == "win" else -400.0)
    wrapped: AECEnv[str, dict[str, Any], int] = wrappers.TerminateIllegalWrapper(raw, illegal_reward=penalty)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
