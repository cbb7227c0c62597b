"""The ``pagesift-ui`` command line (also ``python -m pagesift_ui``).

This module is the one place in the package that writes to the terminal.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pagesift_ui import __version__
from pagesift_ui.errors import PagesiftError
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord

__all__ = ["build_parser", "main"]

logger = logging.getLogger(__name__)


def _add_crawl_options(parser: argparse.ArgumentParser, *, query_required: bool = True) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagesift-ui", description="A focused-crawl explorer.")
    parser.add_argument("--version", action="version", version=f"pagesift-ui {__version__}")
    parser.add_argument("--verbose", "-v", action="store_true", help="log debug details")
    commands = parser.add_subparsers(dest="command", required=True)

    crawl = commands.add_parser("crawl", help="run a focused crawl from a start URL")
    crawl.add_argument("seed", nargs="?", help="the start URL (leave out with --resume)")
    _add_crawl_options(crawl, query_required=False)  # required unless --resume (cli_store)
    crawl.add_argument("--out", type=Path, help="write the JSON session bundle here")
    crawl.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")
    crawl.add_argument("--quiet", action="store_true", help="no progress bar")
    from pagesift_ui.cli.store import add_store_commands, add_store_options

    add_store_options(crawl)

    serve = commands.add_parser("serve", help="serve a folder on 127.0.0.1 (offline crawling)")
    serve.add_argument("folder", type=Path)
    serve.add_argument("--port", type=int, default=8000)

    from pagesift_ui.cli.demo import add_demo_commands

    add_demo_commands(commands)
    add_store_commands(commands)
    return parser


def config_from_args(args: argparse.Namespace) -> CrawlConfig:
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


def _progress(record: StepRecord, limit: int, stream: TextIO) -> None:
    width = 30
    done = min(record.pages_scheduled, limit)
    bar = "#" * (width * done // limit)
    what = record.verdict or (record.error_kind or f"rel {record.relevance or 0:.2f}")
    stream.write(
        f"\r[{bar:<{width}}] {done}/{limit} pages  relevant {record.relevant_pages}  "
        f"coverage {record.coverage:.0%}  {what[:24]:<24}"
    )
    stream.flush()


def _summary_lines(session: CrawlSession) -> list[str]:
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


def run_crawl(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Saved to the session store unless --no-save; --resume, --warc (see cli_store)."""
    from pagesift_ui.cli.store import run_saved_crawl

    return run_saved_crawl(args, out, err)


def run_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from pagesift_ui.net.serve import StaticServer

    try:
        server = StaticServer(args.folder, port=args.port)
    except (ValueError, OSError) as exc:
        err.write(f"pagesift-ui serve: {exc}\n")
        return 2
    with server:
        out.write(f"serving {args.folder} at {server.base_url()} (Ctrl-C to stop)\n")
        out.flush()
        _wait_forever()
    return 0


def _wait_forever() -> None:
    import threading

    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    handlers: dict[str, Any] = {"crawl": run_crawl, "serve": run_serve}
    from pagesift_ui.cli.demo import DEMO_HANDLERS
    from pagesift_ui.cli.store import STORE_HANDLERS

    handlers.update(DEMO_HANDLERS)
    handlers.update(STORE_HANDLERS)
    try:
        return int(handlers[args.command](args, out, err))
    except PagesiftError as exc:
        err.write(f"pagesift-ui {args.command}: {exc}\n")
        return 1
