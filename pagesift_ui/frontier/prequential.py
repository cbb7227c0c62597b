"""Prequential evaluation of the link model: predict each link, then learn its label.

Before the model learns from a fetched link, it predicts P(relevant) for that link (the step
record's ``predicted``); the label is what it is then taught (the page's relevance ≥
``MIN_RELEVANCE``). Each prediction is made without its own label, so the sequence scores the
model honestly as it goes (Dawid, "Present position and potential developments: the
prequential approach", JRSS A 147, 1984). The baseline is the prior-only model: the prior
weights with intercept 0 (``prior_predicted``), which never learns.

- **Log-loss**: mean of −[y ln p + (1 − y) ln(1 − p)], p clipped to [ε, 1 − ε] with ε = 1e-15
  (scikit-learn's ``log_loss`` convention) so one confident miss costs ~34.5, not infinity.
- **Brier score**: mean of (p − y)² (Brier, Monthly Weather Review 78, 1950).
- **AUC**: the Mann–Whitney statistic U / (n₁ n₀) with average ranks for ties (Hanley &
  McNeil, Radiology 143, 1982); undefined (None) while one class is absent.
- **Reliability bins**: equal-width bins of p with the mean prediction and the observed rate
  of each (DeGroot & Fienberg, The Statistician 32, 1983).

Pure and sans-IO: lists in, named values out; numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "BINS",
    "EPSILON",
    "WINDOW",
    "Metrics",
    "PrequentialReport",
    "ReliabilityBin",
    "auc",
    "brier_score",
    "cumulative",
    "evaluate",
    "log_loss",
    "logistic",
    "metrics",
    "reliability",
    "windowed",
]

#: Predictions are clipped to [EPSILON, 1 − EPSILON] for the log-loss (scikit-learn's value).
EPSILON = 1e-15
#: Samples in the moving window [ours: about a third of a 150-page crawl's labelled links].
WINDOW = 50
#: Equal-width reliability bins on [0, 1].
BINS = 10

_Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Metrics:
    """Scores of ``n`` predictions, ``positives`` of them for relevant links.

    ``log_loss`` and ``brier`` are None when ``n == 0``; ``auc`` is None unless both classes
    occur.
    """

    n: int
    positives: int
    log_loss: float | None
    brier: float | None
    auc: float | None


@dataclass(frozen=True, slots=True)
class ReliabilityBin:
    """Predictions in [low, high) (the last bin includes 1): how many, their mean, and the
    share that were relevant (both None for an empty bin)."""

    low: float
    high: float
    count: int
    mean_predicted: float | None
    observed: float | None


@dataclass(frozen=True, slots=True)
class PrequentialReport:
    """The link model against the prior-only model, overall and over the last ``window``."""

    model: Metrics
    prior: Metrics
    window_model: Metrics
    window_prior: Metrics
    window: int
    reliability: tuple[ReliabilityBin, ...]

    def to_row(self) -> dict[str, Any]:
        """Flat columns for a results table: ``log_loss``, ``prior_log_loss``,
        ``window_log_loss``, ``window_prior_log_loss``, likewise ``brier`` and ``auc``, and
        ``predictions`` / ``positive_labels``."""
        row: dict[str, Any] = {"predictions": self.model.n,
                               "positive_labels": self.model.positives}
        for prefix, scores in (("", self.model), ("prior_", self.prior),
                               ("window_", self.window_model),
                               ("window_prior_", self.window_prior)):
            for name in ("log_loss", "brier", "auc"):
                row[prefix + name] = getattr(scores, name)
        return row

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def logistic(logit: float) -> float:
    """σ(z) = 1 / (1 + e^(−z)), split by sign so exp never overflows."""
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    e = math.exp(logit)
    return e / (1.0 + e)


def log_loss(predicted: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Mean negative log-likelihood of ``labels`` under ``predicted`` (None when empty).

    >>> round(log_loss([0.8, 0.4], [True, False]), 6)  # −(ln 0.8 + ln 0.6) / 2
    0.366985
    """
    p, y = _checked(predicted, labels)
    return _log_loss(p, y)


