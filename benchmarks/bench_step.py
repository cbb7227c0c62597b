"""The cost of one crawl step against a parse of the same page (issue 15).

Run: ``python3 benchmarks/bench_step.py`` (a few minutes on 2 cores; ``--quick`` for one
short crawl, ``--profile`` for a cProfile of the steps instead of the table).

It crawls the Python 3.11 documentation (Debian ``python3.11-doc``) for a few of the
``benchmarks/pydocs`` queries from a page source that serves the pages from memory: the
bodies are read and decoded once, before the clock starts, so a "step" is what
``CrawlSession.step()`` does with a page after the fetch (extraction, relevance, the stop
rules, the links' cleaning, scoring and queueing, the record). After each step the same page
— the decoded text the step parsed — is parsed with ``BeautifulSoup(text, "lxml")`` and with
``lxml.html.fromstring(text)``, the two in alternating order from page to page, and the
soup's garbage is collected before the next step, outside every clock (a soup is a web of
cycles: left to the cyclic GC, its full collections ran inside the next steps;
docs/DECISIONS.md, issue 15, "bench_step's garbage"). Each crawl
runs ``REPEATS`` times (a fresh session each time, so the same steps), and every time is the
median of its repeats. Times are CPU seconds of this process (``time.process_time``): the
machine is shared, and other processes' load should not count.

Printed per page-size bucket (body bytes) and overall: pages, median ms of step, bs4 parse
and lxml parse, and the ratios step ÷ bs4 and step ÷ lxml as a **ratio of sums** (total step
time over total parse time: the cost of a crawl) and as the median of the per-page ratios.
Written to ``benchmarks/results/step.json``. Nothing touches the network.

``--phases`` also times the four phases ``CrawlSession`` calls for a page (``PHASES``:
extraction, the duplicate check, offering the links, observing the page) and prints each as
a share of the step per bucket; the rest is popping, rescoring, the lead check and the
record. Four clock reads a step: run it apart from the runs whose ratios are compared.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import json
import logging
import pstats
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lxml.html  # noqa: E402
from bs4 import BeautifulSoup  # noqa: E402

import pagesift_ui.page.extract as extract_module  # noqa: E402
from benchmarks.docsites import SITES  # noqa: E402
from benchmarks.phases import Phase, timed_phases  # noqa: E402
from pagesift_ui.errors import HTTPStatusError, UnsupportedContentType  # noqa: E402
from pagesift_ui.frontier import (  # noqa: E402
    harvest,
    language,
    linkrules,
    links,
    textpass,
    urls,
)
from pagesift_ui.frontier import meaning as meaning_module  # noqa: E402
from pagesift_ui.frontier import query as query_module  # noqa: E402
from pagesift_ui.net.fetcher import FetchResult  # noqa: E402
from pagesift_ui.page import charset, collect, lxmltree, markup, soup  # noqa: E402
from pagesift_ui.page.charset import decode_html  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession, enqueue  # noqa: E402

logger = logging.getLogger(__name__)
#: the module, not the function ``pagesift_ui.page`` exports under the same name
resolve_module = importlib.import_module("pagesift_ui.page.resolve")
#: the module whose names ``CrawlSession`` calls the phases by (``PHASES``)
crawl_module = importlib.import_module("pagesift_ui.session.crawl")

QUERIES = ("asyncio", "text")  # benchmarks/pydocs/*.truth
LIMIT = 60  # pages per crawl
REPEATS = 3
#: (label, upper bound in bytes): the size buckets.
BUCKETS = (("< 20 KB", 20_000), ("20-100 KB", 100_000), ("> 100 KB", float("inf")))
TARGET = 5.0  # issue 15: step ≤ 5× a raw lxml parse overall
RESULT = ROOT / "benchmarks" / "results" / "step.json"


class MemorySource:
    """A ``PageSource`` over a folder of HTML files read into memory once, on the
    placeholder base; remembers the last page it served."""

    def __init__(self, docs: Path) -> None:
        self._pages: dict[str, tuple[bytes, str, str]] = {}
        for path in sorted(docs.rglob("*.html")):
            body = path.read_bytes()
            encoding, text = decode_html(body, None)
            self._pages[path.relative_to(docs).as_posix()] = (body, encoding, text)
        self.last: FetchResult | None = None

    def fetch(self, url: str) -> FetchResult:
        self.last = None
        path = unquote(urlsplit(url).path).lstrip("/")
        if path == "" or path.endswith("/"):
            path += "index.html"
        if path not in self._pages:
            if Path(path).suffix in ("", ".html"):
                raise HTTPStatusError(url, "404 Not Found", 404)
            raise UnsupportedContentType(url, "text/plain", "not HTML")
        body, encoding, _ = self._pages[path]
        self.last = FetchResult(url, url, 200, "text/html", encoding, body, (), 0.0, 0.0, ())
        return self.last

    def allowed_by_robots(self, url: str) -> bool:
        return True  # the docs have no robots.txt: the fetcher's 404 allows everything

    def close(self) -> None:
        pass


@dataclass(slots=True)
class PageTimes:
    """One step's page: its size and, per repeat, the step and the two parses (s), and the
    step's phases when they are timed (``--phases``)."""

    url: str
    size: int
    step: list[float]
    bs4: list[float]
    lxml: list[float]
    phases: dict[str, list[float]] = field(default_factory=dict)


