"""The dev sets: real documentation sites from Debian packages, each with truth files.

- ``pydocs``: Debian ``python3.11-doc``, ``/usr/share/doc/python3.11/html`` (530 pages),
  truth in ``benchmarks/pydocs/``;
- ``sqlite``: Debian ``sqlite3-doc``, ``/usr/share/doc/sqlite3`` (766 pages), truth in
  ``benchmarks/sqlitedocs/``;
- ``pgdocs``, HELD OUT: Debian ``postgresql-doc-15``, ``/usr/share/doc/postgresql-doc-15/html``
  (1,169 pages), truth in ``benchmarks/pgdocs/``. It is in :data:`HELD_OUT`, not
  :data:`SITES`: nothing is tuned on it, so the scripts that walk every tuning site
  (``run_all.py``'s default run and summary, ``replay_stops.py``, ``steer_labels.py``,
  ``analyse_*.py``) never see it; ``run_all.py --only pgdocs`` measures it, reported apart.
  It has since been used for diagnosis, so it is no longer a clean held-out check;
- ``apachedocs``, HELD OUT: Debian ``apache2-doc``, the English manual
  ``/usr/share/doc/apache2-doc/manual/en`` (244 pages), truth in ``benchmarks/apachedocs/``;
  in :data:`HELD_OUT` like ``pgdocs``, measured only with ``run_all.py --only apachedocs``.
  It has since been used for diagnosis too;
- ``octavedocs``, HELD OUT: Debian ``octave-doc``, the GNU Octave 7 manual (texinfo, one page
  per node) ``/usr/share/doc/octave/octave.html`` (507 pages), truth in
  ``benchmarks/octavedocs/``; in :data:`HELD_OUT`, measured only with ``run_all.py --only
  octavedocs``; one of its crawls has been read since;
- ``gitdocs``, HELD OUT: Debian ``git-doc``, Git 2.39's manual pages and guides
  ``/usr/share/doc/git/html`` (241 pages, 217 reachable from ``index.html``, a link to
  ``git.html``, which lists every command and document by category), truth in
  ``benchmarks/gitdocs/``; in :data:`HELD_OUT`, measured only with ``run_all.py --only
  gitdocs``; its crawls have been read since its first measurement (a diagnosis set);
- ``cmakedocs``, HELD OUT: Debian ``cmake-doc``, the CMake 3.25 documentation (Sphinx)
  ``/usr/share/doc/cmake-data/html`` (1,936 pages; truth: the pages one section of a
  reference manual lists), truth in ``benchmarks/cmakedocs/``; in :data:`HELD_OUT`, measured
  only with ``run_all.py --only cmakedocs``; nobody has looked at a crawl of it;
- ``djangodocs``, HELD OUT: Debian ``python-django-doc``, the Django 3.2 documentation
  (Sphinx) ``/usr/share/doc/python-django-doc/html`` (692 pages; truth: a section's index
  page and the pages its toctree lists), truth in ``benchmarks/djangodocs/``; in
  :data:`HELD_OUT`, measured only with ``run_all.py --only djangodocs``; nobody has looked at
  a crawl of it either.

Each folder's ``README.md`` says how its truth is derived (from the site's own tables of
contents, never from URL words) and its ``make_truth.py`` regenerates the files. The truth
files are written on the placeholder base ``http://127.0.0.1:0/``; :func:`rebase` moves them
onto the port :class:`pagesift_ui.net.serve.StaticServer` serves the folder on.

:func:`bench_site` serves one site, reads its whole followable link graph once (the oracle
walks it; every query has the same seed) and runs :func:`pagesift_ui.bench.run_bench` for
each query at a budget of :data:`LIMIT` pages, default settings.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pagesift_ui.bench import BenchReport, Truth, run_bench  # noqa: E402
from pagesift_ui.bench.graph import SiteGraph, explore_site  # noqa: E402
from pagesift_ui.bench.truth import found_keys  # noqa: E402
from pagesift_ui.net.fetcher import Fetcher  # noqa: E402
from pagesift_ui.net.serve import StaticServer  # noqa: E402
from pagesift_ui.session import (  # noqa: E402
    CrawlConfig,
    CrawlSession,
    StepOutcome,
    VerdictFate,
)

__all__ = ["HELD_OUT", "LIMIT", "PLACEHOLDER", "SITES", "DocSite", "NoStopRun", "bench_site",
           "no_stop_crawl", "no_stop_run", "rebase", "site_named"]

logger = logging.getLogger(__name__)

PLACEHOLDER = "http://127.0.0.1:0/"  # the base the truth files are written on
LIMIT = 200  # pages per crawl (issue 11: "budget 200 pages per crawl, default settings")
MAX_GRAPH_PAGES = 5000  # the oracle's exploration cap, far above either site


@dataclass(frozen=True, slots=True)
class DocSite:
    """One documentation site of the dev set."""

    name: str  # report labels are <name>-<query>
    title: str
    package: str  # the Debian package that installs it
    docs: Path
    truth_dir: Path
    seed_page: str = "index.html"

    def installed(self) -> bool:
        return (self.docs / self.seed_page).is_file()

    @property
    def missing(self) -> str:
        return (f"the {self.title} is not installed at {self.docs}: run "
                f"'apt-get install {self.package}' (Debian/Ubuntu) and try again")

    def truth_names(self) -> list[str]:
        """The query names: the stems of ``*.truth`` in the truth folder, sorted."""
        return sorted(p.stem for p in self.truth_dir.glob("*.truth"))

    def truth(self, name: str) -> Truth:
        return Truth.load(self.truth_dir / f"{name}.truth")


SITES: dict[str, DocSite] = {
    "pydocs": DocSite("pydocs", "Python 3.11 documentation", "python3.11-doc",
                      Path("/usr/share/doc/python3.11/html"), ROOT / "benchmarks" / "pydocs"),
    "sqlite": DocSite("sqlite", "SQLite 3 documentation", "sqlite3-doc",
                      Path("/usr/share/doc/sqlite3"), ROOT / "benchmarks" / "sqlitedocs"),
}

#: Held-out dev sets: measured only, never used to choose or tune anything
#: (each one's ``benchmarks/<name>/README.md`` says how clean it still is); kept out of
#: :data:`SITES` so that no tuning script and no tuning-set summary includes them by default.
HELD_OUT: dict[str, DocSite] = {
    "pgdocs": DocSite("pgdocs", "PostgreSQL 15 documentation", "postgresql-doc-15",
                      Path("/usr/share/doc/postgresql-doc-15/html"),
                      ROOT / "benchmarks" / "pgdocs"),
    "apachedocs": DocSite("apachedocs", "Apache HTTP Server 2.4 documentation", "apache2-doc",
                          Path("/usr/share/doc/apache2-doc/manual/en"),
                          ROOT / "benchmarks" / "apachedocs"),
    "octavedocs": DocSite("octavedocs", "GNU Octave 7 manual", "octave-doc",
                          Path("/usr/share/doc/octave/octave.html"),
                          ROOT / "benchmarks" / "octavedocs"),
    "gitdocs": DocSite("gitdocs", "Git 2.39 documentation", "git-doc",
                       Path("/usr/share/doc/git/html"), ROOT / "benchmarks" / "gitdocs"),
    "cmakedocs": DocSite("cmakedocs", "CMake 3.25 documentation", "cmake-doc",
                         Path("/usr/share/doc/cmake-data/html"),
                         ROOT / "benchmarks" / "cmakedocs"),
    "djangodocs": DocSite("djangodocs", "Django 3.2 documentation", "python-django-doc",
                          Path("/usr/share/doc/python-django-doc/html"),
                          ROOT / "benchmarks" / "djangodocs"),
}


def rebase(truth: Truth, base: str) -> Truth:
    """``truth`` with the placeholder base replaced by ``base`` (``http://127.0.0.1:PORT/``)."""

    def move(url: str) -> str:
        if not url.startswith(PLACEHOLDER):
            raise ValueError(f"{url!r} is not on the placeholder base {PLACEHOLDER}")
        return base + url[len(PLACEHOLDER):]

    return Truth(truth.query, move(truth.seed), tuple(move(u) for u in truth.urls))


def site_named(name: str) -> DocSite:
    """The dev set ``name``, a tuning set or a held-out one (a script that walks every
    tuning set iterates :data:`SITES`, so naming a held-out set is always explicit)."""
    return SITES[name] if name in SITES else HELD_OUT[name]


@contextmanager
def no_stop_crawl(site_name: str, name: str) -> Iterator[tuple[Truth, CrawlConfig]]:
    """A dev query's site served on 127.0.0.1: its truth on that port, and the config of a
    crawl to the budget (default settings) that records every verdict and crawls past it,
    as ``replay_stops.py``, ``steer_labels.py``, ``sweep_patience.py`` and
    ``bound_relevance.py`` read the crawls."""
    site = site_named(site_name)
    with StaticServer(site.docs) as server:
        truth = rebase(site.truth(name), server.base_url() + "/")
        yield truth, CrawlConfig.from_mapping({
            "seed_url": truth.seed, "query": truth.query, "limit": LIMIT, "delay_s": 0.0,
            "stop_on_verdict": False,
        })


@dataclass(frozen=True, slots=True)
class NoStopRun:
    """What a crawl to the budget says about its own stop: pages to 90% of the truth (None:
    never), and pages and recall at the first verdict that would have stood (at the end of
    the run when none would have)."""

    pages_to_90: int | None
    stop_pages: int
    stop_recall: float


def no_stop_run(truth: Truth, config: CrawlConfig) -> NoStopRun:
    """Crawl ``config`` (from :func:`no_stop_crawl`) to its budget and measure it as
    ``run_all.py`` does: a duplicate is a step, not a page; a page counts as found by its
    requested or final URL."""
    keys = frozenset(truth.keys)
    found: set[str] = set()
    pages, recall = 0, 0.0
    pages_to_90: int | None = None
    stop: tuple[int, float] | None = None
    with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
        for record in session.iter_steps():
            if record.outcome is not StepOutcome.DUPLICATE or pages == 0:
                pages += 1
            found |= found_keys(record) & keys
            recall = len(found) / len(keys)
            if pages_to_90 is None and recall >= 0.9 - 1e-12:
                pages_to_90 = pages
            if (stop is None and record.verdict is not None
                    and record.verdict_fate is VerdictFate.NO_STOP):
                stop = (pages, recall)
    stop_pages, stop_recall = stop or (pages, recall)
    return NoStopRun(pages_to_90, stop_pages, stop_recall)


def site_graph(seed: str) -> SiteGraph:
    """The followable link graph from ``seed`` under default settings (what a crawl may
    follow: in scope, not a trap, robots-allowed, not nofollow)."""
    config = CrawlConfig.from_mapping({"seed_url": seed, "query": "oracle", "delay_s": 0.0})
    graph = explore_site(Fetcher(config.fetch_policy()), config, MAX_GRAPH_PAGES)
    if not graph.complete:
        logger.warning("%s: the oracle's graph stopped at %d pages", seed, graph.pages)
    return graph


def bench_site(site: DocSite, names: Sequence[str] | None = None, limit: int = LIMIT,
               trace: bool = True, bfs: bool = True) -> list[BenchReport]:
    """Serve ``site`` on a free port and bench each query (default: every truth file)."""
    reports: list[BenchReport] = []
    with StaticServer(site.docs) as server:
        base = server.base_url() + "/"
        started = time.perf_counter()
        graph = site_graph(base + site.seed_page)
        logger.info("%s: link graph of %d pages read in %.1f s", site.name, graph.pages,
                    time.perf_counter() - started)
        for name in names or site.truth_names():
            truth = rebase(site.truth(name), base)
            label = f"{site.name}-{name}"
            logger.info("%s: %d relevant pages, seed %s", label, len(truth.urls), truth.seed)
            reports.append(run_bench(label, truth, limit, graph=graph, trace=trace, bfs=bfs))
    return reports
