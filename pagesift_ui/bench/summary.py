"""Per-query rows and the quality summary of a set of benchmark reports (issue 11's targets).

Every number counts **pages**: fetches that count against the page budget (a duplicate is a
step, not a page; see ``pagesift_ui.bench.run``). A crawl's *own stop* is the first stop
verdict that stood, or the end of its run when none stood within the budget. A crawl that
never reached 90% recall within its budget has an unknown pages-to-90%, larger than the
budget: its ratio to the oracle is *censored* — at least (budget + 1) ÷ oracle — and is shown
as ``>x``; a median whose middle value is censored is a lower bound (``≥``).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .report import BenchReport
from .run import CrawlCurve

__all__ = [
    "PAGES_NOTE",
    "TARGETS",
    "Censored",
    "MedianInterval",
    "QueryRow",
    "Summary",
    "demo_checks",
    "median_interval",
    "query_row",
    "query_rows",
    "summarise",
]

PAGES_NOTE = ("Pages are fetches that count against the page budget: a duplicate (same text as "
              "a page already read, refunded) is a step, not a page; a failed fetch is a page.")

#: Issue 11's targets: median pages-to-90% ÷ oracle, every query at 90% within the budget,
#: mean recall at the crawl's own stop, median pages at own stop ÷ own pages-to-90%.
TARGETS = {"ratio_to_oracle": 2.0, "recall_at_stop": 0.90, "stop_over_90": 1.5}

#: The bootstrap interval of the median ratio (``median_interval``): its level, resamples and
#: the seed of its generator, fixed so that the same crawls give the same interval.
INTERVAL_LEVEL = 0.95
INTERVAL_RESAMPLES = 9_999
INTERVAL_SEED = 0


@dataclass(frozen=True, slots=True)
class Censored:
    """A value known exactly, or only as a lower bound (``exact`` False)."""

    value: float
    exact: bool = True

    def text(self, digits: int = 2) -> str:
        return f"{self.value:.{digits}f}" if self.exact else f">{self.value:.{digits}f}"

    def to_json(self) -> dict[str, Any]:
        return {"value": round(self.value, 4), "exact": self.exact}


def _median(values: Sequence[Censored]) -> Censored | None:
    """The median; a lower bound when a censored value takes part in it."""
    if not values:
        return None
    ordered = sorted(values, key=lambda c: c.value)
    n = len(ordered)
    middle = ordered[(n - 1) // 2: n // 2 + 1]
    # a censored value may really be anywhere above its bound, so one at or below the middle
    # can move the median up: it is then only a lower bound
    exact = all(c.exact for c in ordered[: n // 2 + 1])
    return Censored(statistics.fmean(c.value for c in middle), exact)


@dataclass(frozen=True, slots=True)
class MedianInterval:
    """A percentile bootstrap interval of a median over queries: how far the choice of
    queries alone moves it. ``low`` and ``high`` are lower bounds (not exact) when a value
    was censored."""

    low: Censored
    high: Censored
    level: float = INTERVAL_LEVEL
    resamples: int = INTERVAL_RESAMPLES

    def text(self, digits: int = 2) -> str:
        bounds = "" if self.low.exact and self.high.exact else ", lower bounds"
        return (f"{self.level:.0%}{bounds}: {self.low.value:.{digits}f}–"
                f"{self.high.value:.{digits}f}")

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low.to_json(), "high": self.high.to_json(),
                "level": self.level, "resamples": self.resamples, "method": "percentile"}


def median_interval(values: Sequence[Censored], level: float = INTERVAL_LEVEL,
                    resamples: int = INTERVAL_RESAMPLES,
                    seed: int = INTERVAL_SEED) -> MedianInterval | None:
    """The percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13) of the median of
    ``values``, resampling the queries with replacement (``scipy.stats.bootstrap``, seeded:
    the same values give the same interval); None under two values or when they are all
    equal (no spread to resample).

    The queries of a dev set are a sample of what people ask: a target inside this interval
    is not told apart from the median by these queries (docs/DECISIONS.md, issue 11).
    A censored value is resampled at its lower bound, so every resampled median is at most
    its true value, and so are the interval's ends: then both are lower bounds.
    """
    if len(values) < 2 or len({v.value for v in values}) < 2:
        return None
    import numpy as np
    from scipy import stats  # ~2.5 s to import: only when a summary asks for it

    data = np.array([v.value for v in values], dtype=np.float64)
    result = stats.bootstrap(
        (data,), np.median, n_resamples=resamples, confidence_level=level,
        method="percentile", vectorized=True, rng=np.random.default_rng(seed),
    )
    exact = all(v.exact for v in values)
    interval = result.confidence_interval
    return MedianInterval(Censored(float(interval.low), exact),
                          Censored(float(interval.high), exact), level, resamples)


@dataclass(frozen=True, slots=True)
class CrawlerRow:
    """One crawler on one query."""

    pages_to: tuple[int | None, int | None, int | None]  # 50%, 90%, 100%
    stop_pages: int
    stop_recall: float
    stop_reason: str
    pages: int

    @classmethod
    def of(cls, curve: CrawlCurve, oracle: bool = False) -> CrawlerRow:
        stop = curve.pages if oracle else curve.own_stop_pages
        return cls(
            (curve.pages_to(0.5), curve.pages_to(0.9), curve.pages_to(1.0)),
            stop, curve.recall_at(stop) or 0.0,
            (curve.stop_reason or "–") if oracle else curve.own_stop_reason, curve.pages,
        )

    @classmethod
    def from_report(cls, crawler: Mapping[str, Any]) -> CrawlerRow:
        """The row of one crawler of a saved report (``CrawlCurve.to_dict``): the numbers
        ``of`` takes from the curve, read back."""
        pages_to = crawler["pages_to"]
        own = crawler["own_stop"]
        return cls((pages_to["50%"], pages_to["90%"], pages_to["100%"]), own["pages"],
                   own["recall"] or 0.0, own["reason"], crawler["pages"])

    def to_json(self) -> dict[str, Any]:
        return {"pages_to_50": self.pages_to[0], "pages_to_90": self.pages_to[1],
                "pages_to_100": self.pages_to[2], "own_stop_pages": self.stop_pages,
                "own_stop_recall": round(self.stop_recall, 4),
                "own_stop_reason": self.stop_reason, "pages": self.pages}


@dataclass(frozen=True, slots=True)
class QueryRow:
    """One query: the three crawlers and the ratios the summary is made of."""

    label: str
    query: str
    relevant: int
    limit: int
    crawlers: dict[str, CrawlerRow]
    unreachable: int  # relevant pages the oracle's graph does not reach

    @property
    def site(self) -> str:
        return self.label.split("-", 1)[0]

    def pages_to_90(self, crawler: str = "focused") -> Censored | None:
        """The crawler's pages to 90%, or the pages it ran + 1 as a lower bound when it never
        got there (None without the crawler)."""
        row = self.crawlers.get(crawler)
        if row is None:
            return None
        own = row.pages_to[1]
        return Censored(row.pages + 1, exact=False) if own is None else Censored(own)

    def ratio_to_oracle(self, crawler: str = "focused") -> Censored | None:
        """Pages to 90% ÷ the oracle's (censored when the crawler never got there)."""
        oracle = self.crawlers["oracle"].pages_to[1]
        own = self.pages_to_90(crawler)
        if oracle is None or own is None:
            return None
        return Censored(own.value / oracle, own.exact)

    def stop_over_90(self, crawler: str = "focused") -> float | None:
        """Pages at own stop ÷ own pages to 90% (None when 90% was never reached)."""
        row = self.crawlers.get(crawler)
        if row is None or row.pages_to[1] is None:
            return None
        return row.stop_pages / row.pages_to[1]

    def to_json(self) -> dict[str, Any]:
        ratio = self.ratio_to_oracle()
        return {
            "label": self.label, "query": self.query, "relevant": self.relevant,
            "limit": self.limit, "unreachable_relevant": self.unreachable,
            "focused_over_oracle_pages_to_90": ratio.to_json() if ratio else None,
            "focused_stop_over_pages_to_90": self.stop_over_90(),
            **{name: row.to_json() for name, row in self.crawlers.items()},
        }


