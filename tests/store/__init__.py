"""Helpers shared by the session-store tests."""

from __future__ import annotations

import gzip
import itertools
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.store import StoreSink
from tests.fixture_site import FixtureSite


def site_config(site: FixtureSite, **settings: object) -> CrawlConfig:
    """The fixture crawl: 'refund policy' from the home page, with every error kind on the
    way when ``stop_on_verdict=False`` (404, 500, redirect loop, robots, PDF)."""
    values = {
        "seed_url": site.url("/"),
        "query": "refund policy",
        "limit": 40,
        "delay_s": 0.0,
        "read_timeout_s": 1.0,
        **settings,
    }
    return CrawlConfig.from_mapping(values)


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
