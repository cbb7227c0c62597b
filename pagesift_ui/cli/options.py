"""What the command groups share: the crawl options, their reading into a ``CrawlConfig``, and
the lines written to the terminal. Group modules import this one; it imports no group."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO, TypeAlias

from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord

if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Commands: TypeAlias = argparse._SubParsersAction

__all__ = [
    "Commands",
    "Handler",
    "add_crawl_options",
    "config_from_args",
    "progress_line",
    "summary_lines",
    "wait_forever",
]

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]
"""Runs one command: ``(args, out, err) -> exit code``; set on its sub-parser as ``handler``."""

_BAR_WIDTH = 30


def add_crawl_options(parser: argparse.ArgumentParser, *, query_required: bool = True) -> None:
    """The options that make a ``CrawlConfig`` (with the start URL): ``crawl``, ``replay``."""
    parser.add_argument("--query", "-q", required=query_required, help="what the crawl looks for")
    parser.add_argument("--limit", type=int, default=100, help="page budget (default 100)")
    parser.add_argument("--coverage-threshold", type=float, default=1.0)
    parser.add_argument("--evidence-per-term", type=int, default=3)
    parser.add_argument("--patience", type=int, default=5)
    parser.add_argument("--min-gain", type=float, default=0.05)
    parser.add_argument("--delay", type=float, default=1.0, help="seconds between requests to "
                        "one host (loopback hosts: 0)")
    parser.add_argument("--no-robots", action="store_true", help="ignore robots.txt")
    parser.add_argument("--scope", choices=["host", "site"], default="site",
                        help="host: the seed's host only; site: also its sub-domains")
    parser.add_argument("--allow-private", action="store_true",
                        help="allow private and link-local addresses (refused by default)")
    parser.add_argument("--no-stop", action="store_true", help="record every stop verdict but "
                        "crawl on to the limit, as if 'continue anyway' were chosen each time")


def config_from_args(args: argparse.Namespace) -> CrawlConfig:
    """The config the crawl options ask for; raises ``ConfigError`` naming a bad setting."""
    return CrawlConfig.from_mapping(
        {
            "seed_url": args.seed,
            "query": args.query,
            "limit": args.limit,
            "adaptive": {
                "coverage_threshold": args.coverage_threshold,
                "evidence_per_term": args.evidence_per_term,
                "patience": args.patience,
                "min_gain": args.min_gain,
            },
            "delay_s": args.delay,
            "respect_robots": not args.no_robots,
            "scope": args.scope,
            "allow_private": args.allow_private,
            "stop_on_verdict": not args.no_stop,
        }
    )


def progress_line(record: StepRecord, limit: int) -> str:
    """One progress-bar line for the step just taken (no line end: the caller rewrites it)."""
    done = min(record.pages_scheduled, limit)
    bar = "#" * (_BAR_WIDTH * done // limit)
    what = record.verdict or (record.error_kind or f"rel {record.relevance or 0:.2f}")
    return (
        f"[{bar:<{_BAR_WIDTH}}] {done}/{limit} pages  relevant {record.relevant_pages}  "
        f"coverage {record.coverage:.0%}  {what[:24]:<24}"
    )


def summary_lines(session: CrawlSession) -> list[str]:
    """The closing summary of a crawl: stop reason, counts, and evidence per query term."""
    summary = session.summary()
    lines = [
        f"stop reason: {summary['stop_reason']}"
        + (f" (first verdict {summary['first_verdict']} at step {summary['stop_step']})"
           if summary["first_verdict"] and summary["first_verdict"] != summary["stop_reason"]
           else ""),
        f"pages fetched: {summary['pages_fetched']} in {summary['steps']} steps",
        f"relevant pages: {summary['relevant_pages']}",
        f"harvest rate: {summary['harvest_rate']:.1%}",
        f"coverage: {summary['coverage']:.0%}"
        + (" (covered)" if summary["covered"] else ""),
    ]
    target = session.config.adaptive.evidence_per_term
    for term, evidence in summary["evidence"].items():
        lines.append(f"  {term:<20} {evidence:>3} / {target} evidence")
    return lines


def wait_forever() -> None:
    """Block until Ctrl-C (for the commands that serve until stopped)."""
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