#: (module, function name, label): the phases of a step that ``--phases`` times, in the
#: order a step runs them; the names are those ``CrawlSession`` calls them by.
PHASES: tuple[Phase, ...] = (
    (crawl_module, "extract", "extract"),
    (crawl_module, "record_text", "duplicates"),
    (crawl_module, "observe_page", "observing"),
    (crawl_module, "enqueue_links", "links"),
)
PHASE_LABELS = tuple(label for _, _, label in PHASES)


def _cpu(action: Any, *args: Any) -> float:
    """CPU seconds of ``action(*args)``, freeing what it returned included (a step frees
    its tree too); a soup's cycles are left to the caller's ``gc.collect()``."""
    start = time.process_time()
    action(*args)
    return time.process_time() - start


def _crawl(source: MemorySource, query: str, seed: str, limit: int,
           times: dict[str, PageTimes], phases: dict[str, float] | None = None) -> list[str]:
    """One crawl; each step's page parsed twice right after it. The fetch order. With
    ``phases`` (``timed_phases``' counts, live), each step's phases too."""
    config = CrawlConfig.from_mapping({"seed_url": seed, "query": query, "delay_s": 0.0,
                                       "limit": limit, "stop_on_verdict": False})
    order: list[str] = []
    with CrawlSession(config, source) as session:
        while not session.done:
            if phases is not None:
                phases.clear()
            started = time.process_time()
            try:
                session.step()
            except Exception:  # SessionDone: the queue ran dry
                break
            step = time.process_time() - started
            result = source.last
            if result is None:
                continue  # a 404 or a non-HTML link: no page, no parse to compare
            order.append(result.final_url)
            entry = times.setdefault(result.final_url, PageTimes(
                result.final_url, len(result.body), [], [], []))
            text = result.text
            parses = [("bs4", lambda: BeautifulSoup(text, "lxml")),  # noqa: B023 (run here)
                      ("lxml", lambda: lxml.html.fromstring(text))]  # noqa: B023
            if len(order) % 2:
                parses.reverse()
            entry.step.append(step)
            if phases is not None:
                for label in PHASE_LABELS:
                    entry.phases.setdefault(label, []).append(phases.get(label, 0.0))
            for name, parse in parses:
                getattr(entry, name).append(_cpu(parse))
            # A soup is a web of parent/child cycles: only the cyclic GC frees it, and its
            # dead trees were still there when the next steps' collections ran (4-5 full
            # collections of ~0.1-0.2 s inside the steps of a run, 15,000+ bs4 Tags on the
            # heap each time). Collected here, outside every clock. A step itself leaves no
            # cyclic garbage (0 after 58 of 60 steps: docs/DECISIONS.md, "bench_step's
            # garbage"), so this takes nothing the step would have paid for.
            gc.collect()
    return order


#: The process-wide caches a crawl fills as it reads pages: per URL, per href, per word, per
#: class attribute. ``--cold-caches`` empties them before each repeat.
WARM_CACHES = (
    resolve_module._cleaned, resolve_module._join_in_directory, resolve_module.resolve_href,
    resolve_module.http_url, resolve_module._base_directory, lxmltree._boilerplate_classes,
    urls._clean, urls._dedupe_key, harvest.subtree, links._locator_mask, enqueue._url_refusal,
    linkrules._is_ip, linkrules._locator_text, linkrules._furniture_path, linkrules._is_dated,
    linkrules._section_shape, linkrules._english_root, linkrules._other_language,
    linkrules._is_absolute, language.stem_function,
)
#: The caches that hold what is loaded or built once per process or per query (start-up,
#: not per page): kept.
LOADED_ONCE = ("word_vectors", "stop_words", "_coverage_table", "_shape_tables",
               "_wanted_furniture")


