"""The `learned` strategy, its shipped weights, the weights file format and `rummy-vision train`."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from bot.cli import app
from rummy import RulesConfig
from rummy.deals import make_deal, play_round
from strategies.learning.model import ValueModel
from strategies.learning.strategy import DEFAULT_WEIGHTS, LearnedStrategy
from strategies.registry import get_strategy

MINI = RulesConfig(types_per_round=3, cards_per_type=5, hand_size=4)


def test_learned_plays_whole_rounds_from_the_shipped_weights() -> None:
    learned = get_strategy("learned")
    assert DEFAULT_WEIGHTS.stat().st_size < 100_000  # small enough to commit
    for seed in range(3):
        final = play_round(make_deal(seed), (learned, get_strategy("greedy")))  # play_round checks legality
        assert final.is_over


def test_weights_round_trip_and_bad_files_are_refused_clearly(tmp_path: Path) -> None:
    model = ValueModel(10, 3, seed=1, meta={"note": "test"})
    model.theta[...] = np.linspace(-1, 1, model.theta.size)
    model.save(tmp_path / "w.npz")
    loaded = ValueModel.load(tmp_path / "w.npz")
    assert np.allclose(loaded.theta, model.theta, atol=1e-6) and loaded.meta == {"note": "test"}
    (tmp_path / "bad.npz").write_bytes(b"not a weights file")
    with pytest.raises(ValueError, match="not a weights file"):
        ValueModel.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="no weights file"):
        LearnedStrategy(tmp_path / "missing.npz")


def test_weights_for_other_rules_are_refused_with_the_reason() -> None:
    from strategies.learning.exact_values import sample_positions

    state = sample_positions(2, 1, seed=0, rules=MINI)[0]
    with pytest.raises(ValueError, match="trained for other rules"):
        get_strategy("learned").choose(state)


def test_importing_the_strategies_stays_light() -> None:
    # numpy is a core dependency now (the perfect-play table's file format and the recognizers' features
    # use it); the learning libraries and the JIT compiler still load only when asked for.
    code = (
        "import sys, strategies.registry, bot.cli.analyze, bot.cli.solve, bot.cli.train; "
        "heavy = [m for m in ('numba', 'gymnasium', 'pettingzoo') if m in sys.modules]; print(heavy)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_train_command_writes_weights_and_curve(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", "--episodes", "6", "--seed", "3", "--out", str(out), "--hidden", "4"]
    args += ["--eval-every", "3", "--eval-deals", "2", "--positions", "2", "--opponent", "greedy"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    with (out / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["episodes"] for row in rows] == ["0", "3", "6"]
    assert all(0 <= float(row["win_rate"]) <= 1 and float(row["mean_regret"]) >= 0 for row in rows)
    assert Image.open(out / "curve.png").size == (900, 640)
    last = LearnedStrategy(out / "weights-last.npz")
    assert last.model.meta["episodes"] == 6 and last.model.meta["settings"]["seed"] == 3
    # weights.npz is the checkpoint with the lowest curve regret (the earliest of equals), not the last one.
    regrets = [float(row["mean_regret"]) for row in rows]
    best_episode = int(rows[regrets.index(min(regrets))]["episodes"])
    best = LearnedStrategy(out / "weights.npz")
    assert best.model.meta["episodes"] == best_episode and best.model.meta["settings"]["seed"] == 3
    said = " ".join(result.output.split())
    assert f"episode 0: win rate vs greedy {float(rows[0]['win_rate']):.1%}" in said
    assert f"(episode {best_episode}, the lowest regret on the curve" in said and "weights-last.npz (episode 6" in said


def test_training_keeps_the_checkpoint_with_the_lowest_curve_regret() -> None:
    from strategies.training.learner import CurvePoint, TDLearner, TrainSettings

    learner = TDLearner(TrainSettings(episodes=1, seed=1, hidden=2))
    thetas = []
    for episodes, regret in ((0, 3.0), (10, 1.5), (20, 1.5), (30, 2.5)):
        learner.model.theta[...] = episodes
        thetas.append(learner.model.theta.copy())
        learner.keep_if_best(CurvePoint(episodes, 0.0, 0.5, 0.4, 0.6, regret, 0.5, 1.0))
    best = learner.best_model()
    assert best.meta["episodes"] == 10 and (best.theta == thetas[1]).all()
    assert (learner.model.theta == thetas[3]).all()  # training goes on from the last weights


def test_train_command_refuses_an_unknown_opponent(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "--episodes", "1", "--opponent", "nobody", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "unknown strategy" in result.output
