"""Statistics conventions shared by every significance decision (docs/DESIGN.md §0).

One error rate, ``DELTA``, drives every test: the two-sided quantile ``Z2`` for the Wilson
intervals of the harvest (docs/DESIGN.md §5) and the one-sided ``Z1`` for the link model's "has the
posterior moved significantly" rule (docs/DESIGN.md §3).

The collocation test's Poisson tail and Benjamini–Hochberg adjustment (docs/DESIGN.md §7) are
here too, built on ``scipy.special`` rather than ``scipy.stats``: importing ``scipy.stats``
costs ~46 MB of resident memory and ~2.5 s more than ``scipy.special`` (issue 15), and both
give exactly scipy.stats' numbers (``tests/frontier/test_stats.py`` checks it). scipy itself
is imported on the first tail asked for, so importing the core does not load it.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "DELTA",
    "Z1",
    "Z2",
    "Interval",
    "bh_adjusted",
    "poisson_upper_tail",
    "wilson",
    "z_one_sided",
    "z_two_sided",
]

#: The one error rate for every significance decision (docs/DESIGN.md §0).
DELTA = 0.05


def _check_delta(delta: float) -> None:
    if not (isinstance(delta, int | float) and 0.0 < delta < 1.0):
        raise ValueError(f"delta must be a probability in (0, 1), got {delta!r}")


def z_two_sided(delta: float = DELTA) -> float:
    """Φ⁻¹(1 − δ/2): the quantile of a two-sided 1 − δ interval."""
    _check_delta(delta)
    return NormalDist().inv_cdf(1.0 - delta / 2.0)


def z_one_sided(delta: float = DELTA) -> float:
    """Φ⁻¹(1 − δ): the quantile of a one-sided level-δ test."""
    _check_delta(delta)
    return NormalDist().inv_cdf(1.0 - delta)


#: Two-sided quantile at DELTA, 1.959964 (Wilson intervals, docs/DESIGN.md §0).
Z2 = z_two_sided(DELTA)
#: One-sided quantile at DELTA, 1.644854 (link-model significance, docs/DESIGN.md §0).
Z1 = z_one_sided(DELTA)


class Interval(NamedTuple):
    """A confidence interval; a 2-tuple ``(low, high)``."""

    low: float
    high: float


def wilson(hits: int, n: int, z: float = Z2) -> Interval:
    """Wilson score interval for ``hits`` successes in ``n`` trials.

    Parameters
    ----------
    hits, n : int
        Counts with ``0 <= hits <= n``.
    z : float
        The normal quantile; the default is the two-sided ``Z2`` at ``DELTA``.

    Returns
    -------
    Interval
        ``(low, high)`` clipped to [0, 1]; ``(0, 1)`` when ``n == 0``; the lower bound is
        exactly 0 when ``hits == 0`` and the upper bound exactly 1 when ``hits == n``.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
    JASA 22 (1927); the edge cases follow Newcombe (1998) as scipy's ``_binomtest`` does.

    >>> wilson(0, 0)
    Interval(low=0.0, high=1.0)
    >>> round(wilson(3, 4).low, 4), round(wilson(3, 4).high, 4)
    (0.3006, 0.9544)
    """
    if isinstance(hits, bool) or isinstance(n, bool):
        raise ValueError("hits and n must be counts, not booleans")
    if not (isinstance(hits, int) and isinstance(n, int)) or not 0 <= hits <= n:
        raise ValueError(f"need integers 0 <= hits <= n, got hits={hits!r}, n={n!r}")
    if not (math.isfinite(z) and z > 0):
        raise ValueError(f"z must be a positive finite quantile, got {z!r}")
    if n == 0:
        return Interval(0.0, 1.0)
    return _wilson_unchecked(hits, n, z)


def _wilson_unchecked(hits: int, n: int, z: float) -> Interval:
    """The formula of docs/DESIGN.md §0; assumes the arguments were validated."""
    p_hat = hits / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p_hat + z2 / (2.0 * n)) / denominator
    half = z * math.sqrt(p_hat * (1.0 - p_hat) / n + z2 / (4.0 * n * n)) / denominator
    # h = 0 and h = n give centre ∓ half = 0 or 1 analytically; pin them so no rounding residue
    # (1e-17) makes a part look non-dry or a bound exceed 1.
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return Interval(low, high)


def poisson_upper_tail(observed: int, expected: float) -> float:
    """P(Poisson(``expected``) ≥ ``observed``): the exact tail of the collocation test.

    It is ``scipy.stats.poisson.sf(observed - 1, expected)`` with the same float:
    ``poisson.sf(k, μ)`` is ``special.pdtrc(k, μ)`` for k ≥ 0 and 1 below the support, so
    ``observed == 0`` gives exactly 1.0. ``expected == 0`` also gives 1.0 (no adjacency can
    have occurred by chance, and none was counted: the caller's convention, §7).

    >>> poisson_upper_tail(0, 2.5), poisson_upper_tail(3, 0.0)
    (1.0, 1.0)
    >>> round(poisson_upper_tail(3, 1.0), 6)
    0.080301
    """
    if isinstance(observed, bool) or not isinstance(observed, int) or observed < 0:
        raise ValueError(f"observed must be a count >= 0, got {observed!r}")
    if not (math.isfinite(expected) and expected >= 0.0):
        raise ValueError(f"expected must be a finite rate >= 0, got {expected!r}")
    if observed == 0 or expected == 0.0:
        return 1.0
    from scipy import special  # ~0.5 s and ~26 MB: on the first test, not with the core

    return float(special.pdtrc(observed - 1, expected))


def bh_adjusted(p_values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Benjamini–Hochberg adjusted p-values, in the order given.

    The arithmetic of ``scipy.stats.false_discovery_control(ps, method="bh")`` step by step,
    so the floats are identical: sort, multiply by ``m / i`` (Benjamini & Hochberg 1995,
    eq. 1 rearranged), take the running minimum from the largest p down (Yekutieli &
    Benjamini 1999), restore the order, clip to [0, 1]. One p-value or none is returned as is.

    >>> bh_adjusted(np.array([0.01, 0.04, 0.03])).tolist()
    [0.03, 0.04, 0.04]
    """
    ps = np.asarray(p_values, dtype=np.float64)
    if ps.ndim != 1:
        raise ValueError(f"p_values must be one-dimensional, got shape {ps.shape}")
    if np.any((ps < 0.0) | (ps > 1.0)) or np.any(np.isnan(ps)):
        raise ValueError("p_values must all be probabilities in [0, 1]")
    m = ps.shape[0]
    if m <= 1:
        return ps
    order = np.argsort(ps)
    ranked = ps[order]
    ranked *= m / np.arange(1, m + 1, dtype=np.float64)
    np.minimum.accumulate(ranked[::-1], out=ranked[::-1])
    adjusted = np.empty_like(ranked)
    adjusted[order] = ranked
    return np.clip(adjusted, 0.0, 1.0)
