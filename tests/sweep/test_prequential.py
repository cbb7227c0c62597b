"""Prequential metrics against values computed by hand on a short sequence.

The sequence: predictions p = (0.9, 0.2, 0.6, 0.4, 0.5) for labels y = (1, 0, 0, 1, 1).

- log-loss = −(ln 0.9 + ln 0.8 + ln 0.4 + ln 0.4 + ln 0.5) / 5
           = (0.1053605 + 0.2231436 + 0.9162907 + 0.9162907 + 0.6931472) / 5 = 0.5708465
- Brier    = (0.1² + 0.2² + 0.6² + 0.6² + 0.5²) / 5 = 1.02 / 5 = 0.204
- AUC: positives {0.9, 0.4, 0.5} against negatives {0.2, 0.6}: 0.9 beats both, 0.4 and 0.5
  beat 0.2 only → 4 of 6 pairs = 2/3
"""

from __future__ import annotations

import math

import pytest

from pagesift_ui.frontier.prequential import (
    EPSILON,
    Metrics,
    ReliabilityBin,
    auc,
    brier_score,
    cumulative,
    evaluate,
    log_loss,
    metrics,
    reliability,
    windowed,
)

P = [0.9, 0.2, 0.6, 0.4, 0.5]
Y = [True, False, False, True, True]
LOG_LOSS = -(math.log(0.9) + math.log(0.8) + 2 * math.log(0.4) + math.log(0.5)) / 5


def test_the_three_scores_of_the_sequence() -> None:
    assert log_loss(P, Y) == pytest.approx(0.5708465424, abs=1e-9)
    assert log_loss(P, Y) == pytest.approx(LOG_LOSS, rel=1e-12)
    assert brier_score(P, Y) == pytest.approx(0.204, abs=1e-12)
    assert auc(P, Y) == pytest.approx(2 / 3, abs=1e-12)
    assert metrics(P, Y) == Metrics(5, 3, pytest.approx(LOG_LOSS), pytest.approx(0.204),
                                    pytest.approx(2 / 3))


def test_cumulative_scores_after_each_prediction() -> None:
    curve = cumulative(P, Y)
    assert [m.n for m in curve] == [1, 2, 3, 4, 5]
    assert curve[0].auc is None  # one class only
    assert curve[0].log_loss == pytest.approx(-math.log(0.9))
    # after two: −(ln 0.9 + ln 0.8)/2, (0.01 + 0.04)/2, and the positive ranked first
    assert curve[1].log_loss == pytest.approx(0.1642520335, abs=1e-9)
    assert curve[1].brier == pytest.approx(0.025)
    assert curve[1].auc == 1.0
    # after three: positives {0.9} against {0.2, 0.6}: both pairs right
    assert curve[2].auc == 1.0
    assert curve[4].log_loss == pytest.approx(LOG_LOSS)


def test_moving_window_scores_only_the_last_predictions() -> None:
    recent = windowed(P, Y, window=2)
    last = recent[-1]  # (0.4, 0.5) both relevant: −(ln 0.4 + ln 0.5)/2, (0.36 + 0.25)/2
    assert (last.n, last.positives, last.auc) == (2, 2, None)
    assert last.log_loss == pytest.approx(0.8047189562, abs=1e-9)
    assert last.brier == pytest.approx(0.305)
    assert recent[0].n == 1  # fewer at the start
    assert recent[2].auc is None  # (0.2, 0.6), both irrelevant
    assert recent[3].auc == 0.0  # (0.6 irrelevant, 0.4 relevant): the pair is wrong
    assert windowed(P, Y, window=5)[-1] == metrics(P, Y)


def test_ties_count_half_and_one_class_has_no_auc() -> None:
    assert auc([0.5, 0.5], [True, False]) == 0.5
    assert auc([0.9, 0.2, 0.5, 0.5], [True, False, True, False]) == 0.875
    assert auc([0.3, 0.7], [True, True]) is None
    assert auc([0.3, 0.7], [False, False]) is None


def test_empty_and_extreme_predictions() -> None:
    assert metrics([], []) == Metrics(0, 0, None, None, None)
    # a certain miss is clipped: −ln(1 − (1 − ε)) ≈ 34.54 (1 − 1e-15 is not exact in binary)
    assert log_loss([1.0], [False]) == pytest.approx(-math.log(EPSILON), abs=1e-2)
    assert log_loss([0.0], [True]) == pytest.approx(-math.log(EPSILON), rel=1e-12)
    assert log_loss([1.0, 0.0], [True, False]) == pytest.approx(0.0, abs=1e-14)
    assert brier_score([1.0], [False]) == 1.0


def test_reliability_bins() -> None:
    bins = reliability(P, Y, bins=5)
    assert [b.count for b in bins] == [0, 1, 2, 1, 1]
    assert bins[0] == ReliabilityBin(0.0, 0.2, 0, None, None)
    assert bins[1] == ReliabilityBin(0.2, 0.4, 1, pytest.approx(0.2), 0.0)
    assert bins[2] == ReliabilityBin(0.4, 0.6, 2, pytest.approx(0.45), 1.0)
    assert bins[4] == ReliabilityBin(0.8, 1.0, 1, pytest.approx(0.9), 1.0)
    assert reliability([1.0], [True], bins=4)[-1].count == 1  # 1 falls in the last bin


def test_evaluate_scores_model_and_prior_alike() -> None:
    prior = [0.5] * 5  # a prior that knows nothing: ln 2 per link, Brier ¼, AUC ½
    report = evaluate(P, prior, Y, window=2, bins=5)
    assert report.model == metrics(P, Y)
    assert report.prior.log_loss == pytest.approx(math.log(2))
    assert report.prior.brier == pytest.approx(0.25)
    assert report.prior.auc == 0.5
    assert report.window_model == windowed(P, Y, window=2)[-1]
    row = report.to_row()
    assert row["predictions"] == 5 and row["positive_labels"] == 3
    assert row["log_loss"] == pytest.approx(LOG_LOSS)
    assert row["prior_brier"] == pytest.approx(0.25)
    assert row["window_auc"] is None
    assert set(row) >= {"window_prior_log_loss", "window_brier", "prior_auc"}


@pytest.mark.parametrize(
    ("predicted", "labels", "message"),
    [
        ([0.5], [True, False], "differ in length"),
        ([1.5], [True], "probabilities"),
        ([math.nan], [True], "probabilities"),
        ([0.5], [1], "True/False"),
    ],
)
def test_bad_input_is_refused(predicted: list[float], labels: list[object], message: str
                              ) -> None:
    with pytest.raises(ValueError, match=message):
        metrics(predicted, labels)  # type: ignore[arg-type]


def test_bad_window_or_bins_is_refused() -> None:
    with pytest.raises(ValueError, match="window"):
        windowed(P, Y, window=0)
    with pytest.raises(ValueError, match="bins"):
        reliability(P, Y, bins=0)
