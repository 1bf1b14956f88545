"""The Ray backend, on a local Ray instance started by the test, gives the local backend's results."""

from __future__ import annotations

import pytest

from bot.matches.local_match import Contender
from bot.matches.tournament import run_tournament

ray = pytest.importorskip("ray", reason="the ray extra is installed by .ci/setup; skipped only outside it")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def test_ray_backend_matches_local_backend_for_the_same_seeds(local_ray):
    contenders = [Contender("random"), Contender("greedy"), Contender("heuristic")]
    local_games, local_table = run_tournament(contenders, rounds_per_pair=4, seed="ray", backend="local")
    ray_games, ray_table = run_tournament(contenders, rounds_per_pair=4, seed="ray", backend="ray")

    def outcomes(games):
        return [(game.a, game.b, game.seat_of_a, game.result.replayable()) for game in games]

    assert outcomes(ray_games) == outcomes(local_games)
    assert [s.rating.name for s in ray_table] == [s.rating.name for s in local_table]
