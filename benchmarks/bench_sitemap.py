"""What sitemap seeding costs (docs/DESIGN.md §11.13), on a loopback site.

Run: ``python3 benchmarks/bench_sitemap.py`` (about half a minute). It prints

1. parsing a 50,000-URL sitemap (the protocol's maximum): seconds, and in a second run the
   Python heap's peak (tracemalloc; lxml's own C buffers are not counted), against the
   document's size;
2. un-gzipping a 256 MiB gzip bomb under the default 10 MB cap: the heap's peak;
3. step 1 of a crawl of a loopback site whose sitemap lists 1,000 URLs, with ``use_sitemaps``
   off and on, interleaved over rounds (the median of each and their ratio);
4. the crawl of that site to its end with the option off and on: pages fetched and whether
   the page only the sitemap lists was found.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pagesift_ui.errors import BodyTooLarge  # noqa: E402
from pagesift_ui.net.sitemaps import gunzip_capped  # noqa: E402
from pagesift_ui.page.sitemap import parse_sitemap  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession  # noqa: E402
from tests.faults.server import bomb_body  # noqa: E402
from tests.sitemap_site import HIDDEN, XML, Answer, SitemapSite, site_routes, urlset  # noqa: E402

ROUNDS = 7


def _parse() -> None:
    data = urlset("http://127.0.0.1:8000", [(f"/section/{i}/page-{i}", "2024-05-01")
                                             for i in range(50_000)])
    started = time.perf_counter()
    parsed = parse_sitemap(data, 1_000)
    seconds = time.perf_counter() - started
    tracemalloc.start()  # a second run: tracemalloc slows Python several times over
    parse_sitemap(data, 1_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"parse 50,000 URLs ({len(data) / 1e6:.1f} MB): {seconds:.3f} s, "
          f"heap peak {peak / 1e6:.2f} MB, {len(parsed.entries)} kept, {parsed.cut} cut")


def _bomb() -> None:
    bomb = bomb_body(("gzip",), 256)
    tracemalloc.start()
    try:
        gunzip_capped("bomb", bomb, 10_000_000)
    except BodyTooLarge:
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"gzip bomb ({len(bomb) / 1e3:.0f} KB → 256 MiB) under a 10 MB cap: "
          f"heap peak {peak / 1e6:.1f} MB")


def _config(site: SitemapSite, on: bool, limit: int) -> CrawlConfig:
    return CrawlConfig.from_mapping({
        "seed_url": f"{site.base}/", "query": "refund policy", "delay_s": 0.0, "limit": limit,
        "stop_on_verdict": False, "use_sitemaps": on,
    })


def _step_one(site: SitemapSite) -> None:
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(ROUNDS):
        for on in (False, True):
            with CrawlSession(_config(site, on, 20)) as session:
                started = time.perf_counter()
                session.step()
                times[on].append(time.perf_counter() - started)
    off, on = (statistics.median(times[flag]) * 1000 for flag in (False, True))
    print(f"step 1, 1,000 sitemap URLs: off {off:.1f} ms, on {on:.1f} ms (×{on / off:.1f}; "
          f"median of {ROUNDS} interleaved)")


def _whole_crawl(site: SitemapSite) -> None:
    for on in (False, True):
        with CrawlSession(_config(site, on, 30)) as session:
            session.run()
        fetched = [s for s in session.steps if s.outcome.value == "fetched"]
        found = next((s.step for s in fetched if s.final_url.endswith(HIDDEN)), None)
        print(f"use_sitemaps={on}: {len(session.steps)} steps, {len(fetched)} pages fetched, "
              f"the sitemap-only page {'at step ' + str(found) if found else 'not found'}")


def main() -> None:
    _parse()
    _bomb()
    with SitemapSite() as site:
        site.routes.update(site_routes(site.base, "plain"))
        whole = dict(site.routes)
        listed = [(HIDDEN, "2024-05-01")] + [(f"/archive/item-{i}", "") for i in range(999)]
        site.routes["/sitemap.xml"] = Answer(200, XML, urlset(site.base, listed))
        _step_one(site)
        site.routes.clear()
        site.routes.update(whole)
        _whole_crawl(site)


if __name__ == "__main__":
    main()
