"""The value model: a linear part plus one small tanh hidden layer, over `Featurizer` rows.

V(x) = POINT_SCALE * (w . x + v . tanh(W x + b)) estimates the mover's expected final point
difference from here on (banked points excluded). All parameters live in one flat vector, so an
eligibility trace is one array of the same shape. Weights are saved as a small `.npz` with the
settings that shape them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from strategies.learning.features import POINT_SCALE, FloatArray


class ValueModel:
    def __init__(self, n_features: int, hidden: int, *, seed: int = 0, meta: dict[str, Any] | None = None) -> None:
        if n_features < 1 or hidden < 0:
            raise ValueError("a model needs at least one feature and a non-negative hidden size")
        self.n_features = n_features
        self.hidden = hidden
        self.meta: dict[str, Any] = dict(meta or {})
        self.theta: FloatArray = np.zeros(n_features + hidden * n_features + 2 * hidden)
        self._bind()
        rng = np.random.default_rng(seed)
        # Small random input weights break the hidden units' symmetry; the output weights start at zero,
        # so an untrained model values every state at 0 points.
        self.W[...] = rng.normal(0.0, 1.0 / np.sqrt(n_features), size=self.W.shape)

    def _bind(self) -> None:
        f, h = self.n_features, self.hidden
        theta = self.theta
        self.w = theta[:f]
        self.W = theta[f : f + h * f].reshape(h, f)
        self.b = theta[f + h * f : f + h * f + h]
        self.v = theta[f + h * f + h :]

    # --- values -------------------------------------------------------------------------------

    def predict(self, features: FloatArray) -> FloatArray:
        """Values in points for a (N, features) batch."""
        hidden = np.tanh(features @ self.W.T + self.b)
        return POINT_SCALE * (features @ self.w + hidden @ self.v)

    def value_and_gradient(self, x: FloatArray) -> tuple[float, FloatArray]:
        """The value of one feature row (in points) and its gradient with respect to `theta` (in model units)."""
        hidden = np.tanh(self.W @ x + self.b)
        value = float(POINT_SCALE * (self.w @ x + self.v @ hidden))
        slope = self.v * (1.0 - hidden * hidden)
        gradient = np.concatenate([x, np.outer(slope, x).ravel(), slope, hidden])
        return value, gradient

    # --- files --------------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            np.savez_compressed(
                handle,
                theta=self.theta.astype(np.float32),
                shape=np.array([self.n_features, self.hidden]),
                meta=np.array(json.dumps(self.meta, sort_keys=True)),
            )

    @classmethod
    def load(cls, path: Path) -> ValueModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                n_features, hidden = (int(item) for item in data["shape"])
                theta = data["theta"].astype(np.float64)
                meta = json.loads(str(data["meta"]))
        except FileNotFoundError:
            raise ValueError(f"no weights file at {path}") from None
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path} is not a weights file written by `rummy-vision train`: {error}") from None
        model = cls(n_features, hidden, meta=meta)
        if theta.shape != model.theta.shape:
            raise ValueError(f"{path}: {theta.size} weights do not fit {n_features} features x {hidden} hidden units")
        model.theta[...] = theta
        return model
