"""Term weights: the site IDF of docs/DESIGN.md §6."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pagesift_ui.frontier.weights import (
    MIN_PAGES,
    MIN_WEIGHT,
    RESCORE_DELTA,
    TermWeights,
    idf,
    mask_coverage,
    mask_coverage_array,
)


def test_constants_are_the_spec_values() -> None:
    assert (MIN_PAGES, MIN_WEIGHT, RESCORE_DELTA) == (3, 0.15, 0.1)


# docs/DESIGN.md §6 checks; idf(10, 1) = ln(11/1.5)/ln(11) = 1.99243/2.39790 = 0.83091,
# idf(10, 5) = ln(2)/ln(11) = 0.28906, idf(10, 0) = ln(22)/ln(11) > 1 → 1,
# idf(10, 10) = ln(11/10.5)/ln(11) = 0.0194 → floor 0.15.
@pytest.mark.parametrize(
    ("n", "df", "expected"),
    [(10, 0, 1.0), (10, 1, 0.8309), (10, 5, 0.2891), (10, 10, 0.15)],
)
def test_idf_table_of_the_spec(n: int, df: int, expected: float) -> None:
    assert idf(n, df) == pytest.approx(expected, abs=5e-5)


def test_idf_clamps_exactly_at_both_ends() -> None:
    assert idf(10, 0) == 1.0
    assert idf(10, 10) == MIN_WEIGHT
    assert idf(0, 0) == 1.0  # no pages: no evidence


def test_idf_without_floor_keeps_small_weights() -> None:
    assert idf(10, 10, floor=0.0) == pytest.approx(math.log(11 / 10.5) / math.log(11))


@pytest.mark.parametrize(("n", "df"), [(-1, 0), (3, 4), (3, -1), (2.0, 1), (True, 0)])
def test_idf_rejects_impossible_counts(n: object, df: object) -> None:
    with pytest.raises(ValueError):
        idf(n, df)  # type: ignore[arg-type]


def test_weights_start_at_one_and_stay_until_min_pages() -> None:
    tw = TermWeights(3)
    assert tw.weights == [1.0, 1.0, 1.0]
    tw.observe(0b001)
    tw.observe(0b001)
    assert tw.pages == 2
    assert tw.df == [2, 0, 0]
    assert tw.weights == [1.0, 1.0, 1.0]


def test_weights_recompute_from_the_third_page() -> None:
    tw = TermWeights(3)
    for mask in (0b011, 0b001, 0b001):
        tw.observe(mask)
    # N = 3: df 3 → ln(4/3.5)/ln 4 = 0.0963 → 0.15; df 1 → ln(4/1.5)/ln 4 = 0.7075; df 0 → 1
    assert tw.df == [3, 1, 0]
    assert tw.weights == pytest.approx([0.15, math.log(4 / 1.5) / math.log(4), 1.0])


def test_every_page_counts_even_one_without_terms() -> None:
    tw = TermWeights(2)
    for mask in (0b01, 0, 0, 0):
        tw.observe(mask)
    assert tw.pages == 4
    assert tw.weights[0] == pytest.approx(idf(4, 1))


def test_coverage_is_the_share_of_term_weight() -> None:
    tw = TermWeights(3)
    assert tw.coverage(0) == 0.0
    assert tw.coverage(0b111) == 1.0
    assert tw.coverage(0b010) == pytest.approx(1 / 3)
    for mask in (0b011, 0b001, 0b001):
        tw.observe(mask)
    w = tw.weights
    assert tw.coverage(0b101) == pytest.approx((w[0] + w[2]) / sum(w))


def test_coverage_of_no_terms_is_zero() -> None:
    assert TermWeights(0).coverage(0) == 0.0
    assert mask_coverage(0, []) == 0.0


def test_coverage_rejects_bits_beyond_the_terms() -> None:
    with pytest.raises(ValueError, match="beyond"):
        TermWeights(2).coverage(0b100)
    with pytest.raises(ValueError):
        TermWeights(2).observe(-1)


def test_array_coverage_gives_identical_floats() -> None:
    rng = random.Random(7)
    for n_terms in (1, 3, 8, 9, 16):
        weights = [rng.uniform(MIN_WEIGHT, 1.0) for _ in range(n_terms)]
        masks = [rng.randrange(1 << n_terms) for _ in range(500)]
        expected = [mask_coverage(m, weights) for m in masks]
        got = mask_coverage_array(np.array(masks, dtype=np.int64), weights)
        assert got.tolist() == expected  # bit-identical, not approximately


def test_moved_reports_a_move_once_then_records_it() -> None:
    tw = TermWeights(2)
    assert not tw.moved()
    for _ in range(3):
        tw.observe(0b01)  # term 0 on every page: 1 → 0.15
    assert tw.moved()
    assert not tw.moved()  # recorded: nothing moved since


def test_moved_ignores_drifts_below_delta_until_they_add_up() -> None:
    tw = TermWeights(1)
    for _ in range(3):
        tw.observe(0)
    assert not tw.moved()  # df 0: weight stays 1
    tw.observe(1)  # N = 4, df 1: ln(5/1.5)/ln 5 = 0.748 → moved by 0.25
    assert tw.moved(delta=0.2)
    for _ in range(3):
        tw.observe(0)  # N = 7: ln(8/1.5)/ln 8 = 0.805, up 0.057 from the record
    assert not tw.moved()
    for _ in range(10):
        tw.observe(0)  # N = 17: 0.860, up 0.112 since the record
    assert tw.moved()


def test_moved_rejects_a_non_positive_delta() -> None:
    with pytest.raises(ValueError):
        TermWeights(1).moved(0.0)
