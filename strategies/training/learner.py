"""TD(lambda) self-play: one value model plays both seats and learns from every turn.

Each decision state s_t is valued V(s_t) from its mover's view (expected final point difference
from here on). Players alternate, so the one-step target is r_t - V(s_{t+1}): the points laid now
minus what the opponent expects from its next state. At the round's end the target is r_t plus the
hand penalties' difference. With the sign flip playing the role of the discount (gamma = -1), the
backward view is the textbook one: z <- -lambda z + grad V(s_t); theta <- theta + alpha delta_t z.

Moves are chosen epsilon-greedily by one turn of lookahead over the model (`Lookahead`). Everything
random comes from the seed, so the same settings and seed give the same weights.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from rummy import DECIDE, DEFAULT_RULES, OVER, CountState, RulesConfig, count_rules
from rummy.deals import make_deal, play_round
from rummy.stats import wilson_interval as wilson
from strategies.learning.exact_values import SolvedPosition, solved_positions
from strategies.learning.features import POINT_SCALE, Featurizer
from strategies.learning.lookahead import Lookahead
from strategies.learning.model import ValueModel
from strategies.learning.strategy import LearnedStrategy
from strategies.registry import get_strategy


@dataclass(frozen=True)
class TrainSettings:
    episodes: int = 20000
    seed: int = 0
    hidden: int = 32
    alpha: float = 0.003  # step size in model units (values / POINT_SCALE)
    alpha_decay: int = 0  # the step size falls as alpha * D / (D + episodes played); 0: constant
    lam: float = 0.7
    epsilon: float = 0.05  # share of exploratory (uniformly random) moves
    rules: RulesConfig = field(default=DEFAULT_RULES)

    def __post_init__(self) -> None:
        if self.episodes < 0:
            raise ValueError("episodes must be non-negative")
        if not 0.0 <= self.lam <= 1.0 or not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("lambda and epsilon must lie in [0, 1]")
        if self.alpha <= 0 or self.alpha_decay < 0:
            raise ValueError("alpha must be positive and alpha_decay non-negative")

    def describe(self) -> dict[str, Any]:
        described = asdict(self)
        described["rules"] = repr(self.rules) if self.rules != DEFAULT_RULES else "default"
        return described


@dataclass(frozen=True)
class EpisodeStats:
    episode: int
    winner_first: bool  # the round was won by the player who moved first
    mean_abs_delta: float  # mean |TD error| in points over the round's decisions


class TDLearner:
    def __init__(self, settings: TrainSettings, model: ValueModel | None = None) -> None:
        self.settings = settings
        self.rules = count_rules(settings.rules)
        self.featurizer = Featurizer(self.rules)
        self.model = model or ValueModel(
            self.featurizer.size, settings.hidden, seed=settings.seed, meta={"settings": settings.describe()}
        )
        if self.model.n_features != self.featurizer.size:
            raise ValueError("the model's features do not match these rules")
        self.lookahead = Lookahead(self.rules, self.model, self.featurizer)
        self.rng = random.Random(f"td-lambda:{settings.seed}")
        self.episodes_done = 0
        self.best: Checkpoint | None = None  # the measured checkpoint with the lowest curve regret so far

    def keep_if_best(self, point: CurvePoint) -> None:
        """Remember the weights behind `point` when its regret is the lowest measured (ties keep the earlier)."""
        if self.best is None or point.mean_regret < self.best.point.mean_regret:
            self.best = Checkpoint(point, self.model.theta.copy())

    def best_model(self) -> ValueModel:
        """The weights of the checkpoint with the lowest curve regret (the current ones if none was measured)."""
        if self.best is None:
            return self.model
        model = ValueModel(self.model.n_features, self.model.hidden, meta=self.model.meta)
        model.theta[...] = self.best.theta
        model.meta.update(
            episodes=self.best.point.episodes,
            training_seconds=round(self.best.point.seconds, 1),
            checkpoint="the lowest mean regret on the curve's solved positions",
        )
        return model

    def choose(self, state: CountState, explore: bool) -> int:
        legal, values = self.lookahead.move_values(state)
        if explore and self.rng.random() < self.settings.epsilon:
            return self.rng.choice(legal)
        return legal[int(np.argmax(values))]

    def play_episode(self) -> EpisodeStats:
        """One self-play round with online TD(lambda) updates."""
        settings = self.settings
        model = self.model
        alpha = settings.alpha
        if settings.alpha_decay:
            alpha *= settings.alpha_decay / (settings.alpha_decay + self.episodes_done)
        step = alpha / POINT_SCALE  # TD errors are in points, the gradient in model units
        state = CountState.random_deal(self.rng, settings.rules)
        first = state.mover
        trace = np.zeros_like(model.theta)
        previous: tuple[float, float] | None = None  # (V(s_t), r_t) of the last decision
        deltas: list[float] = []
        penalty = self.rules.config.hand_penalty
        while True:
            if state.phase == DECIDE:
                value, gradient = model.value_and_gradient(self.featurizer.of_state(state))
                if previous is not None:
                    delta = previous[1] - value - previous[0]
                    model.theta += step * delta * trace
                    deltas.append(abs(delta))
                # delta_{t-1} used the trace up to s_{t-1}; now s_t joins it.
                trace *= -settings.lam
                trace += gradient
                mover = state.mover
                move = self.choose(state, explore=True)
                points_before = state.points[mover]
                state.push(move)
                previous = (value, float(state.points[mover] - points_before))
                if state.phase != OVER:
                    state.push_draw(state.sample_draw(self.rng))
                if state.phase == OVER:
                    sizes = (self.rules.size(state.hands[mover]), self.rules.size(state.hands[1 - mover]))
                    target = previous[1] + penalty * (sizes[1] - sizes[0])
                    delta = target - previous[0]
                    model.theta += step * delta * trace
                    deltas.append(abs(delta))
                    break
            else:  # pragma: no cover - a deal always starts with a decision
                raise RuntimeError(f"unexpected phase in {state}")
        self.episodes_done += 1
        return EpisodeStats(self.episodes_done, state.winner() == first, float(np.mean(deltas)) if deltas else 0.0)


# --- the learning curve -----------------------------------------------------------------------


@dataclass(frozen=True)
class CurvePoint:
    episodes: int
    seconds: float  # training time so far (evaluations excluded)
    win_rate: float  # against the fixed opponent, duplicate deals
    win_low: float
    win_high: float
    mean_regret: float  # points, on the fixed solved positions
    optimal_share: float
    value_error: float  # mean |V(s) - exact V(s)| in points on the same positions


@dataclass(frozen=True)
class Checkpoint:
    point: CurvePoint
    theta: np.ndarray[Any, np.dtype[np.float64]]


@dataclass
class Evaluation:
    """The fixed yardsticks of a training run: duplicate deals against one opponent, and solved positions."""

    opponent: str
    deals: int
    positions: list[SolvedPosition]
    first_deal_seed: int = 1_000_000  # far from the seeds strength measurements start at (0)

    @classmethod
    def build(
        cls,
        rules: RulesConfig,
        *,
        opponent: str = "heuristic",
        deals: int = 100,
        turns_left: tuple[int, ...] = (1, 2, 3, 4),
        per_turn: int = 25,
        seed: int = 0,
    ) -> Evaluation:
        left = tuple(t for t in turns_left if t <= rules.max_turns)
        return cls(opponent, deals, solved_positions(left, per_turn, seed=seed, rules=rules))

    def measure(self, learner: TDLearner, seconds: float) -> CurvePoint:
        rules = learner.settings.rules
        me = LearnedStrategy(model=learner.model, rules=rules)
        wins = rounds = 0
        for index in range(self.deals):
            deal = make_deal(self.first_deal_seed + index, rules)
            for seat in (0, 1):
                them = get_strategy(self.opponent)
                seats = (me, them) if seat == 0 else (them, me)
                wins += int(play_round(deal, seats, rules).winner() == seat)
                rounds += 1
        low, high = wilson(wins, rounds)
        regrets, optimal, errors = position_scores(learner.lookahead, learner.featurizer, learner.model, self.positions)
        return CurvePoint(
            learner.episodes_done,
            seconds,
            wins / rounds if rounds else 0.0,
            low,
            high,
            float(np.mean(regrets)) if regrets else 0.0,
            float(np.mean(optimal)) if optimal else 0.0,
            float(np.mean(errors)) if errors else 0.0,
        )


def position_scores(
    lookahead: Lookahead, featurizer: Featurizer, model: ValueModel, positions: list[SolvedPosition]
) -> tuple[list[float], list[bool], list[float]]:
    """Per position: the regret of the model's move, whether it was optimal, and |V - exact V|."""
    regrets: list[float] = []
    optimal: list[bool] = []
    errors: list[float] = []
    for solved in positions:
        legal, values = lookahead.move_values(solved.state)
        move = legal[int(np.argmax(values))]
        regret = solved.regret(move)
        regrets.append(regret)
        optimal.append(regret <= 1e-9)
        estimate = float(model.predict(featurizer.of_state(solved.state)[None, :])[0])
        errors.append(abs(estimate - solved.best))
    return regrets, optimal, errors


