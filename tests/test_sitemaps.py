"""Sitemap parsing (page/sitemap.py) and the bounded harvest (net/sitemaps.py), without a
network: bytes in, entries and notes out."""

from __future__ import annotations

import gzip
import tracemalloc

import pytest

from pagesift_ui.errors import BodyTooLarge, HTTPStatusError
from pagesift_ui.frontier.links import LinkSignal, LinkVia
from pagesift_ui.net.sitemaps import (
    SitemapFound,
    SitemapHarvest,
    SitemapLimits,
    SitemapOutcome,
    gunzip_capped,
    harvest_sitemaps,
)
from pagesift_ui.page.sitemap import SitemapError, SitemapKind, parse_sitemap
from tests.faults.server import bomb_body
from tests.sitemap_site import LAUGHS, urlset

BASE = "http://127.0.0.1:8000"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def test_a_urlset_gives_its_locations_and_lastmods_in_order() -> None:
    data = urlset(BASE, [("/a?x=1&y=2", "2024-05-01"), ("/b", ""), ("/c", "yesterday")])
    parsed = parse_sitemap(data, 10)
    assert parsed.kind is SitemapKind.URLSET and parsed.listed == 3
    assert [(e.url, e.lastmod) for e in parsed.entries] == [
        (f"{BASE}/a?x=1&y=2", "2024-05-01"), (f"{BASE}/b", ""),
        (f"{BASE}/c", ""),  # not a W3C datetime: not kept
    ]


def test_entries_past_the_cap_are_counted_not_kept() -> None:
    parsed = parse_sitemap(urlset(BASE, [(f"/{i}", "") for i in range(7)]), 3)
    assert (len(parsed.entries), parsed.listed, parsed.cut) == (3, 7, 4)


def test_a_sitemap_without_the_namespace_and_an_index_read_alike() -> None:
    plain = b"<urlset><url><loc> http://h/x </loc></url></urlset>"
    assert [e.url for e in parse_sitemap(plain, 5).entries] == ["http://h/x"]
    index = (f"<sitemapindex {NS}><sitemap><loc>http://h/s1.xml</loc>"
             "<lastmod>2024-01-02T03:04:05+01:00</lastmod></sitemap></sitemapindex>").encode()
    parsed = parse_sitemap(index, 5)
    assert parsed.kind is SitemapKind.INDEX
    assert [(e.url, e.lastmod) for e in parsed.entries] == [
        ("http://h/s1.xml", "2024-01-02T03:04:05+01:00")]


@pytest.mark.parametrize(("data", "why"), [
    (LAUGHS, "DTD"),
    (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
     b"<urlset><url><loc>&x;</loc></url></urlset>", "DTD"),
    (b"<html><body>not a sitemap</body></html>", "<html>"),
    (b"<urlset><url><loc>unclosed", "well-formed"),
    (b"", "well-formed"),
])
def test_what_is_not_a_plain_sitemap_is_refused(data: bytes, why: str) -> None:
    with pytest.raises(SitemapError, match=why):
        parse_sitemap(data, 10)


def test_a_gzip_bomb_is_stopped_at_the_cap_in_bounded_memory() -> None:
    bomb = bomb_body(("gzip",), 256)  # 256 MiB of zeros
    limit = 1_000_000
    tracemalloc.start()
    try:
        with pytest.raises(BodyTooLarge, match="1,000,000-byte limit"):
            gunzip_capped("http://h/s.xml.gz", bomb, limit)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the pieces kept up to the cap, one decoder step past it, and the decoder's own buffers
    assert peak < 4 * limit


def test_gzip_within_the_cap_is_undone() -> None:
    data = urlset(BASE, [("/a", "")])
    assert gunzip_capped("u", gzip.compress(data), len(data)) == data


class _Files:
    """A fetch answering from a dict (path → bytes, or the error to raise)."""

    def __init__(self, files: dict[str, bytes | Exception]) -> None:
        self.files = files
        self.asked: list[str] = []

    def __call__(self, url: str, limit: int) -> tuple[str, bytes]:
        self.asked.append(url)
        answer = self.files.get(url, HTTPStatusError(url, f"{url} answered 404", 404))
        if isinstance(answer, Exception):
            raise answer
        return url, answer


