"""Link model (seed ``model.rs``, docs/DESIGN.md §3): the seed test ported with the same numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.model import FEATURES, PRIOR_PRECISION, LinkModel
from pagesift_ui.frontier.stats import Z1


def test_starts_at_the_prior_and_moves_only_on_strong_evidence() -> None:
    prior = (2.0, 1.5, 1.0, 0.5, 0.5)
    m = LinkModel(prior)
    assert m.weights == prior
    for _ in range(5):
        assert not m.observe([1.0, 0.0, 0.0, 0.0, 0.0], False)
    assert m.weights == prior
    for _ in range(400):
        m.observe([1.0, 0.0, 0.0, 0.0, 0.0], False)
        m.observe([0.0, 1.0, 0.0, 0.0, 0.0], True)
    w = m.weights
    assert w[0] < prior[0] and w[1] > prior[1], w
    assert w[2] == prior[2], "features never seen keep the prior"


def test_constants_and_views_at_the_start() -> None:
    assert FEATURES == 5
    assert PRIOR_PRECISION == 0.25
    m = LinkModel((2.0, 1.5, 1.0, 0.5, 0.5))
    assert m.prior == (2.0, 1.5, 1.0, 0.5, 0.5)
    assert m.posterior_mean == m.prior
    assert m.standard_error == (2.0,) * 5  # √(1/0.25)
    assert m.z == Z1


def test_one_update_follows_chapelle_and_li() -> None:
    m = LinkModel((2.0, 1.5, 1.0, 0.5, 0.5))
    m.observe([1.0, 0.0, 0.0, 0.0, 0.0], False)
    # logit = 2·1 + 0 (intercept) = 2 → p = σ(2); q₀ = ¼ + p(1−p); m₀ = 2 − p/q₀
    p = 1 / (1 + math.exp(-2.0))
    q0 = 0.25 + p * (1 - p)
    assert m.posterior_mean[0] == pytest.approx(2.0 - p / q0, abs=1e-12)
    assert m.standard_error[0] == pytest.approx((1 / q0) ** 0.5, abs=1e-12)
    assert m.posterior_mean[1:] == (1.5, 1.0, 0.5, 0.5)


def test_rejects_malformed_input() -> None:
    with pytest.raises(ValueError, match="5 values"):
        LinkModel((1.0, 2.0))
    with pytest.raises(ValueError, match="non-negative"):
        LinkModel((-1.0, 0.0, 0.0, 0.0, 0.0))
    m = LinkModel()
    with pytest.raises(ValueError, match="finite"):
        m.observe([float("nan"), 0, 0, 0, 0], True)


features = st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=5, max_size=5)


@given(st.lists(st.tuples(features, st.booleans()), max_size=60))
def test_the_link_model_never_uses_a_negative_weight(samples: list) -> None:
    m = LinkModel()
    for x, hit in samples:
        m.observe(x, hit)
        assert all(w >= 0.0 for w in m.weights)
