"""Ray's console scripts (`serve`, `ray`) never land in the project's own virtualenv: Ray is only in its extra."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def test_ray_is_only_in_the_ray_extra():
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    with_ray = sorted(name for name, requirements in extras.items() if any(r.startswith("ray") for r in requirements))
    assert with_ray == ["ray"]
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert not any(requirement.startswith("ray") for requirement in dependencies)