def _index(*urls: str) -> bytes:
    rows = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f"<sitemapindex {NS}>{rows}</sitemapindex>".encode()


def test_the_harvest_follows_an_index_one_level_and_refuses_an_index_in_an_index() -> None:
    files = _Files({
        f"{BASE}/index.xml": _index(f"{BASE}/a.xml", f"{BASE}/nested.xml"),
        f"{BASE}/a.xml": urlset(BASE, [("/p1", ""), ("/p2", "")]),
        f"{BASE}/nested.xml": _index(f"{BASE}/deep.xml"),
    })
    harvest = harvest_sitemaps([(f"{BASE}/index.xml", SitemapFound.ROBOTS)], files,
                               SitemapLimits(files=10, urls=100, bytes=10_000))
    assert [e.url for e in harvest.entries] == [f"{BASE}/p1", f"{BASE}/p2"]
    assert [(f.url.rsplit("/", 1)[1], f.outcome) for f in harvest.files] == [
        ("index.xml", SitemapOutcome.READ), ("a.xml", SitemapOutcome.READ),
        ("nested.xml", SitemapOutcome.REFUSED)]
    assert f"{BASE}/deep.xml" not in files.asked


def test_the_harvest_reads_at_most_the_file_cap_and_counts_the_rest() -> None:
    children = [f"{BASE}/s{i}.xml" for i in range(5)]
    files = _Files({f"{BASE}/index.xml": _index(*children),
                    **{c: urlset(BASE, [(f"/{i}", "")]) for i, c in enumerate(children)}})
    harvest = harvest_sitemaps([(f"{BASE}/index.xml", SitemapFound.DEFAULT)], files,
                               SitemapLimits(files=3, urls=100, bytes=10_000))
    assert len(files.asked) == 3 and len(harvest.entries) == 2
    assert harvest.not_read == 3


def test_the_url_cap_spans_every_file_and_failures_are_notes() -> None:
    files = _Files({
        f"{BASE}/a.xml": urlset(BASE, [(f"/a{i}", "") for i in range(4)]),
        f"{BASE}/b.xml": urlset(BASE, [(f"/b{i}", "") for i in range(4)]),
    })
    locations = [(f"{BASE}/{name}.xml", SitemapFound.ROBOTS) for name in ("gone", "a", "b")]
    harvest = harvest_sitemaps(locations, files, SitemapLimits(files=5, urls=6, bytes=10_000))
    assert [e.url.rsplit("/", 1)[1] for e in harvest.entries] == [
        "a0", "a1", "a2", "a3", "b0", "b1"]
    assert harvest.cut == 2
    gone = harvest.files[0]
    assert gone.outcome is SitemapOutcome.FAILED and "404" in gone.detail


def test_a_harvest_round_trips_through_its_dict() -> None:
    files = _Files({f"{BASE}/a.xml": urlset(BASE, [("/x", "2024-05-01"),
                                                     ("http://other/y", "")])})
    harvest = harvest_sitemaps([(f"{BASE}/a.xml", SitemapFound.DEFAULT)], files,
                               SitemapLimits(files=1, urls=10, bytes=10_000))
    assert harvest.files[0].other_host == 1
    assert SitemapHarvest.from_dict(harvest.to_dict()) == harvest


def test_a_sitemap_link_signal_says_so_and_a_page_link_reads_as_before() -> None:
    page = LinkSignal(url="http://h/a", locator_mask=1)
    assert "via" not in page.to_dict() and "lastmod" not in page.to_dict()
    mapped = LinkSignal(url="http://h/a", locator_mask=1, via=LinkVia.SITEMAP,
                        lastmod="2024-05-01")
    assert mapped.to_dict()["via"] == "sitemap"
    assert LinkSignal.from_dict(mapped.to_dict()) == mapped
    # where a link came from is shown, never scored
    assert mapped._row == page._row