def query_row(report: Mapping[str, Any]) -> QueryRow:
    """One query's row from its saved report (``BenchReport.to_dict``, a
    ``benchmarks/results/<label>.json``): the row ``query_rows`` makes from the live report,
    so two runs' files can be summarised and compared after the fact (``compare.py``)."""
    crawlers = {c["name"]: CrawlerRow.from_report(c) for c in report["crawlers"]}
    unreachable = next((c["unreachable_relevant"] for c in report["crawlers"]
                        if c["name"] == "oracle"), 0)
    return QueryRow(report["label"], report["query"], report["relevant"], report["limit"],
                    crawlers, unreachable)


def query_rows(reports: Sequence[BenchReport]) -> list[QueryRow]:
    rows = []
    for report in reports:
        crawlers = {c.name: CrawlerRow.of(c, oracle=c.name == "oracle") for c in report.curves}
        rows.append(QueryRow(report.label, report.truth.query, len(report.truth.keys),
                             report.limit, crawlers, report.curve("oracle").unreachable))
    return rows


@dataclass(frozen=True, slots=True)
class Summary:
    """Issue 11's four numbers for one crawler over a set of queries."""

    crawler: str
    queries: int
    ratio_to_oracle: Censored | None  # median pages-to-90% ÷ oracle
    ratio_counted: int
    reached_90: int  # queries at 90% within their budget
    recall_at_stop: float | None  # mean recall at own stop
    stop_over_90: float | None  # median pages at own stop ÷ own pages-to-90%
    stop_counted: int  # queries that reached 90% (the others have no such ratio)
    # the bootstrap interval of ratio_to_oracle over the queries (median_interval)
    ratio_interval: MedianInterval | None = None

    def ratio_text(self) -> str:
        """The median ratio as the tables print it: "2.14 (95%: 1.67–3.35)", "≥ 9.14 (…)"
        when it is a lower bound, "–" without one."""
        ratio = self.ratio_to_oracle
        if ratio is None:
            return "–"
        median = f"{ratio.value:.2f}" if ratio.exact else f"≥ {ratio.value:.2f}"
        # how far the choice of queries alone moves the median (median_interval)
        interval = self.ratio_interval
        return median if interval is None else f"{median} ({interval.text()})"

    def met(self) -> dict[str, bool]:
        ratio = self.ratio_to_oracle
        return {
            "ratio_to_oracle": ratio is not None and ratio.exact
            and ratio.value <= TARGETS["ratio_to_oracle"],
            "reached_90": self.reached_90 == self.queries,
            "recall_at_stop": self.recall_at_stop is not None
            and self.recall_at_stop >= TARGETS["recall_at_stop"],
            "stop_over_90": self.stop_over_90 is not None and self.stop_counted == self.queries
            and self.stop_over_90 <= TARGETS["stop_over_90"],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "crawler": self.crawler, "queries": self.queries,
            "median_pages_to_90_over_oracle":
                self.ratio_to_oracle.to_json() if self.ratio_to_oracle else None,
            "median_pages_to_90_over_oracle_interval":
                self.ratio_interval.to_json() if self.ratio_interval else None,
            "ratio_counted": self.ratio_counted,
            "reached_90_within_budget": self.reached_90,
            "mean_recall_at_own_stop":
                None if self.recall_at_stop is None else round(self.recall_at_stop, 4),
            "median_own_stop_over_pages_to_90":
                None if self.stop_over_90 is None else round(self.stop_over_90, 4),
            "stop_counted": self.stop_counted,
            "targets_met": self.met(),
        }


