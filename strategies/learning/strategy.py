"""`learned`: one turn of lookahead over the value model trained by `rummy-vision train`.

Without options it plays from the shipped weights (`weights/default.npz`, produced by the command
stated in docs/learning.md). Under the margin objective it maximises the expected final point difference.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rummy import CountRules, CountState, RulesConfig, count_rules
from strategies.learning.features import Featurizer
from strategies.learning.lookahead import Lookahead
from strategies.learning.model import ValueModel

DEFAULT_WEIGHTS = Path(__file__).resolve().parent / "weights" / "default.npz"


class LearnedStrategy:
    name = "learned"

    def __init__(
        self, weights: str | Path | None = None, *, model: ValueModel | None = None, rules: RulesConfig | None = None
    ) -> None:
        if model is not None and weights is not None:
            raise ValueError("give either weights (a file) or a model, not both")
        self.weights_path: Path | None = None
        if model is None:
            self.weights_path = Path(weights) if weights else DEFAULT_WEIGHTS
            model = ValueModel.load(self.weights_path)
        self.model = model
        self._lookaheads: dict[CountRules, Lookahead] = {}
        if rules is not None:
            self._lookahead_for(count_rules(rules))

    def _lookahead_for(self, rules: CountRules) -> Lookahead:
        found = self._lookaheads.get(rules)
        if found is None:
            featurizer = Featurizer(rules)
            if featurizer.size != self.model.n_features:
                raise ValueError(
                    f"these weights were trained for other rules ({self.model.n_features} features, "
                    f"these rules have {featurizer.size}); train weights for them with `rummy-vision train`"
                )
            found = self._lookaheads[rules] = Lookahead(rules, self.model, featurizer)
        return found

    def move_values(self, state: CountState) -> dict[int, float]:
        """Every legal move's estimated value in points (expected final margin, banked points excluded)."""
        legal, values = self._lookahead_for(state.rules).move_values(state)
        return {move: float(value) for move, value in zip(legal, values)}

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        legal, values = self._lookahead_for(state.rules).move_values(state)
        return legal[int(np.argmax(values))]
