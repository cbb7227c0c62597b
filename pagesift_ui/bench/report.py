"""Run the three crawlers on one site and report: JSON, a recall plot, a Markdown row."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.source import PageSource, default_source

from .graph import GraphRecorder, SiteGraph, oracle_order
from .run import CrawlCurve, curve_from_keys, run_crawl
from .truth import Truth, url_key

__all__ = ["BenchReport", "markdown_table", "run_bench"]

logger = logging.getLogger(__name__)

COLOURS = {"focused": "#1f77b4", "breadth-first": "#7f7f7f", "oracle": "#2ca02c"}


@dataclass(slots=True)
class BenchReport:
    """The three curves of one benchmark site."""

    label: str
    truth: Truth
    limit: int
    curves: list[CrawlCurve]

    def curve(self, name: str) -> CrawlCurve:
        return next(c for c in self.curves if c.name == name)

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.curves)

    def speedup_at(self, target: float) -> float | None:
        """Focused pages to ``target`` recall ÷ breadth-first pages to it (lower is better)."""
        if not self.has("breadth-first"):
            return None
        focused = self.curve("focused").pages_to(target)
        bfs = self.curve("breadth-first").pages_to(target)
        if focused is None or bfs is None:
            return None
        return focused / bfs

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "query": self.truth.query,
            "seed": self.truth.seed,
            "relevant": len(self.truth.urls),
            "limit": self.limit,
            "focused_over_bfs_pages_to_90": self.speedup_at(0.9),
            "crawlers": [c.to_dict() for c in self.curves],
        }

    def figure(self) -> go.Figure:
        fig = go.Figure()
        for curve in self.curves:
            x = list(range(1, curve.pages + 1))
            fig.add_trace(go.Scatter(x=x, y=curve.recall, mode="lines", name=curve.name,
                                     line={"color": COLOURS.get(curve.name)}))
            if curve.stop_pages is not None and curve.name != "oracle":
                fig.add_trace(go.Scatter(
                    x=[curve.stop_pages], y=[curve.recall_at(curve.stop_pages)], mode="markers",
                    marker={"symbol": "x", "size": 12, "color": COLOURS.get(curve.name)},
                    name=f"{curve.name}: adaptive stop ({curve.stop_reason})",
                ))
        fig.update_layout(
            title=f"{self.label}: recall vs pages fetched — “{self.truth.query}”",
            xaxis_title="pages fetched", yaxis_title="recall of the relevant pages",
            yaxis_range=[-0.02, 1.02], xaxis_type="log", template="plotly_white",
            width=900, height=520, legend={"orientation": "h", "y": -0.22},
        )
        return fig


def _configs(truth: Truth, limit: int) -> tuple[CrawlConfig, CrawlConfig]:
    common = {
        "seed_url": truth.seed, "query": truth.query, "limit": limit, "delay_s": 0.0,
        "stop_on_verdict": False,
    }
    focused = CrawlConfig.from_mapping(common)
    bfs = CrawlConfig.from_mapping({**common, "strategy": "bfs"})
    return focused, bfs


def _fetcher(config: CrawlConfig) -> PageSource:
    """The crawl's own live fetcher: its redirects stay in the crawl's scope, as links do."""
    return default_source(config)


def run_bench(label: str, truth: Truth, limit: int = 1500, *, graph: SiteGraph | None = None,
              trace: bool = False, bfs: bool = True) -> BenchReport:
    """Focused crawl, breadth-first and the oracle on the same served site.

    The oracle walks ``graph`` (from :func:`explore_site`) when given, else the graph the
    breadth-first crawl discovered (enough when its limit covers the whole site). ``trace``
    keeps the focused crawl's step rows; ``bfs=False`` (only with a ``graph``) leaves the
    breadth-first crawl out, for quick runs.
    """
    if not bfs and graph is None:
        raise ValueError("the oracle needs a graph: run breadth-first or pass graph=")
    focused_config, bfs_config = _configs(truth, limit)
    keys = truth.keys
    bfs_curve: CrawlCurve | None = None
    edges: dict[str, list[str]] = graph.edges if graph else {}
    aliases: dict[str, str] = graph.aliases if graph else {}
    if bfs:
        recorder = GraphRecorder(_fetcher(bfs_config), bfs_config)
        if graph is None:
            edges, aliases = recorder.edges, recorder.aliases
        bfs_curve = run_crawl("breadth-first", bfs_config, keys, recorder)
        logger.info("%s: breadth-first %d pages in %.1f s", label, bfs_curve.pages,
                    bfs_curve.seconds)
    focused = run_crawl("focused", focused_config, keys, _fetcher(focused_config), trace=trace)
    logger.info("%s: focused %d pages in %.1f s", label, focused.pages, focused.seconds)
    curves = [focused] if bfs_curve is None else [focused, bfs_curve]
    order, unreachable = oracle_order(edges, aliases, url_key(truth.seed), keys)
    # the oracle has the crawlers' budget: with --limit 40 it reported 53 pages and all the
    # answers, past the "pages per crawler" (found by using the command line)
    oracle = curve_from_keys("oracle", order[:limit], keys)
    oracle.unreachable = len(unreachable)
    oracle.stop_reason = ("all relevant found" if not unreachable else "graph explored") if (
        len(order) <= limit) else f"limit_reached (all relevant take {len(order)} pages)"
    curves.append(oracle)
    return BenchReport(label, truth, limit, curves)


def write_outputs(report: BenchReport, out_dir: Path, png: bool = True) -> dict[str, Path]:
    """``<label>.json``, ``<label>.html`` (plotly.js beside it) and, if possible, a PNG."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": out_dir / f"{report.label}.json", "html": out_dir / f"{report.label}.html"}
    paths["json"].write_text(json.dumps(report.to_dict(), indent=1), encoding="utf-8")
    fig = report.figure()
    fig.write_html(paths["html"], include_plotlyjs="directory")
    if png:
        png_path = out_dir / f"{report.label}.png"
        if _screenshot(paths["html"], png_path):
            paths["png"] = png_path
    return paths


def _screenshot(html: Path, png: Path) -> bool:
    """Render the plot with headless Chromium (Debian's, no download), if it is there."""
    from pagesift_ui.bench.shot import screenshot_html

    return screenshot_html(html, png)


def _cell(value: float | int | None, percent: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:.0%}" if percent else str(value)


def markdown_table(reports: list[BenchReport]) -> str:
    """One row per site and crawler. Pages are fetches that count against the page budget
    (duplicates are steps, not pages); the stop is the crawl's own: the first verdict that
    stood, else where the run ended (its limit or an empty queue)."""
    lines = [
        "| site | query | crawler | pages to 50% | 90% | 100% | own stop: pages | "
        "recall | answers ÷ pages | stop reason |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        for curve in report.curves:
            stop = curve.own_stop_pages
            lines.append(
                f"| {report.label} | {report.truth.query} | {curve.name} | "
                f"{_cell(curve.pages_to(0.5))} | {_cell(curve.pages_to(0.9))} | "
                f"{_cell(curve.pages_to(1.0))} | {_cell(stop)} | "
                f"{_cell(curve.recall_at(stop), True)} | "
                f"{_cell(curve.answer_rate_at(stop), True)} | "
                f"{curve.own_stop_reason} |"
            )
    return "\n".join(lines) + "\n"