def brier_score(predicted: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Mean squared difference between prediction and label (None when empty).

    >>> round(brier_score([0.8, 0.4], [True, False]), 6)  # (0.04 + 0.16) / 2
    0.1
    """
    p, y = _checked(predicted, labels)
    return _brier(p, y)


def auc(predicted: Sequence[float], labels: Sequence[bool]) -> float | None:
    """P(a relevant link is predicted above an irrelevant one), ties counting ½; None unless
    both classes occur.

    >>> auc([0.9, 0.2, 0.5, 0.5], [True, False, True, False])  # (1 + 1 + 1 + ½) / 4
    0.875
    """
    p, y = _checked(predicted, labels)
    return _auc(p, y)


def metrics(predicted: Sequence[float], labels: Sequence[bool]) -> Metrics:
    """All three scores of one sequence."""
    p, y = _checked(predicted, labels)
    return _metrics(p, y)


def cumulative(predicted: Sequence[float], labels: Sequence[bool]) -> list[Metrics]:
    """The scores of the first i + 1 predictions, for each i (a learning curve)."""
    p, y = _checked(predicted, labels)
    return [_metrics(p[: i + 1], y[: i + 1]) for i in range(len(p))]


def windowed(
    predicted: Sequence[float], labels: Sequence[bool], window: int = WINDOW
) -> list[Metrics]:
    """The scores of the last ``window`` predictions up to each i (fewer at the start)."""
    p, y = _checked(predicted, labels)
    _check_count("window", window)
    return [_metrics(p[max(0, i + 1 - window): i + 1], y[max(0, i + 1 - window): i + 1])
            for i in range(len(p))]


def reliability(
    predicted: Sequence[float], labels: Sequence[bool], bins: int = BINS
) -> tuple[ReliabilityBin, ...]:
    """``bins`` equal-width bins of the predictions on [0, 1] (a reliability diagram)."""
    p, y = _checked(predicted, labels)
    _check_count("bins", bins)
    return _reliability(p, y, bins)


def evaluate(
    predicted: Sequence[float],
    prior_predicted: Sequence[float],
    labels: Sequence[bool],
    *,
    window: int = WINDOW,
    bins: int = BINS,
) -> PrequentialReport:
    """The model's predictions and the prior-only model's for the same labelled links."""
    p, y = _checked(predicted, labels)
    q, _ = _checked(prior_predicted, labels)
    _check_count("window", window)
    _check_count("bins", bins)
    return PrequentialReport(
        model=_metrics(p, y),
        prior=_metrics(q, y),
        window_model=_metrics(p[-window:], y[-window:]),
        window_prior=_metrics(q[-window:], y[-window:]),
        window=window,
        reliability=_reliability(p, y, bins),
    )


# -- validation (public functions) --------------------------------------------------------


def _checked(predicted: Sequence[float], labels: Sequence[bool]) -> tuple[_Floats, _Floats]:
    if len(predicted) != len(labels):
        raise ValueError(
            f"predicted and labels differ in length: {len(predicted)} and {len(labels)}"
        )
    p = np.asarray(predicted, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(p)) or np.any((p < 0.0) | (p > 1.0)):
        raise ValueError(f"predictions must be probabilities in [0, 1], got {list(predicted)!r}")
    if not all(isinstance(label, bool | np.bool_) for label in labels):
        raise ValueError(f"labels must be True/False, got {list(labels)!r}")
    return p, np.asarray(labels, dtype=np.float64).reshape(-1)


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")


# -- the formulas (inputs already validated) ----------------------------------------------


def _metrics(p: _Floats, y: _Floats) -> Metrics:
    return Metrics(len(p), int(y.sum()), _log_loss(p, y), _brier(p, y), _auc(p, y))


def _log_loss(p: _Floats, y: _Floats) -> float | None:
    if len(p) == 0:
        return None
    clipped = np.clip(p, EPSILON, 1.0 - EPSILON)
    return float(-np.mean(y * np.log(clipped) + (1.0 - y) * np.log1p(-clipped)))


def _brier(p: _Floats, y: _Floats) -> float | None:
    if len(p) == 0:
        return None
    return float(np.mean((p - y) ** 2))


def _auc(p: _Floats, y: _Floats) -> float | None:
    positives = int(y.sum())
    negatives = len(y) - positives
    if positives == 0 or negatives == 0:
        return None
    ranks = _average_ranks(p)
    # Mann–Whitney: U = R₁ − n₁(n₁ + 1)/2, AUC = U / (n₁ n₀) (Hanley & McNeil 1982)
    u = float(ranks[y == 1.0].sum()) - positives * (positives + 1) / 2.0
    return u / (positives * negatives)


def _average_ranks(values: _Floats) -> _Floats:
    """1-based ranks, ties given the mean of the ranks they span (scipy's ``rankdata``)."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(ordered)) + 1))
    ends = np.concatenate((starts[1:], [len(values)]))
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def _reliability(p: _Floats, y: _Floats, bins: int) -> tuple[ReliabilityBin, ...]:
    index = np.minimum((p * bins).astype(np.int64), bins - 1)  # p = 1 goes in the last bin
    out = []
    for b in range(bins):
        inside = index == b
        count = int(inside.sum())
        out.append(ReliabilityBin(
            low=b / bins,
            high=(b + 1) / bins,
            count=count,
            mean_predicted=float(p[inside].mean()) if count else None,
            observed=float(y[inside].mean()) if count else None,
        ))
    return tuple(out)
