"""The benchmark's accounting: pages (not steps), the own stop, the summary's censored medians,
the oracle's site graph and the demo checks."""

from __future__ import annotations

from pagesift_ui.bench import BenchReport, Truth
from pagesift_ui.bench.graph import explore_site, oracle_order
from pagesift_ui.bench.run import curve_from_keys, run_crawl
from pagesift_ui.bench.summary import (
    Censored,
    demo_checks,
    median_interval,
    query_rows,
    summarise,
)
from pagesift_ui.bench.truth import url_key
from pagesift_ui.session import CrawlConfig
from tests.bench.reports import report
from tests.fakes import DictSource, policy_for

SEED = "http://site.example/"
SAME = "<html><body><main><p>Opening hours: nine to five.</p></main></body></html>"


def _site() -> dict[str, str]:
    return {
        SEED: "<html><body><main><p>Welcome.</p><ul><li><a href='/a'>A</a></li>"
              "<li><a href='/b'>B</a></li><li><a href='/r'>Refund policy</a></li></ul>"
              "</main></body></html>",
        SEED + "a": SAME,
        SEED + "b": SAME,  # the same text as /a: a duplicate, a step but not a page
        SEED + "r": "<html><body><main><h1>Refund policy</h1><p>Our refund policy: a refund "
                    "within 30 days.</p></main></body></html>",
    }


def _config(limit: int = 10) -> CrawlConfig:
    return CrawlConfig.from_mapping({"seed_url": SEED, "query": "refund policy", "limit": limit,
                                     "delay_s": 0.0, "stop_on_verdict": False,
                                     "strategy": "bfs"})


def test_a_duplicate_is_a_step_not_a_page() -> None:
    config = _config()
    truth = frozenset({url_key(SEED + "r")})
    curve = run_crawl("breadth-first", config, truth,
                      DictSource(_site(), policy=policy_for(config)), trace=True)
    outcomes = [row["outcome"] for row in curve.trace]
    assert outcomes.count("duplicate") == 1
    assert curve.steps == 4 and curve.pages == 3
    assert curve.page_of_step == [1, 2, 2, 3]
    assert curve.pages_to(1.0) == 3
    assert curve.to_dict()["steps"] == 4 and len(curve.to_dict()["recall"]) == 3


def test_the_own_stop_is_the_first_verdict_that_stood_else_the_end() -> None:
    curve = curve_from_keys("focused", ["s", "x", "r", "y"], frozenset({"r"}))
    curve.page_of_step = [1, 2, 3, 4]
    assert curve.own_stop_pages == 4 and curve.stop_pages is None
    curve.stop_step, curve.stop_reason = 2, "saturated"
    assert curve.own_stop_pages == 2 and curve.recall_at(curve.own_stop_pages) == 0.0
    assert curve.own_stop_reason == "saturated"


def test_explore_site_reads_the_whole_followable_graph() -> None:
    config = _config()
    graph = explore_site(DictSource(_site(), policy=policy_for(config)), config)
    assert graph.complete and graph.pages == 4
    assert set(graph.edges[url_key(SEED)]) == {url_key(SEED + p) for p in ("a", "b", "r")}
    order, missing = oracle_order(graph.edges, graph.aliases, url_key(SEED),
                                  frozenset({url_key(SEED + "r")}))
    assert order == [url_key(SEED), url_key(SEED + "r")] and not missing


def test_censored_values_make_the_median_a_lower_bound_only_when_they_reach_it() -> None:
    from pagesift_ui.bench.summary import _median

    assert _median([Censored(1), Censored(2), Censored(5, exact=False)]) == Censored(2)
    assert _median([Censored(1), Censored(1.5, exact=False), Censored(3)]) == \
        Censored(1.5, exact=False)
    assert _median([Censored(1), Censored(3)]) == Censored(2)
    assert _median([]) is None


#: The 22 tuning queries' ratios at main f778181 (benchmarks/results), rounded to 2 digits.
_TUNING_RATIOS = [1.11, 1.21, 1.43, 1.47, 1.59, 1.60, 1.67, 1.67, 1.67, 1.75, 1.89, 2.40, 3.00,
                  3.14, 3.18, 3.35, 4.36, 4.75, 5.33, 6.91, 7.06, 18.20]


