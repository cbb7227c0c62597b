"""The per-URL caches of issue 15 are bounded and answer what the uncached code answers."""

from __future__ import annotations

import itertools
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from w3lib.url import safe_url_string

from pagesift_ui.frontier import harvest, linkrules, links, urls
from pagesift_ui.page import lxmltree, resolve
from pagesift_ui.session import CrawlConfig, CrawlSession, enqueue
from tests.fakes import DictSource, policy_for

CACHES: dict[str, Any] = {
    "resolve._cleaned": resolve._cleaned,
    "resolve._base_directory": resolve._base_directory,
    "resolve._join_in_directory": resolve._join_in_directory,
    "resolve.resolve_href": resolve.resolve_href,
    "resolve.http_url": resolve.http_url,
    "lxmltree._boilerplate_classes": lxmltree._boilerplate_classes,
    "urls._clean": urls._clean,
    "urls._dedupe_key": urls._dedupe_key,
    "linkrules._is_ip": linkrules._is_ip,
    "linkrules._locator_text": linkrules._locator_text,
    "linkrules._furniture_path": linkrules._furniture_path,
    "linkrules._is_dated": linkrules._is_dated,
    "linkrules._section_shape": linkrules._section_shape,
    "linkrules._english_root": linkrules._english_root,
    "linkrules._other_language": linkrules._other_language,
    "links._locator_mask": links._locator_mask,
    "enqueue._url_refusal": enqueue._url_refusal,
    "harvest.subtree": harvest.subtree,
}


@pytest.mark.parametrize("cache", CACHES.values(), ids=CACHES.keys())
def test_every_per_url_cache_has_a_bound(cache: Any) -> None:
    assert cache.cache_info().maxsize is not None
    assert cache.cache_info().maxsize <= 65_536


def test_a_crawl_of_more_urls_than_the_bound_keeps_the_bound() -> None:
    bound = urls.URL_CACHE_SIZE
    for i in range(bound + 1_000):
        urls.dedupe_key(f"http://h{i % 7}.example/p/{i}?utm_source=x&id={i}")
    assert urls._clean.cache_info().currsize <= bound
    assert urls._dedupe_key.cache_info().currsize == bound


def _resolve_uncached(base: str, href: str) -> str | None:
    """resolve.resolve as it was before its caches."""
    href = href.strip().translate(resolve.TAB_NEWLINE)
    try:
        absolute = urldefrag(urljoin(base, href)).url
        parts = urlsplit(absolute)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
        return str(safe_url_string(absolute))
    except ValueError:
        return None


BASES = ("http://h.example/dir/page.html", "http://h.example/dir/page.html?q=1#top",
         "http://h.example", "https://h.example/a/b/?", "http://h.example/p;params/x")
HREFS = ("", "#", "#top", "a.html", "a.html#", "a.html#x", "a.html#x#y", "?q#f", "?#f",
         " ../up.html#s ", "//other.example/x#f", "http://o.example/p?#", "/abs#f", "a b.html#é",
         "javascript:void(0)#x", "mailto:a@b.example", "http://[bad#x", "http://h:99999/#f",
         "\ta\n.html#\tf", "https://Ü.example/ä?ö#ü",
         # fragments that cleaning empties (white space only) or keeps, and white space
         # before the "#", which cleaning keeps
         "a.html# ", "a.html#\t\n", "a.html#\x1c\xa0", "a.html#\xa0x", "a.html  #f",
         " \t#f", "  #", "?q# \r", " \x85a.html#\x85",
         # ";" alone is a same-document reference to urljoin, not a path
         ";", ";#f", ";?q", ";p", "x;p")


@pytest.mark.parametrize(("base", "href"), list(itertools.product(BASES, HREFS)))
def test_link_resolution_answers_as_before_its_caches(base: str, href: str) -> None:
    assert resolve.resolve(base, href) == _resolve_uncached(base, href)


# the pieces a base and an href are made of, the ones urljoin treats apart among them: dot
# and empty segments, ";" parameters, queries, fragments, schemes, percent-escapes, case
_SEGMENTS = st.sampled_from(["a", "b.html", ".", "..", "", "x;p", "%2e", "A~b", "c+d", "é", "e f"])
_BASES = st.builds(
    lambda scheme, host, segments, tail: f"{scheme}://{host}/{'/'.join(segments)}{tail}",
    st.sampled_from(["http", "https", "HTTP", "ftp"]),
    st.sampled_from(["h.example", "H.Example:8080", "u@h.example"]),
    st.lists(_SEGMENTS, max_size=4),
    st.sampled_from(["", "?q=1", "#top", "?#", "/"]),
) | st.sampled_from(["http://h.example", "http://h.example?q", "mailto:a@b.example"])
_HREFS = st.builds(
    lambda lead, segments, tail: lead + "/".join(segments) + tail,
    st.sampled_from(["", "/", "//o.example/", "./", "../", "x:", ";", "\\", "a?b:", "?"]),
    st.lists(_SEGMENTS, min_size=1, max_size=4),
    st.sampled_from(["", "?", "?q", "#f", "/", ";p", "# ", "#\t", " #\xa0", "#\x1cf", "\n"]),
) | st.lists(st.sampled_from(["a", "b.html", "%2e", "A~b", "c+d", "x.y.z"]), min_size=1,
             max_size=3).map("/".join)  # the plain relative paths the shortcut takes


