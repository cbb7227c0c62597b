"""``benchmarks/sweep_patience.py`` sweeps any of the four stop-rule defaults: the options it
replays with, its refusal of a value before any crawl, and its summary's two numbers."""

from __future__ import annotations

import pytest

from pagesift_ui.frontier.adaptive import AdaptiveOptions
from tests.bench.docsite_truth import ROOT, load_module

SWEEP = ROOT / "benchmarks" / "sweep_patience.py"


def test_each_value_replaces_one_default_and_all_but_one_depends_on_the_query() -> None:
    sweep = load_module("sweep_patience_under_test", SWEEP)
    assert sweep.options_for("patience", "3", 7) == AdaptiveOptions(patience=3)
    assert sweep.options_for("min_gain", "0.1", 7) == AdaptiveOptions(min_gain=0.1)
    assert sweep.options_for("evidence_per_term", "8", 7) == AdaptiveOptions(evidence_per_term=8)
    # every term's evidence but one: 6 of 7, 9 of 10; a one-term query needs its one term
    assert sweep.options_for("coverage_threshold", "all-but-one", 7).coverage_threshold == 6 / 7
    assert sweep.options_for("coverage_threshold", "all-but-one", 10).coverage_threshold == 0.9
    assert sweep.options_for("coverage_threshold", "all-but-one", 1).coverage_threshold == 1.0


@pytest.mark.parametrize(("argv", "says"), [
    (["--option", "min_gain"], "--option min_gain needs --values"),
    (["--option", "patience", "--values", "x"], "patience 'x': invalid literal"),
    (["--option", "coverage_threshold", "--values", "1.5"],
     "coverage_threshold must be in (0, 1], got 1.5"),
    (["--option", "min_gain", "--values", "all-but-one"],
     "min_gain 'all-but-one': could not convert"),
])
def test_a_sweep_it_cannot_run_is_refused_before_any_crawl(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = load_module("sweep_patience_under_test", SWEEP)
    with pytest.raises(SystemExit) as stopped:
        sweep.main(argv)  # a crawl would not return at once: the refusal comes first
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


def test_the_summary_is_mean_recall_and_the_median_over_queries_that_reach_90() -> None:
    sweep = load_module("sweep_patience_under_test", SWEEP)
    # (pages at stop, recall there, pages to 90%): the query that never reaches 90% counts
    # in the recall only
    assert sweep.summary([(30, 1.0, 20), (10, 0.5, 10), (200, 0.4, None)]) == "0.633 / 1.25"
    assert sweep.summary([(200, 0.0, None)]) == "0.000 / –"
