"""The crawl benchmark: focused crawl vs breadth-first vs an oracle, on a site with a truth file."""

from __future__ import annotations

from pagesift_ui.bench.report import BenchReport, run_bench
from pagesift_ui.bench.truth import Truth

__all__ = ["BenchReport", "Truth", "run_bench"]