def clear_warm_caches() -> None:
    """Empty ``WARM_CACHES`` (and the word hashes and classes of the compiled text passes), so a
    repeat pays what a first crawl pays for each new page: it would otherwise find every URL
    and word of the crawl before it already resolved, cleaned, stemmed and hashed."""
    for cache in WARM_CACHES:
        cache.cache_clear()
    textpass.clear_word_caches()
    query_module.clear_word_tables()


def measure(queries: tuple[str, ...], limit: int, repeats: int,
            cold: bool = False, phases: dict[str, float] | None = None) -> list[PageTimes]:
    site = SITES["pydocs"]
    if not site.installed():
        raise SystemExit(site.missing)
    source = MemorySource(site.docs)
    pages: list[PageTimes] = []
    for query_name in queries:
        truth = site.truth(query_name)
        times: dict[str, PageTimes] = {}
        orders = []
        for repeat in range(repeats):
            if cold:
                clear_warm_caches()
            orders.append(_crawl(source, truth.query, truth.seed, limit, times, phases))
            logger.info("%s: repeat %d, %d pages", query_name, repeat + 1, len(orders[-1]))
        if any(order != orders[0] for order in orders):
            raise SystemExit(f"{query_name}: the repeats fetched in different orders")
        # a page fetched twice in a crawl (as a duplicate) has 2 × repeats times: keep it
        pages.extend(times.values())
    return pages


def _summary(pages: list[PageTimes]) -> dict[str, Any]:
    step = [statistics.median(p.step) for p in pages]
    bs4 = [statistics.median(p.bs4) for p in pages]
    lx = [statistics.median(p.lxml) for p in pages]
    if not pages:
        return {"pages": 0}
    shares = phase_shares(pages)
    return ({"phase_shares": shares} if shares else {}) | {
        "pages": len(pages),
        "median_step_ms": statistics.median(step) * 1e3,
        "median_bs4_ms": statistics.median(bs4) * 1e3,
        "median_lxml_ms": statistics.median(lx) * 1e3,
        "total_step_s": sum(step),
        "step_over_bs4": sum(step) / sum(bs4),
        "step_over_lxml": sum(step) / sum(lx),
        "median_step_over_bs4": statistics.median(s / b for s, b in zip(step, bs4, strict=True)
                                                  if b > 0),
        "median_step_over_lxml": statistics.median(s / x for s, x in zip(step, lx, strict=True)
                                                   if x > 0),
    }


def phase_shares(pages: list[PageTimes]) -> dict[str, float]:
    """Each phase's share of the pages' step time (medians of the repeats, summed), and the
    rest's; {} when the phases were not timed."""
    if not pages or not all(p.phases for p in pages):
        return {}
    total = sum(statistics.median(p.step) for p in pages)
    shares = {label: sum(statistics.median(p.phases[label]) for p in pages) / total
              for label in PHASE_LABELS}
    shares["rest"] = 1.0 - sum(shares.values())
    return shares


def report(pages: list[PageTimes]) -> dict[str, Any]:
    buckets: dict[str, list[PageTimes]] = defaultdict(list)
    for page in pages:
        label = next(label for label, bound in BUCKETS if page.size < bound)
        buckets[label].append(page)
    rows = {label: _summary(buckets[label]) for label, _ in BUCKETS}
    rows["overall"] = _summary(pages)
    return rows


def _print(rows: dict[str, Any], header: str) -> None:
    print(header)
    print(f"{'bucket':<11}{'pages':>6}{'step ms':>9}{'bs4 ms':>8}{'lxml ms':>8}"
          f"{'step/bs4':>10}{'step/lxml':>10}{'med/bs4':>9}{'med/lxml':>9}")
    for label, row in rows.items():
        if not row["pages"]:
            print(f"{label:<11}{0:>6}")
            continue
        print(f"{label:<11}{row['pages']:>6}{row['median_step_ms']:>9.2f}"
              f"{row['median_bs4_ms']:>8.2f}{row['median_lxml_ms']:>8.2f}"
              f"{row['step_over_bs4']:>10.2f}{row['step_over_lxml']:>10.2f}"
              f"{row['median_step_over_bs4']:>9.2f}{row['median_step_over_lxml']:>9.2f}")
    overall = rows["overall"]["step_over_lxml"]
    print(f"step/bs4, step/lxml: ratio of sums (total CPU of the steps over total CPU of the "
          f"parses); med/…: median of per-page ratios. Target step/lxml ≤ {TARGET:g}: "
          f"{'met' if overall <= TARGET else 'not met'} ({overall:.2f}).")
    if "phase_shares" not in rows["overall"]:
        return
    labels = [*PHASE_LABELS, "rest"]
    print("\nshare of the step's time, by phase (--phases; rest: popping, rescoring, the lead "
          "check, the record)")
    print(f"{'bucket':<11}" + "".join(f"{label:>12}" for label in labels))
    for label, row in rows.items():
        if row.get("phase_shares"):
            print(f"{label:<11}" + "".join(f"{row['phase_shares'][name]:>12.1%}"
                                           for name in labels))


