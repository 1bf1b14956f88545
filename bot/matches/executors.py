"""Where rounds are played: this process, a pool of worker processes, or a Ray cluster.

Every backend returns the results in the order of the tasks, so the same seeds give the same
results whichever backend played them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.matches.local_match import Contender, RoundResult, play_round
from rummy import DEFAULT_RULES, RulesConfig

BACKENDS = ("local", "ray")
CHUNKS_PER_WORKER = 8


@dataclass(frozen=True)
class RoundTask:
    deal_seed: str
    seats: tuple[Contender, Contender]
    rules: RulesConfig = DEFAULT_RULES
    move_time_ms: int | None = None
    strict: bool = False  # faulty moves get what the arena gives them (play_round)

    def run(self) -> RoundResult:
        return play_round(
            self.deal_seed, self.seats, rules=self.rules, move_time_ms=self.move_time_ms, strict=self.strict
        )


def _run_task(task: RoundTask) -> RoundResult:
    return task.run()


Progress = Callable[[int], None]


class RoundsInterrupted(Exception):
    """Ctrl-C during `run_tasks`: `results` are the rounds that finished, in the order of the tasks (a prefix
    of them), out of `total`; the round being played was dropped."""

    def __init__(self, results: list[RoundResult], total: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {total} rounds")
        self.results = results
        self.total = total


def run_tasks(
    tasks: Sequence[RoundTask], *, workers: int = 1, backend: str = "local", progress: Progress | None = None
) -> list[RoundResult]:
    if backend == "ray":
        return _run_on_ray(tasks, progress)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    results: list[RoundResult] = []
    if workers <= 1:
        try:
            for task in tasks:
                results.append(task.run())
                if progress:
                    progress(1)
        except KeyboardInterrupt:
            raise RoundsInterrupted(results, len(tasks)) from None
        return results
    # Rounds are short, so sending them one by one would cost more in inter-process traffic than
    # they take to play: each worker gets them in chunks, several chunks each to balance the load.
    chunk = max(1, len(tasks) // (workers * CHUNKS_PER_WORKER))
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        for result in pool.map(_run_task, tasks, chunksize=chunk):
            results.append(result)
            if progress:
                progress(1)
    except (KeyboardInterrupt, BrokenProcessPool):
        # Ctrl-C reaches the workers too (one process group): the rounds in order so far are kept.
        pool.shutdown(wait=True, cancel_futures=True)
        raise RoundsInterrupted(results, len(tasks)) from None
    pool.shutdown(wait=True)
    return results


def _run_on_ray(tasks: Sequence[RoundTask], progress: Progress | None) -> list[RoundResult]:
    try:
        import ray  # ray is the optional extra [ray] (pyproject.toml)
    except ImportError:
        raise RuntimeError(
            "the ray backend needs the optional extra: in the checkout, .venv/bin/pip install -e '.[ray]'"
        ) from None
    if not ray.is_initialized():
        # Connects to a running cluster when RAY_ADDRESS is set, otherwise starts a local instance.
        ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
    remote_run = ray.remote(_run_task)
    pending = {remote_run.remote(task): index for index, task in enumerate(tasks)}
    ordered: list[RoundResult | None] = [None] * len(tasks)
    waiting = list(pending)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for ref in done:
            ordered[pending[ref]] = ray.get(ref)
            if progress:
                progress(1)
    return [result for result in ordered if result is not None]
