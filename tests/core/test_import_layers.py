"""The import graph, read from the source with ast (every import, including those inside functions):

- the top-level packages depend one way: rummy <- recognizers, strategies <- server <- bot, and rummy/
  keeps no storage (no sqlite3: the records file is server/storage/);
- inside strategies/, no arrow runs back up the layers kernel -> search/table -> strategies ->
  registry -> what looks strategies up by name (analyze, coaching, training);
- no cycle between modules, nor between packages (a subpackage is one node; a package's own
  top-level modules are nodes of their own).
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOP = ("rummy", "recognizers", "strategies", "server", "bot")
ALLOWED = {
    "rummy": set(),
    "recognizers": {"rummy"},
    "strategies": {"rummy"},
    "server": {"rummy", "recognizers", "strategies"},
    "bot": {"rummy", "recognizers", "strategies", "server"},
}
# Layers of strategies/, lowest first: a module may import its own layer or lower ones only.
STRATEGY_LAYERS: tuple[tuple[str, ...], ...] = (
    ("strategies.kernel",),
    ("strategies.search", "strategies.table"),
    (
        "strategies.base",
        "strategies.baselines",
        "strategies.search_strategies",
        "strategies.characters",
        "strategies.position",
        "strategies.belief_play",
        "strategies.hand_doubt",
        "strategies.lay_answers",
        "strategies.move_values",
        "strategies.opponent_model",
        "strategies.agent",
        "strategies.seen_position",
        "strategies.learning",
        "strategies.provenance",
    ),
    ("strategies.registry",),
    ("strategies.analyze", "strategies.coaching", "strategies.training"),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for top in TOP for path in sorted((ROOT / top).rglob("*.py"))}


def imports_of(path: Path) -> Iterable[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def import_graph(found: dict[str, Path]) -> set[tuple[str, str]]:
    """(importer, imported) between the project's modules; `from a import b` counts as a.b when b is a module."""

    def resolve(name: str) -> str | None:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    arrows = set()
    for name, path in found.items():
        for target in imports_of(path):
            if target.split(".")[0] in TOP and (module := resolve(target)) and module != name:
                # `from package import x` names the package's __init__ only when x is not a module.
                if found[module].name == "__init__.py" and name.startswith(module + "."):
                    continue
                arrows.add((name, module))
    return arrows


def layer(module: str) -> int:
    for rank, prefixes in enumerate(STRATEGY_LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return rank
    raise AssertionError(f"{module} is in no layer of strategies/: add it to STRATEGY_LAYERS")


def package_node(module: str, found: dict[str, Path]) -> str:
    if found[module].name == "__init__.py":
        return module
    parent = module.rpartition(".")[0]
    return module if parent in TOP else parent


def cycles(arrows: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for source, target in arrows:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


FOUND = modules()
ARROWS = import_graph(FOUND)


def test_the_top_level_packages_depend_one_way() -> None:
    wrong = sorted(
        (source, target)
        for source, target in ARROWS
        if (a := source.split(".")[0]) != (b := target.split(".")[0]) and b not in ALLOWED[a]
    )
    assert wrong == []


def test_no_arrow_runs_back_up_the_layers_of_strategies() -> None:
    inside = [(a, b) for a, b in ARROWS if a.startswith("strategies.") and b.startswith("strategies.")]
    assert len(inside) > 40  # the graph was read
    upward = sorted((a, b) for a, b in inside if layer(a) < layer(b))
    assert upward == []


def test_no_module_imports_itself_round_a_cycle() -> None:
    assert cycles(ARROWS) == []


def test_no_cycle_between_packages() -> None:
    packages = {(package_node(a, FOUND), package_node(b, FOUND)) for a, b in ARROWS}
    assert cycles((a, b) for a, b in packages if a != b) == []


@pytest.mark.parametrize(
    ("arrows", "expected"),
    [
        ({("a", "b"), ("b", "c")}, []),
        ({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}, [["a", "b", "c"]]),
        ({("x", "y"), ("y", "x"), ("p", "q")}, [["x", "y"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(arrows: set[tuple[str, str]], expected: list[list[str]]) -> None:
    assert cycles(arrows) == expected


def test_the_checks_see_an_upward_arrow_and_a_package_cycle() -> None:
    # The arrows the earlier layout had: a measurement importing the registry from table/, and
    # bot.client <-> bot.players.
    assert layer("strategies.table.duel") < layer("strategies.registry")
    nodes = {
        (package_node("bot.client.runner", FOUND), package_node("bot.players.match_bots", FOUND)),
        ("bot.players", "bot.client"),
    }
    assert cycles(nodes) == [["bot.client", "bot.players"]]


# Modules that open or write a referee's records file (its SQLite), or are the referee itself.
SERVER_STORAGE = ("sqlite3", "server.storage", "server.accounts", "server.admin", "server.app")
# What `match --server` runs to reach a referee: it may do so over HTTP only.
OVER_THE_SERVER = ("bot.matches.server_match", "bot.matches.server_admin", "bot.matches.run_spec")


def test_match_over_a_server_reaches_it_only_over_its_api() -> None:
    touched = sorted(
        (module, target)
        for module in OVER_THE_SERVER
        if module in FOUND
        for target in imports_of(FOUND[module])
        if any(target == storage or target.startswith(storage + ".") for storage in SERVER_STORAGE)
    )
    assert "bot.matches.server_match" in FOUND
    assert touched == []


def test_the_core_keeps_no_storage() -> None:
    # The records file (its SQLite, schema and migrations) is the referee's: server/storage/.
    stored = sorted(
        (module, target)
        for module, path in FOUND.items()
        if module.split(".")[0] == "rummy"
        for target in imports_of(path)
        if target == "sqlite3" or target.startswith("sqlite3.")
    )
    assert stored == []


def _imported_by_name(path: Path) -> Iterable[str]:
    """Modules a file loads by a literal name: importlib.import_module("x") and __import__("x")."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                yield node.args[0].value


def test_the_product_imports_nothing_from_tools() -> None:
    # tools/ (the recipes behind the docs' figures, tools/figures.py) is not installed: the product must run
    # without it. tools may import the product, never the reverse.
    found = sorted(
        (module, target)
        for module, path in FOUND.items()
        for target in [*imports_of(path), *_imported_by_name(path)]
        if target == "tools" or target.startswith("tools.")
    )
    assert len(FOUND) > 100  # the product was read
    assert found == []


def test_tools_stay_out_of_the_wheel() -> None:
    # The packages a build finds with pyproject.toml's own patterns: tools/ is a package for the tests'
    # imports, so only those patterns keep it out.
    setuptools = pytest.importorskip("setuptools")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = setuptools.find_packages(where=str(ROOT), **config["tool"]["setuptools"]["packages"]["find"])
    assert "bot.measure" in found and "strategies.table" in found
    assert [name for name in found if name.split(".")[0] in ("tools", "tests")] == []
