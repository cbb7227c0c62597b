"""Link-score weights learned online: Bayesian logistic regression (seed ``model.rs``,
docs/DESIGN.md §3).

Target: is the page a link points to relevant (relevance ≥ ``MIN_RELEVANCE``)? The features are
the five linear terms of the link score: anchor, URL (locator) and context-line coverage under
the current term weights, the parent page's relevance, and a phrase indicator (the anchor hits
two or more query terms). Model: P(relevant) = σ(b + w·x); ranking uses w·x only (the intercept
b does not change the order).

Estimation: the online Laplace approximation with a diagonal Gaussian posterior of Chapelle &
Li, "An Empirical Evaluation of Thompson Sampling", NIPS 2011, Algorithm 3, one step per
sample: qᵢ ← qᵢ + p(1−p)xᵢ², mᵢ ← mᵢ + (y − p)xᵢ/qᵢ with p = σ(m·x). Unlike the paper (a full
Newton solve per batch) each sample takes one step, O(features); with few samples the two agree
because the prior dominates.

- Prior mean = the fixed weights, intercept 0; prior precision = the Fisher information of one
  observation at p = ½, x = 1, i.e. ¼ (the weakest single observation).
- Weights in use change only on significant evidence: when |max(mᵢ, 0) − usedᵢ| exceeds
  z(1−δ)·√(1/qᵢ). With no data, scoring equals the prior exactly.
- Weights are never negative: "covering a query term costs score" is not something this model
  should learn (it is almost always sampling noise); clamping to 0 switches the term off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pagesift_ui.frontier.stats import Z1

__all__ = [
    "FEATURE_NAMES",
    "FEATURES",
    "PRIOR_PRECISION",
    "PRIOR_WEIGHTS",
    "LinkModel",
    "as_features",
]

#: Number of features: anchor, locator, context line, parent relevance, phrase indicator.
FEATURES = 5
#: Their names, in order, for explanations and charts.
FEATURE_NAMES = ("anchor", "locator", "context", "parent", "phrase")
#: The fixed weights upstream shipped; the prior mean (docs/DESIGN.md §3).
PRIOR_WEIGHTS = (2.0, 1.5, 1.0, 0.5, 0.5)
#: Fisher information p(1−p) = ¼ of one observation at p = ½, x = 1 (docs/DESIGN.md §3).
PRIOR_PRECISION = 0.25

# Index of the intercept, after the features.
_BIAS = FEATURES


def as_features(values: Sequence[float], what: str) -> tuple[float, ...]:
    """``values`` as one finite float per feature, or ValueError naming ``what``."""
    if len(values) != FEATURES:
        raise ValueError(f"{what} needs {FEATURES} values, got {len(values)}: {values!r}")
    # map in C, not generators: every link scored checks its weights (issue 15)
    out = tuple(map(float, values))
    if not all(map(math.isfinite, out)):
        raise ValueError(f"{what} must be finite numbers, got {values!r}")
    return out


class LinkModel:
    """Online Bayesian logistic regression over the five link features.

    Parameters
    ----------
    prior : sequence of 5 floats
        Prior mean of the feature weights (non-negative); also the weights used until the data
        say otherwise.
    z : float
        Quantile of the "significantly moved" test; default ``Z1`` (one-sided, δ = 0.05).
    """

    __slots__ = ("_mean", "_precision", "_prior", "_used", "_z", "samples")

    def __init__(self, prior: Sequence[float] = PRIOR_WEIGHTS, z: float = Z1) -> None:
        prior_weights = as_features(prior, "prior")
        if any(w < 0 for w in prior_weights):
            raise ValueError(f"prior weights must be non-negative, got {prior!r}")
        if not (math.isfinite(z) and z > 0):
            raise ValueError(f"z must be a positive finite quantile, got {z!r}")
        self._prior = prior_weights
        self._mean = [*prior_weights, 0.0]
        self._precision = [PRIOR_PRECISION] * (FEATURES + 1)
        self._used = list(prior_weights)
        self._z = z
        self.samples = 0

    @property
    def weights(self) -> tuple[float, ...]:
        """The weights scoring uses now (5 floats)."""
        return tuple(self._used)

    @property
    def prior(self) -> tuple[float, ...]:
        return self._prior

    @property
    def posterior_mean(self) -> tuple[float, ...]:
        """Posterior mean of the feature weights (intercept excluded); may be negative."""
        return tuple(self._mean[:FEATURES])

    @property
    def standard_error(self) -> tuple[float, ...]:
        """√(1/qᵢ) per feature: the posterior standard deviation."""
        return tuple(math.sqrt(1.0 / q) for q in self._precision[:FEATURES])

    @property
    def intercept(self) -> float:
        return self._mean[_BIAS]

    @property
    def z(self) -> float:
        return self._z

    def predict(self, x: Sequence[float]) -> float:
        """P(relevant) = σ(mean · x̃) for features ``x``: the probability ``observe`` starts
        from, so calling this just before ``observe`` gives the prequential prediction."""
        xs = [*as_features(x, "features"), 1.0]
        return _sigmoid(sum(m * xi for m, xi in zip(self._mean, xs, strict=True)))

    def observe(self, x: Sequence[float], hit: bool) -> bool:
        """Learn from one link: its features ``x`` and whether its target was relevant.

        Returns True when the weights in use changed: the caller must rescore queued links.
        """
        xs = [*as_features(x, "features"), 1.0]
        logit = sum(m * xi for m, xi in zip(self._mean, xs, strict=True))
        p = _sigmoid(logit)
        y = 1.0 if hit else 0.0
        for i, xi in enumerate(xs):
            if xi == 0.0:
                continue
            # Chapelle & Li 2011, Alg. 3: qᵢ += p(1−p)xᵢ²; mᵢ += (y − p)xᵢ/qᵢ (one step)
            self._precision[i] += p * (1.0 - p) * xi * xi
            self._mean[i] += (y - p) * xi / self._precision[i]
        self.samples += 1
        changed = False
        for i in range(FEATURES):
            se = math.sqrt(1.0 / self._precision[i])
            candidate = max(self._mean[i], 0.0)
            # docs/DESIGN.md §3: switch only when the move is significant at one-sided level δ
            if abs(candidate - self._used[i]) > self._z * se:
                self._used[i] = candidate
                changed = True
        return changed


def _sigmoid(logit: float) -> float:
    # Split by sign so exp never overflows for large |logit|.
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    e = math.exp(logit)
    return e / (1.0 + e)
