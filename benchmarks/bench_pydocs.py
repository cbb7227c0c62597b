"""The benchmark on a real site nobody here wrote: the Python 3.11 documentation (530 pages).

Run: ``python3 benchmarks/bench_pydocs.py`` (about 3 minutes per query on one core;
``--jobs 2`` runs two queries at a time). Needs ``apt-get install python3.11-doc``.

Serves ``/usr/share/doc/python3.11/html`` with :class:`pagesift_ui.net.serve.StaticServer` on
127.0.0.1 and runs :func:`pagesift_ui.bench.run_bench` (focused, breadth-first, oracle) for
every truth file in ``benchmarks/pydocs/`` (see its README for how they are derived), with a
page limit above the site's size so breadth-first reaches 100% recall. Writes
``benchmarks/results/pydocs-<name>.json`` and ``.png``; the interactive plots go to
``benchmarks/results/html/`` (git-ignored: plotly.min.js is 4.6 MB). Prints the Markdown
table.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pagesift_ui.bench import BenchReport, Truth, run_bench  # noqa: E402
from pagesift_ui.bench.report import markdown_table, write_outputs  # noqa: E402
from pagesift_ui.net.serve import StaticServer  # noqa: E402

logger = logging.getLogger(__name__)

DOCS = Path("/usr/share/doc/python3.11/html")
TRUTH_DIR = ROOT / "benchmarks" / "pydocs"
RESULTS = ROOT / "benchmarks" / "results"
PLACEHOLDER = "http://127.0.0.1:0/"  # the base the truth files are written on
#: Above the site's 530 pages, so both crawlers run until their queue is empty.
LIMIT = 700
MISSING_DOCS = (
    "the Python 3.11 documentation is not installed at {docs}: run "
    "'apt-get install python3.11-doc' (Debian/Ubuntu) and try again"
)


def docs_installed(docs: Path | None = None) -> bool:
    return ((docs or DOCS) / "index.html").is_file()


def truth_names(truth_dir: Path | None = None) -> list[str]:
    """The query names: the stems of ``*.truth`` in ``truth_dir``, sorted."""
    return sorted(p.stem for p in (truth_dir or TRUTH_DIR).glob("*.truth"))


def rebase(truth: Truth, base: str) -> Truth:
    """``truth`` with the placeholder base replaced by ``base`` (``http://127.0.0.1:PORT/``)."""

    def move(url: str) -> str:
        if not url.startswith(PLACEHOLDER):
            raise ValueError(f"{url!r} is not on the placeholder base {PLACEHOLDER}")
        return base + url[len(PLACEHOLDER):]

    return Truth(truth.query, move(truth.seed), tuple(move(u) for u in truth.urls))


def save(report: BenchReport, png: bool = True, results: Path | None = None) -> dict[str, Path]:
    """JSON and PNG into ``results``, the HTML plot (and plotly.min.js) into ``results/html``.

    The PNG is rendered from the HTML, which needs plotly.min.js beside it, so everything is
    written to ``results/html`` first and the JSON and PNG are moved up.
    """
    results = results or RESULTS
    html_dir = results / "html"
    paths = write_outputs(report, html_dir, png=png)
    for kind in ("json", "png"):
        if kind in paths:
            target = results / paths[kind].name
            paths[kind].replace(target)
            paths[kind] = target
    ignore = html_dir / ".gitignore"
    if not ignore.exists():  # keep the 4.6 MB plotly.min.js and the HTML out of git
        ignore.write_text("*\n!.gitignore\n", encoding="utf-8")
    return paths


def bench_query(name: str, limit: int = LIMIT, docs: Path | None = None,
                truth_dir: Path | None = None) -> BenchReport:
    """Serve the docs on a free port and bench one truth file on them."""
    truth = Truth.load((truth_dir or TRUTH_DIR) / f"{name}.truth")
    with StaticServer(docs or DOCS) as server:
        served = rebase(truth, server.base_url() + "/")
        logger.info("pydocs-%s: %d relevant pages, seed %s", name, len(served.urls),
                    served.seed)
        return run_bench(f"pydocs-{name}", served, limit)


def run_parallel(tasks: Sequence[tuple[Callable[..., BenchReport], tuple]],
                 jobs: int) -> list[BenchReport]:
    """Run ``fn(*args)`` for every task, ``jobs`` processes at a time; results in task order."""
    if jobs <= 1 or len(tasks) <= 1:
        return [fn(*args) for fn, args in tasks]
    with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_logging) as pool:
        futures = [pool.submit(fn, *args) for fn, args in tasks]
        return [f.result() for f in futures]


def _worker_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for noisy in ("httpx", "httpcore", "pagesift_ui.net.serve"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def summary_line(report: BenchReport) -> str:
    ratio = report.speedup_at(0.9)
    if ratio is None:
        return f"{report.label}: 90% recall not reached by both crawlers"
    return (f"{report.label}: focused needs {ratio:.2f}× the pages breadth-first needs for "
            "90% recall")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="focused vs breadth-first vs oracle on the "
                                                 "Python 3.11 docs")
    parser.add_argument("--query", action="append", default=None,
                        help="a truth file stem in benchmarks/pydocs (repeatable); default all")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"pages per crawler ({LIMIT})")
    parser.add_argument("--jobs", type=int, default=1, help="queries run at a time (1)")
    parser.add_argument("--no-png", action="store_true", help="skip the Chromium PNGs")
    args = parser.parse_args(argv)
    _worker_logging()
    if not docs_installed():
        sys.stderr.write("bench_pydocs: " + MISSING_DOCS.format(docs=DOCS) + "\n")
        return 2
    names = args.query or truth_names()
    unknown = [n for n in names if not (TRUTH_DIR / f"{n}.truth").is_file()]
    if unknown:
        sys.stderr.write(f"bench_pydocs: no truth file {unknown[0]!r}; choose from "
                         f"{', '.join(truth_names())}\n")
        return 2
    reports = run_parallel([(bench_query, (n, args.limit)) for n in names], args.jobs)
    for report in reports:
        paths = save(report, png=not args.no_png)
        sys.stderr.write(f"{report.label}: {', '.join(str(p) for p in paths.values())}\n")
        print(summary_line(report))
    print(markdown_table(reports), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
