"""Wilson intervals and the δ quantiles (docs/DESIGN.md §0)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats  # the reference the scipy.special versions must match

from pagesift_ui.frontier.stats import (
    DELTA,
    Z1,
    Z2,
    Interval,
    bh_adjusted,
    poisson_upper_tail,
    wilson,
    z_one_sided,
    z_two_sided,
)

# Reference values from statsmodels 0.15.0 (an independent implementation), made with
#   python -c "from statsmodels.stats.proportion import proportion_confint as ci;
#              print(ci(h, n, alpha=0.05, method='wilson'))"
# for each (h, n) below.
WILSON_REFERENCE = [
    (0, 1, 0.0, 0.7934506856227627),
    (1, 1, 0.2065493143772374, 1.0),
    (3, 4, 0.30064184258240184, 0.9544127391902995),
    (5, 40, 0.054595002509454024, 0.261121198388511),
    (40, 40, 0.9123783988027134, 1.0),
    (7, 13, 0.29143795714506004, 0.7679393219046169),
    (1, 100, 0.001767432064140647, 0.05448619617870533),
    (50, 100, 0.4038315303659956, 0.5961684696340044),
    (99, 100, 0.9455138038212946, 0.9982325679358593),
    (0, 10, 0.0, 0.27753279986288926),
    (10, 10, 0.7224672001371106, 1.0),
]


def test_delta_and_quantiles_match_the_spec() -> None:
    assert DELTA == 0.05
    assert Z2 == pytest.approx(1.959964, abs=1e-6)
    assert Z1 == pytest.approx(1.644854, abs=1e-6)
    assert z_two_sided(0.01) == pytest.approx(2.575829, abs=1e-6)
    assert z_one_sided(0.10) == pytest.approx(1.281552, abs=1e-6)


@pytest.mark.parametrize(("hits", "n", "low", "high"), WILSON_REFERENCE)
def test_wilson_matches_statsmodels(hits: int, n: int, low: float, high: float) -> None:
    interval = wilson(hits, n)
    assert interval.low == pytest.approx(low, abs=1e-12)
    assert interval.high == pytest.approx(high, abs=1e-12)


def test_wilson_edge_cases_are_exact() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 0) == Interval(0.0, 1.0)
    for n in (1, 2, 7, 1000):
        assert wilson(0, n).low == 0.0
        assert wilson(n, n).high == 1.0


def test_wilson_is_a_two_tuple() -> None:
    low, high = wilson(3, 4)
    assert (low, high) == tuple(wilson(3, 4))
    assert len(wilson(3, 4)) == 2


@pytest.mark.parametrize(
    ("hits", "n", "z"), [(-1, 3, Z2), (4, 3, Z2), (1, -1, Z2), (1, 2, 0.0), (1, 2, math.nan)]
)
def test_wilson_rejects_bad_input(hits: int, n: int, z: float) -> None:
    with pytest.raises(ValueError):
        wilson(hits, n, z)


def test_quantiles_reject_bad_delta() -> None:
    for delta in (0.0, 1.0, -0.1, 2):
        with pytest.raises(ValueError, match="delta"):
            z_two_sided(delta)


@given(st.integers(min_value=1, max_value=10_000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
))
def test_wilson_interval_contains_the_point_estimate(hn: tuple[int, int]) -> None:
    hits, n = hn
    low, high = wilson(hits, n)
    assert 0.0 <= low <= hits / n <= high <= 1.0


# The collocation test (docs/DESIGN.md §7) left scipy.stats for scipy.special (issue 15: import
# cost); its numbers must stay exactly scipy.stats' — the seeds' stop rules depend on them.
@given(st.integers(min_value=0, max_value=400),
       st.floats(min_value=0.0, max_value=300.0, allow_nan=False, allow_subnormal=False))
def test_the_poisson_tail_is_exactly_scipy_stats_sf(observed: int, expected: float) -> None:
    reference = float(scipy_stats.poisson.sf(observed - 1, expected)) if expected > 0 else 1.0
    assert poisson_upper_tail(observed, expected) == reference


def test_the_poisson_tail_edges_are_exact() -> None:
    assert poisson_upper_tail(0, 0.0) == 1.0 and poisson_upper_tail(0, 7.5) == 1.0
    assert poisson_upper_tail(5, 0.0) == 1.0  # E = 0: no chance adjacency (§7's convention)
    assert poisson_upper_tail(1, 1.0) == pytest.approx(1.0 - math.exp(-1.0), abs=1e-15)


@pytest.mark.parametrize(("observed", "expected"), [(-1, 1.0), (True, 1.0), (2, -0.5),
                                                    (2, math.nan), (2, math.inf)])
def test_the_poisson_tail_refuses_what_is_not_a_count_and_a_rate(
    observed: int, expected: float
) -> None:
    with pytest.raises(ValueError):
        poisson_upper_tail(observed, expected)


@given(st.lists(st.one_of(st.sampled_from([0.0, 1.0, 0.05, 0.5]),
                          st.floats(min_value=0.0, max_value=1.0, allow_subnormal=False)),
                max_size=40))
def test_bh_adjustment_is_exactly_scipy_stats_false_discovery_control(ps: list[float]) -> None:
    given_ps = np.asarray(ps, dtype=np.float64)
    ours = bh_adjusted(given_ps.copy())
    if len(ps) == 0:
        assert ours.shape == (0,)
        return
    reference = scipy_stats.false_discovery_control(given_ps.copy(), method="bh")
    assert np.array_equal(ours, np.atleast_1d(reference))


def test_bh_adjustment_leaves_its_input_alone_and_refuses_non_probabilities() -> None:
    ps = np.array([0.04, 0.01, 0.03])
    assert bh_adjusted(ps).tolist() == [0.04, 0.03, 0.04] and ps.tolist() == [0.04, 0.01, 0.03]
    for bad in ([0.2, 1.5], [np.nan, 0.1], [-0.1, 0.2]):
        with pytest.raises(ValueError):
            bh_adjusted(np.array(bad))
    with pytest.raises(ValueError):
        bh_adjusted(np.zeros((2, 2)))
