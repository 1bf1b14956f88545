"""A template's player in an in-process match, told the true labels: to measure a template's strategy.

The template file is executed afresh for every round (as the arena gives each match fresh globals);
before each move its label cache is filled from the round's true labels, so the measurement is of
the strategy alone, not of a recognizer, and it never calls a service. Then `decide(gamestate,
stop_at, nodes)` is called where the template has it (`strong`), else its `calculate_move`.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.matches.local_match import Agent, Contender, LabelSource

_serial = itertools.count(1)
TEMPLATE_DIR = Path(__file__).resolve().parent / "files"


def load_template(name: str) -> ModuleType:
    """A fresh module of template `name` (its globals start empty, as in a new match)."""
    path = TEMPLATE_DIR / f"{name}.py"
    module_name = f"rummy_vision_template_{name}_{next(_serial)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"template {path} cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class TemplateContender(Contender):
    """Template `spec` (e.g. "strong") playing with true labels; `nodes` and `seconds` per move for a searcher."""

    nodes: int = 3000
    seconds: float = 0.5

    @property
    def name(self) -> str:
        return f"template:{self.spec}"

    @property
    def is_file(self) -> bool:
        return False

    def check(self) -> None:
        load_template(self.spec)

    def new_bot(self, labels: LabelSource, noise_seed: int) -> Agent:
        module = load_template(self.spec)
        nodes, seconds = self.nodes, self.seconds

        known = getattr(module, "LABELS", None)  # `random` looks at no picture
        if hasattr(module, "key_is_set"):
            vars(module)["key_is_set"] = lambda: (
                False
            )  # a measurement never calls a paid service, whatever keys are set
        if hasattr(module, "say_labels"):
            vars(module)["say_labels"] = lambda cards: None  # a move's log line is for the editor, not a measurement

        def calculate_move(gamestate: dict[str, Any]) -> Any:
            truth = labels()
            for _card_id, url in gamestate["MyHand"] + gamestate["OppHand"]:
                path = "/" + url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else url
                landmark = truth.get(url, truth.get(path))
                if landmark is not None and known is not None:
                    known[url] = landmark
            if hasattr(module, "decide"):  # `strong`: its search under the contender's budgets
                return module.decide(gamestate, time.monotonic() + seconds, nodes)
            return module.calculate_move(gamestate)

        sys.modules.pop(module.__name__, None)
        return Agent(calculate_move)
