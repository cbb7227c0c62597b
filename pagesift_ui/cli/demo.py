"""CLI commands around the bundled demo web and the benchmark: ``demo`` and ``bench``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pagesift_ui.cli.options import Commands, listen_problem, port_number, wait_forever
from pagesift_ui.cli.outputs import WRITE_FAILED, folder_problem, output_problem
from pagesift_ui.demo.scenarios import BENCH_SCENARIOS, LESSONS, SCENARIOS
from pagesift_ui.errors import ConfigError
from pagesift_ui.session.config import CrawlConfig

if TYPE_CHECKING:
    from pagesift_ui.bench.report import BenchReport

#: Where ``bench`` writes unless ``--out`` says otherwise: a new folder under the current
#: directory, never the committed results in benchmarks/results.
DEFAULT_BENCH_OUT = Path("pagesift-bench")

__all__ = ["register", "run_bench_command", "run_demo"]


def register(commands: Commands) -> None:
    """Add ``demo`` and ``bench``, each with its handler."""
    demo = commands.add_parser("demo", help="serve a bundled demo scenario on 127.0.0.1")
    lessons = ", ".join(f"{lesson.scenario} ({lesson.reason})" for lesson in LESSONS)
    demo.add_argument("--scenario", default="university", choices=SCENARIOS,
                      help=f"the site to serve (default university); one per stop reason: "
                           f"{lessons}")
    demo.add_argument("--seed", type=int, default=0, help="generator seed (same seed, same site)")
    demo.add_argument("--port", type=port_number, default=0, help="0 picks a free port")
    demo.add_argument("--truth-out", type=Path, help="write the ground truth here and keep serving")
    demo.set_defaults(handler=run_demo)

    bench = commands.add_parser(
        "bench", help="focused crawl vs breadth-first vs oracle: recall per page fetched"
    )
    bench.add_argument("--scenario", action="append", default=None,
                       choices=(*SCENARIOS, "all"), metavar="SCENARIO",
                       help=f"a demo scenario (repeatable), or 'all' = "
                            f"{', '.join(BENCH_SCENARIOS)} (the default)")
    bench.add_argument("--site", help="start URL of a site you serve (with --truth)")
    bench.add_argument("--truth", type=Path, help="truth file: '# query:', '# seed:', URLs")
    bench.add_argument("--label", help="name of the --site run in the report")
    bench.add_argument("--limit", type=int, default=1500, help="pages per crawler")
    bench.add_argument("--out", type=Path, default=DEFAULT_BENCH_OUT,
                       help="folder for JSON, HTML and PNG (default ./pagesift-bench; the "
                            "committed results are refreshed only by --out benchmarks/results)")
    bench.add_argument("--no-png", action="store_true", help="skip the Chromium PNG")
    bench.set_defaults(handler=run_bench_command)


def run_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from pagesift_ui.demo import DemoServer, build_site

    if args.scenario not in SCENARIOS:
        err.write(f"pagesift-ui demo: unknown scenario {args.scenario!r}; "
                  f"choose one of {', '.join(SCENARIOS)}\n")
        return 2
    problem = output_problem(args)
    if problem:  # before the server starts, as for every file a command writes
        err.write(f"pagesift-ui demo: {problem}\n")
        return 2
    site = build_site(args.scenario, seed=args.seed)
    try:
        server = DemoServer(site, port=args.port).start()
    except OSError as exc:
        err.write(f"pagesift-ui demo: {listen_problem(args.port, exc)}\n")
        return 2
    with server:
        if args.truth_out is not None:
            try:
                server.write_truth(args.truth_out)
            except OSError as exc:
                err.write(f"pagesift-ui demo: --truth-out {args.truth_out} could not be "
                          f"written ({exc.strerror or exc})\n")
                return WRITE_FAILED
            err.write(f"ground truth: {args.truth_out}\n")
        out.write(f"scenario {site.name}: {site.description}\n")
        out.write(f"query: {site.query}\nseed: {server.seed_url}\n(Ctrl-C to stop)\n")
        out.flush()
        wait_forever()
    return 0


def _short_of_90(report: BenchReport) -> str:
    """Which crawler never reached 90% recall (it read "not reached by both crawlers" when
    one of them had)."""
    missed = [curve.name for curve in report.curves[:2] if curve.pages_to(0.9) is None]
    return (f"{' and '.join(missed)} never reached 90% recall within {report.limit} pages, "
            "so there is no ratio")


def _bench_targets(args: argparse.Namespace, err: TextIO) -> list[tuple[str, str]] | None:
    """("scenario", name) or ("site", label) pairs to run, or None after an error message."""
    if args.site or args.truth:
        if not (args.site and args.truth):
            err.write("pagesift-ui bench: --site and --truth go together\n")
            return None
        return [("site", args.label or "site")]
    names = args.scenario or ["all"]
    if "all" in names:
        names = list(BENCH_SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        err.write(f"pagesift-ui bench: unknown scenario {unknown[0]!r}; "
                  f"choose from {', '.join(SCENARIOS)} or all\n")
        return None
    return [("scenario", n) for n in names]


def _bench_problem(args: argparse.Namespace) -> str:
    """What is wrong with the options, in their own names, before any crawl ("" if
    nothing): ``--limit 0`` and ``--site notaurl`` were found by the crawl's config as
    "limit: …" and "seed_url: …" (exit 1), and ``--out`` only after every crawl."""
    seed = args.site or "http://127.0.0.1/"
    try:
        CrawlConfig.from_mapping({"seed_url": seed, "query": "bench", "limit": args.limit})
    except ConfigError as exc:
        flag = {"seed_url": "--site", "limit": "--limit"}.get(exc.field)
        return f"{flag}: {exc.message}" if flag else str(exc)
    if args.label and not args.site:
        return "--label names the --site run: give it with --site and --truth"
    problem = folder_problem(args.out)
    return f"--out {args.out} {problem}" if problem else ""


def run_bench_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from pagesift_ui.bench import Truth, run_bench
    from pagesift_ui.bench.report import markdown_table, write_outputs
    from pagesift_ui.demo import build_site, start_demo

    targets = _bench_targets(args, err)
    if targets is None:
        return 2
    problem = _bench_problem(args)
    if problem:
        err.write(f"pagesift-ui bench: {problem}\n")
        return 2
    reports = []
    for kind, name in targets:
        if kind == "site":
            truth = Truth.load(args.truth).rebased(args.site)
            report = run_bench(name, truth, args.limit)
            failure = report.curves[0].start_failure
            if failure is not None:
                # a table of 0% for a site that never answered reads as a result
                err.write(f"pagesift-ui bench: the start URL could not be crawled: {failure}\n")
                return 1
            reports.append(report)
            continue
        site = build_site(name)
        with start_demo(name) as server:
            truth = Truth(site.query, server.seed_url, tuple(server.truth_urls()))
            reports.append(run_bench(name, truth, args.limit))
    for report in reports:
        paths = write_outputs(report, args.out, png=not args.no_png)
        ratio = report.speedup_at(0.9)
        err.write(f"{report.label}: {', '.join(str(p) for p in paths.values())}\n")
        out.write(f"{report.label}: focused needs {ratio:.2f}× the pages breadth-first needs "
                  "for 90% recall\n" if ratio is not None else
                  f"{report.label}: {_short_of_90(report)}\n")
    table = markdown_table(reports)
    (args.out / "results.md").write_text(table, encoding="utf-8")
    out.write(table)
    return 0

