"""Small benchmark reports made from fetch orders, for the summary's and the comparison's
tests: URLs under http://x.example/, a focused crawl and an oracle."""

from __future__ import annotations

from pagesift_ui.bench import BenchReport, Truth
from pagesift_ui.bench.run import curve_from_keys


def urls(names: list[str] | set[str]) -> list[str]:
    return [f"http://x.example/{name}" for name in names]


def report(label: str, focused: list[str], oracle: list[str], truth: set[str],
           limit: int, stop: int | None = None) -> BenchReport:
    """``focused`` and ``oracle`` fetch the named pages in order; ``stop``: the step of the
    focused crawl's first verdict that stood (``saturated``), else it ran to its limit."""
    keys = frozenset(urls(truth))
    f = curve_from_keys("focused", urls(focused), keys)
    f.page_of_step = list(range(1, len(focused) + 1))
    f.stop_step, f.stop_reason = stop, "saturated" if stop else None
    f.end_reason = "limit_reached"
    o = curve_from_keys("oracle", urls(oracle), keys)
    return BenchReport(label, Truth("q", "http://x.example/", tuple(sorted(keys))), limit,
                       [f, o])