def test_the_median_interval_is_the_seeded_percentile_bootstrap_over_the_queries() -> None:
    import numpy as np
    from scipy import stats

    values = [Censored(v) for v in _TUNING_RATIOS]
    interval = median_interval(values)
    assert interval is not None
    # the interval of the twenty-second session's DECISIONS, from the same ratios
    assert (interval.low, interval.high) == (Censored(1.67), Censored(3.35))
    assert interval.text() == "95%: 1.67–3.35"
    assert median_interval(values) == interval  # seeded: the same values, the same interval
    # the ends are order statistics of the resampled medians: an independent draw of the
    # same bootstrap lands near them, and the median itself is inside
    again = stats.bootstrap((np.array(_TUNING_RATIOS),), np.median, method="percentile",
                            rng=np.random.default_rng(12345)).confidence_interval
    assert abs(again.low - 1.67) <= 0.1 and abs(again.high - 3.35) <= 0.3
    assert interval.low.value <= float(np.median(_TUNING_RATIOS)) <= interval.high.value


def test_a_censored_ratio_makes_both_ends_of_the_median_interval_lower_bounds() -> None:
    values = [Censored(v) for v in _TUNING_RATIOS[:-1]] + [Censored(18.2, exact=False)]
    interval = median_interval(values)
    assert interval is not None and not interval.low.exact and not interval.high.exact
    assert interval.text().startswith("95%, lower bounds: ")
    assert interval.to_json()["high"] == {"value": interval.high.value, "exact": False}


def test_no_median_interval_from_one_query_or_from_equal_ratios() -> None:
    assert median_interval([Censored(2.0)]) is None
    assert median_interval([Censored(2.0), Censored(2.0), Censored(2.0)]) is None
    assert median_interval([]) is None


def test_summary_counts_pages_to_90_against_the_oracle_and_the_budget() -> None:
    reached = report("pydocs-a", ["s", "x", "r1", "y", "r2"], ["s", "r1", "r2"],
                      {"r1", "r2"}, limit=5, stop=3)
    never = report("sqlite-b", ["s", "x", "y", "z"], ["s", "r"], {"r"}, limit=4)
    rows = query_rows([reached, never])
    assert rows[0].ratio_to_oracle() == Censored(5 / 3)
    assert rows[1].ratio_to_oracle() == Censored(5 / 2, exact=False)  # (budget + 1) ÷ oracle
    assert rows[0].stop_over_90() == 3 / 5 and rows[1].stop_over_90() is None
    summary = summarise(rows)
    assert summary.reached_90 == 1 and summary.queries == 2
    assert summary.recall_at_stop == (0.5 + 0.0) / 2
    assert summary.ratio_to_oracle == Censored((5 / 3 + 5 / 2) / 2, exact=False)
    assert summary.stop_counted == 1
    # two different ratios, one censored: an interval, and only a lower bound
    assert summary.ratio_interval is not None and not summary.ratio_interval.high.exact
    assert summary.to_json()["median_pages_to_90_over_oracle_interval"]["level"] == 0.95
    assert summary.met() == {"ratio_to_oracle": False, "reached_90": False,
                             "recall_at_stop": False, "stop_over_90": False}


def test_demo_checks_compare_with_breadth_first_and_want_needle_to_find_nothing() -> None:
    keys = frozenset({"r"})
    focused = curve_from_keys("focused", ["s", "r"], keys)
    bfs = curve_from_keys("breadth-first", ["s", "a", "b", "r"], keys)
    good = BenchReport("helpdesk", Truth("q", "http://x/", ("http://x/r",)), 10,
                       [focused, bfs, curve_from_keys("oracle", ["s", "r"], keys)])
    needle_curve = curve_from_keys("focused", ["s", "a"], frozenset())
    needle_curve.stop_reason = "no_relevant_pages"
    needle = BenchReport("needle", Truth("q", "http://x/", ()), 10, [needle_curve])
    checks = demo_checks([good, needle])
    assert [(name.split(":")[0], ok) for name, ok, _ in checks] == [("helpdesk", True),
                                                                    ("needle", True)]
