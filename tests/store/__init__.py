"""Helpers shared by the session-store tests."""

from __future__ import annotations

import gzip
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.store import StoreSink
from tests.fixture_site import FixtureSite


def crawl_config(seed_url: str, **settings: object) -> CrawlConfig:
    """A crawl for 'refund policy' from ``seed_url`` with no delay; ``settings`` add to it or
    override it."""
    return CrawlConfig.from_mapping(
        {"seed_url": seed_url, "query": "refund policy", "delay_s": 0.0, **settings})


def site_config(site: FixtureSite, **settings: object) -> CrawlConfig:
    """The fixture crawl: 'refund policy' from the home page, with every error kind on the
    way when ``stop_on_verdict=False`` (404, 500, redirect loop, robots, PDF)."""
    return crawl_config(site.url("/"), **{"limit": 40, "read_timeout_s": 1.0, **settings})


@contextmanager
def fetches_interrupted_after(
    monkeypatch: pytest.MonkeyPatch, fetches: int, on_fetch: Callable[[], object] = lambda: None
) -> Iterator[None]:
    """Within the block, every fetch after the first ``fetches`` raises KeyboardInterrupt:
    a Ctrl-C in the middle of a crawl. ``on_fetch`` is called as each fetch begins."""
    real_fetch = Fetcher.fetch
    calls = itertools.count(1)

    def interrupted(self: Fetcher, url: str) -> FetchResult:
        on_fetch()
        if next(calls) > fetches:
            raise KeyboardInterrupt
        return real_fetch(self, url)

    with monkeypatch.context() as patch:
        patch.setattr(Fetcher, "fetch", interrupted)
        yield


def saving(session: CrawlSession) -> StoreSink:
    """The sink that saves ``session`` (a session from ``start_session`` or ``resume``)."""
    sink = session.find_sink(StoreSink)
    assert sink is not None, "a saved session has its store sink"
    return sink


def ticking_clock(tick_s: float = 0.001) -> Callable[[], float]:
    """A deterministic monotonic clock: each call is ``tick_s`` later than the one before."""
    counter = itertools.count()
    return lambda: next(counter) * tick_s


def crawl_view(record: StepRecord) -> dict[str, Any]:
    """A step record without what measures the run: two crawls of the same pages with the
    same settings give equal views (``fetched_at`` is when the page was fetched)."""
    view = record.to_dict()
    del view["elapsed_ms"], view["fetched_at"]
    return view


def write_foreign_warc(path: Path) -> None:
    """A small WARC as another crawler writes it: gzip-encoded body, redirect, 404, PDF."""
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        page = b"<html><head><title>Refunds</title></head><body><p>refund policy</p></body></html>"
        for url, status, headers, body in [
            ("http://x.test/", 200, [("Content-Type", "text/html; charset=utf-8"),
                                     ("Content-Encoding", "gzip")], gzip.compress(page)),
            ("http://x.test/old", 301, [("Location", "/")], b""),
            ("http://x.test/loop", 302, [("Location", "/nowhere")], b""),
            ("http://x.test/gone", 404, [("Content-Type", "text/html")], b"gone"),
            ("http://x.test/a.pdf", 200, [("Content-Type", "application/pdf")], b"%PDF-1.4"),
        ]:
            http = StatusAndHeaders(f"{status} X", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=BytesIO(body), length=len(body), http_headers=http))