def summarise(rows: Sequence[QueryRow], crawler: str = "focused") -> Summary:
    """The four numbers for ``crawler`` over ``rows`` (rows without it are left out)."""
    mine = [r for r in rows if crawler in r.crawlers]
    ratios = [c for r in mine if (c := r.ratio_to_oracle(crawler)) is not None]
    stops = [s for r in mine if (s := r.stop_over_90(crawler)) is not None]
    reached = sum(1 for r in mine if (p := r.crawlers[crawler].pages_to[1]) is not None
                  and p <= r.limit)
    recalls = [r.crawlers[crawler].stop_recall for r in mine]
    return Summary(
        crawler, len(mine), _median(ratios), len(ratios), reached,
        statistics.fmean(recalls) if recalls else None,
        statistics.median(stops) if stops else None, len(stops), median_interval(ratios),
    )


def demo_checks(reports: Sequence[BenchReport]) -> list[tuple[str, bool, str]]:
    """The demo scenarios' promises: (check, passed, the numbers). Focused pages-to-90% at
    most half of breadth-first's on every scenario with answers; needle's own stop
    ``no_relevant_pages``."""
    out: list[tuple[str, bool, str]] = []
    for report in reports:
        focused = report.curve("focused")
        if not report.truth.urls:
            reason = focused.stop_reason or focused.end_reason or "–"
            out.append((f"{report.label}: focused stops no_relevant_pages",
                        reason == "no_relevant_pages",
                        f"stopped {reason} at {focused.own_stop_pages} pages"))
            continue
        if not report.has("breadth-first"):
            continue
        f90 = focused.pages_to(0.9)
        b90 = report.curve("breadth-first").pages_to(0.9)
        bound = b90 if b90 is not None else report.curve("breadth-first").pages + 1
        passed = f90 is not None and 2 * f90 <= bound
        shown_b = str(b90) if b90 is not None else f">{bound - 1}"
        out.append((f"{report.label}: focused pages-to-90% ≤ ½ breadth-first's", passed,
                    f"focused {f90 if f90 is not None else '–'}, breadth-first {shown_b}"))
    return out
