"""Seconds per crawl step of one page with 1.5k, 15k and 150k links (issue 12, failure 8).

Run: ``python3 benchmarks/bench_bigpage.py`` (about a minute). For each layout (one link a
line, every link on one line) and size it crawls a seed page, then times the step of the big
page: wall and CPU seconds, and CPU seconds by phase (extraction, relevance, the stop rules'
observation, the links). The last column is the growth ratio of CPU seconds against 1.5k.
The page is read up to ``MAX_LINKS_READ`` links, so from 15k to 150k the step must stay
nearly flat; before that cap it grew tenfold (48 s and 72 s CPU at 150k).
Pages are served from memory; nothing touches the network.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.phases import Phase, timed_phases  # noqa: E402
from pagesift_ui.frontier import adaptive, focus  # noqa: E402
from pagesift_ui.frontier.query import stem  # noqa: E402
from pagesift_ui.net.fetcher import FetchResult  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession  # noqa: E402
from pagesift_ui.session import crawl as crawl_module  # noqa: E402

logger = logging.getLogger(__name__)

SIZES = (1_500, 15_000, 150_000)
LAYOUTS = ("lines", "one_line")
SEED = "http://big.localhost/"
#: (module or class, function name, column): what each phase column times.
PHASES: tuple[Phase, ...] = (
    (crawl_module, "extract", "extract"),
    (focus.Focus, "page_signal", "relevance"),
    (adaptive.Adaptive, "observe", "stop rules"),
    (crawl_module, "enqueue_links", "links"),
)


def big_page(layout: str, links: int) -> bytes:
    head = "<!DOCTYPE html><html><head><title>Refund index</title></head><body><h1>Refunds</h1>"
    if layout == "lines":
        body = "".join(f'<p><a href="/item/{i}">refund item {i}</a></p>\n' for i in range(links))
    else:
        body = "".join(f'<a href="/item/{i}">refund item {i}</a> ' for i in range(links))
    return f"{head}{body}</body></html>".encode()


class MemorySource:
    """A ``PageSource`` of two pages: the seed, linking to ``/big``, and the big page."""

    def __init__(self, big: bytes) -> None:
        seed = b'<html><body><p>Refund policy</p><a href="/big">every refund</a></body></html>'
        self._pages = {SEED: seed, SEED + "big": big}

    def fetch(self, url: str) -> FetchResult:
        body = self._pages.get(url, b"<html><body><p>an item</p></body></html>")
        return FetchResult(url, url, 200, "text/html", "utf-8", body, (), 0.0, 0.0, ())

    def prefetch(self, urls: Sequence[str]) -> None:
        """Pages are made when fetched."""

    def allowed_by_robots(self, url: str) -> bool:
        return True

    def close(self) -> None:
        return None


def step_of_big_page(layout: str, links: int) -> tuple[float, float, dict[str, float]]:
    """(wall s, CPU s, CPU s by phase) of the big page's step."""
    config = CrawlConfig.from_mapping({
        "seed_url": SEED, "query": "refund policy", "limit": 50, "delay_s": 0.0,
        "stop_on_verdict": False, "max_body_bytes": 50_000_000,
    })
    stem.cache_clear()  # a page's words are new to a crawl: time them stemmed cold
    with CrawlSession(config, MemorySource(big_page(layout, links))) as session:
        session.step()
        with timed_phases(PHASES) as phases:
            wall, cpu = time.perf_counter(), time.process_time()
            record = session.step()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if record.url != SEED + "big" or record.links["found"] != links:
        raise RuntimeError(f"the step was not the big page's: {record.url} {record.links}")
    return wall, cpu, dict(phases)


def main() -> None:
    columns = [column for _, _, column in PHASES]
    header = ["layout", "links", "wall s", "CPU s", *columns, "CPU ÷ CPU@1.5k"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for layout in LAYOUTS:
        base = None
        for links in SIZES:
            wall, cpu, phases = step_of_big_page(layout, links)
            base = base or cpu
            cells = [f"{phases.get(column, 0.0):.2f}" for column in columns]
            print(" | ".join([layout, f"{links:,}", f"{wall:.2f}", f"{cpu:.2f}", *cells,
                              f"{cpu / base:.1f}"]))


if __name__ == "__main__":
    main()
