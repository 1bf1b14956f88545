"""The Ray backend, on a local Ray instance started by the test, gives the local backend's results."""

from __future__ import annotations

import pytest

from bot.matches.local_match import Contender, make_contender
from bot.matches.tournament import run_tournament

ray = pytest.importorskip("ray", reason="Ray is only in .venv-ray (.ci/setup --ray); .ci/test runs this file there")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def test_ray_backend_matches_local_backend_for_the_same_seeds(local_ray):
    contenders = [Contender("random"), Contender("greedy"), Contender("heuristic")]
    local_games, local_table = run_tournament(contenders, rounds_per_pair=4, seed="ray", backend="local")
    ray_games, ray_table = run_tournament(contenders, rounds_per_pair=4, seed="ray", backend="ray")

    assert outcomes(ray_games) == outcomes(local_games)
    assert [s.rating.name for s in ray_table] == [s.rating.name for s in local_table]


def outcomes(games):
    return [(game.a, game.b, game.seat_of_a, game.result.replayable()) for game in games]


def test_expectimax_with_a_node_budget_gives_the_same_tournament_locally_with_workers_and_on_ray(local_ray):
    # Under a time budget expectimax's depth follows the clock; with --nodes it must not, so one
    # process, two worker processes and Ray (all loaded differently) play the very same moves.
    contenders = [make_contender("expectimax", nodes=3000), make_contender("greedy", nodes=3000)]
    one, one_table = run_tournament(contenders, rounds_per_pair=4, seed="nodes", backend="local")
    two, two_table = run_tournament(contenders, rounds_per_pair=4, seed="nodes", backend="local", workers=2)
    on_ray, ray_table = run_tournament(contenders, rounds_per_pair=4, seed="nodes", backend="ray")
    assert outcomes(two) == outcomes(one)
    assert outcomes(on_ray) == outcomes(one)
    assert [(s.rating.name, s.rating.rating, s.wins) for s in two_table] == [
        (s.rating.name, s.rating.rating, s.wins) for s in one_table
    ]
    assert [(s.rating.name, s.rating.rating, s.wins) for s in ray_table] == [
        (s.rating.name, s.rating.rating, s.wins) for s in one_table
    ]
    # expectimax really searched: its moves carry suggestions with values.
    assert any(move.suggestions for game in one for move in game.result.moves)