def train(
    settings: TrainSettings,
    *,
    evaluation: Evaluation | None = None,
    eval_every: int = 0,
    on_episode: Callable[[EpisodeStats, CurvePoint | None], None] | None = None,
    on_measure: Callable[[CurvePoint], None] | None = None,
) -> tuple[TDLearner, list[CurvePoint]]:
    """Train for `settings.episodes` rounds; measure at 0 and every `eval_every` episodes (and at the end),
    telling `on_measure` each point (episode 0's too) and keeping the best one's weights in `learner.best`."""
    learner = TDLearner(settings)
    curve: list[CurvePoint] = []
    training_seconds = 0.0

    def measured(point: CurvePoint) -> CurvePoint:
        curve.append(point)
        learner.keep_if_best(point)
        if on_measure is not None:
            on_measure(point)
        return point

    if evaluation is not None:
        measured(evaluation.measure(learner, 0.0))
    for episode in range(1, settings.episodes + 1):
        began = time.perf_counter()
        stats = learner.play_episode()
        training_seconds += time.perf_counter() - began
        point = None
        due = eval_every > 0 and episode % eval_every == 0
        if evaluation is not None and (due or episode == settings.episodes):
            point = measured(evaluation.measure(learner, training_seconds))
        if on_episode is not None:
            on_episode(stats, point)
    learner.model.meta["training_seconds"] = round(training_seconds, 1)
    learner.model.meta["episodes"] = learner.episodes_done
    return learner, curve