@settings(max_examples=1500, deadline=None)
@given(base=_BASES, href=_HREFS)
def test_a_plain_relative_href_resolves_as_urljoin_resolves_it(base: str, href: str) -> None:
    # resolve's shortcut (the base's directory + the href) against urljoin's whole algorithm
    assert resolve.resolve(base, href) == _resolve_uncached(base, href)


def test_a_relative_path_is_joined_once_for_every_page_of_a_directory() -> None:
    # the join of a relative path is keyed by the base's directory: the pages of one
    # directory share it, a page elsewhere joins it again
    resolve._join_in_directory.cache_clear()
    pages = [f"http://h.example/lib/{name}.html?v=1" for name in ("a", "b", "c")]
    assert {resolve.resolve(page, "../api/x.html#s") for page in pages} == {
        "http://h.example/api/x.html"}
    assert resolve._join_in_directory.cache_info().misses == 1
    assert resolve.resolve("http://h.example/other/d.html", "../api/x.html#s") == (
        "http://h.example/api/x.html")
    assert resolve._join_in_directory.cache_info().misses == 2


def test_an_href_is_cleaned_once_whatever_its_fragment_says() -> None:
    # the cleaning is keyed by the part before the fragment and whether one is left
    resolve._cleaned.cache_clear()
    page = "http://h.example/lib/a.html"
    assert {resolve.resolve(page, f" x.html#{name}") for name in ("s", "t", "u\t")} == {
        "http://h.example/lib/x.html"}
    assert resolve._cleaned.cache_info().misses == 1
    assert resolve.resolve(page, " x.html#\t ") == "http://h.example/lib/x.html"
    assert resolve._cleaned.cache_info().misses == 2  # a fragment cleaning empties


def test_cached_url_rules_answer_for_the_anchor_each_time() -> None:
    # the section rule keeps the anchor out of its cache: one URL, two anchors, two answers
    url = "http://www.uni.example/admissions"
    assert linkrules.is_section_entry(url, "Admissions", "www.uni.example")
    assert not linkrules.is_section_entry(url, "", "www.uni.example")
    assert linkrules.is_section_entry(url, "Admissions", "www.uni.example")


def _cache_sizes_after_a_crawl_of(links: str) -> tuple[int, dict[str, int]]:
    """Every per-URL cache emptied, one crawl of a two-page site whose seed holds
    ``links`` besides its link to the second page: the skips of the seed's step and what
    each cache holds after it."""
    for cache in CACHES.values():
        cache.cache_clear()
    seed = "http://h.example/"
    config = CrawlConfig.from_mapping({"seed_url": seed, "query": "refund policy",
                                       "limit": 2, "delay_s": 0.0})
    pages = {seed: f'<html><body><main><a href="/refund">Refund policy</a>{links}'
                   "</main></body></html>",
             "http://h.example/refund": "<html><body><main><p>Refunds.</p></main></body></html>"}
    with CrawlSession(config, DictSource(pages, policy=policy_for(config))) as session:
        first = session.step()
        session.step()
    assert first.links is not None
    too_long = f"URL longer than {urls.MAX_URL_LENGTH} characters"
    skipped = first.links["skipped_by_reason"].get(too_long, 0)
    return skipped, {name: c.cache_info().currsize for name, c in CACHES.items()}


def test_links_over_the_url_limit_are_refused_without_entering_a_cache() -> None:
    # a page of 1,900 links of 2 KB each kept about a GB across the caches after a few
    # dozen such pages: they are bounded in entries, not bytes (docs/FAULTS.md)
    long_links = "".join(f'<a href="/{i}/{"x" * urls.MAX_URL_LENGTH}">p</a>' for i in range(50))
    skipped, with_long = _cache_sizes_after_a_crawl_of(long_links)
    assert skipped == 50  # each refused as too long, as before
    assert with_long == _cache_sizes_after_a_crawl_of("")[1]
