"""The kernel's compiled-code cache follows every kernel source file, not only the caller's own.

numba stamps a cached function with its own file; `play.state_index` inlines `core.canonical_index`,
so an edit of core.py alone must still reach it. The test works on a copy of the kernel package in a
temporary folder (the real tree and the real caches are untouched), in fresh processes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import strategies.kernel

PROBE = """
import json
import strategies.kernel
from rummy import RulesConfig
from strategies.kernel.play import state_index
from strategies.kernel.tables import kernel_tables

blob = kernel_tables(RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2)).blob
value = state_index(blob, 0x12, 0x01, 0x11, 2)
print(json.dumps({"value": int(value), "hits": sum(state_index.stats.cache_hits.values()),
                  "package": strategies.kernel.__file__}))
"""


def _probe(root: Path, cache: Path) -> dict[str, object]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), RUMMY_VISION_KERNEL_CACHE=str(cache))
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True, check=True, timeout=600
    )
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    assert str(answer["package"]).startswith(str(root)), answer  # the copy ran, not the real package
    return answer


def test_an_edit_of_an_inlined_helper_reaches_the_cached_caller(tmp_path: Path) -> None:
    root = tmp_path / "src"
    (root / "strategies").mkdir(parents=True)
    (root / "strategies" / "__init__.py").write_text("")
    kernel = Path(strategies.kernel.__file__).parent
    shutil.copytree(kernel, root / "strategies" / "kernel", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"

    first = _probe(root, cache)
    again = _probe(root, cache)
    assert again["value"] == first["value"]
    assert again["hits"] == 1  # the second process loaded the compiled caller from the cache

    core = root / "strategies" / "kernel" / "core.py"
    text = core.read_text()
    assert text.count("    return rank\n") == 1
    core.write_text(text.replace("    return rank\n", "    return rank + 1000000\n"))
    edited = _probe(root, cache)
    assert edited["value"] == int(str(first["value"])) + 1000000