def profile(queries: tuple[str, ...], limit: int) -> None:
    site = SITES["pydocs"]
    source = MemorySource(site.docs)
    profiler = cProfile.Profile()
    for query_name in queries:
        truth = site.truth(query_name)
        config = CrawlConfig.from_mapping({"seed_url": truth.seed, "query": truth.query,
                                           "delay_s": 0.0, "limit": limit,
                                           "stop_on_verdict": False})
        with CrawlSession(config, source) as session:
            profiler.runcall(session.run)
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(45)


#: ``--python-<part>``: a compiled part measured as its Python reference, from the same install.
PYTHON_PARTS = {
    "walk": "walk the tree",
    "collector": "read pages with collect.py",
    "normalise": "collapse white space",
    "text": "run the text passes (duplicates, MinHash minima, word classes and masks, "
            "meaning, the UTF-8 check)",
}


def use_python_text_passes() -> None:
    """The compiled text passes as their Python references (``--python-text``)."""
    urls.fingerprint_texts = textpass._fingerprint_texts_in_python
    textpass.word_hashes = textpass._word_hashes_in_python
    textpass.min_hashes = textpass._min_hashes_in_python
    query_module.WORD_CLASSES = None
    meaning_module.word_vectors()._rows = None  # numpy's vectors and dot
    extract_module.is_utf8 = charset._is_utf8_in_python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one query, 40 pages, 2 repeats")
    parser.add_argument("--profile", action="store_true", help="cProfile the steps instead")
    parser.add_argument("--label", default="", help="a name for this run in step.json")
    for part, what in PYTHON_PARTS.items():
        parser.add_argument(f"--python-{part}", action="store_true",
                            help=f"{what} in Python even where the compiled one is built")
    parser.add_argument("--phases", action="store_true",
                        help="also time the phases of each step (extraction, duplicates, "
                             "observing, links) and print their shares")
    parser.add_argument("--cold-caches", action="store_true",
                        help="empty the per-URL and per-word caches before each repeat, so "
                             "every repeat pays what a first crawl pays")
    args = parser.parse_args()
    if args.python_walk:
        lxmltree.COMPILED_WALK = None
        lxmltree.COMPILED_HEAD = None
    if args.python_collector:
        extract_module.Collector = collect.python_source().Collector
    if args.python_normalise:
        for module in (collect, lxmltree, soup):
            module.normalise = markup._normalise_in_python
    if args.python_text:
        use_python_text_passes()
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logger.setLevel(logging.INFO)
    queries, limit, repeats = ((QUERIES[:1], 40, 2) if args.quick else (QUERIES, LIMIT, REPEATS))
    if args.profile:
        profile(queries, limit)
        return
    if args.phases:
        with timed_phases(PHASES) as spent:
            pages = measure(queries, limit, repeats, cold=args.cold_caches, phases=spent)
    else:
        pages = measure(queries, limit, repeats, cold=args.cold_caches)
    rows = report(pages)
    walk = "compiled" if lxmltree.COMPILED_WALK is not None else "in Python"
    compiled_collector = (collect.is_compiled()
                          and extract_module.Collector is collect.Collector)
    collector = "compiled" if compiled_collector else "in Python"
    text = ("compiled" if textpass.COMPILED and urls.fingerprint_texts is textpass.fingerprint_texts
            else "in Python")
    space = ("compiled" if markup.NORMALISE_COMPILED and collect.normalise is markup.normalise
             else "in Python")
    header = (f"pydocs, queries {', '.join(queries)}, {limit} pages each, {repeats} repeats; "
              f"CPU time, medians of the repeats; tree walk {walk}, collector {collector}, "
              f"white-space collapse {space}, text passes {text}; "
              + ("caches emptied before each repeat" if args.cold_caches
                 else "caches kept between repeats")
              + ("; phases timed" if args.phases else ""))
    _print(rows, header)
    if not args.quick:
        results = json.loads(RESULT.read_text()) if RESULT.exists() else {}
        results[args.label or "latest"] = {"setup": header, "buckets": rows}
        RESULT.write_text(json.dumps(results, indent=2) + "\n")
        print(f"written to {RESULT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
